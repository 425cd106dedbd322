import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import LinkOff from '@mui/icons-material/LinkOff';
import type { AbaclikDevice } from '@portal/contract';
import { formatDateTime } from '@/i18n/format.ts';
import { RowActionsCell } from '@/ui/row-actions-cell.tsx';

const wide = { display: { xs: 'none', md: 'table-cell' } } as const;
const notOnPhones = { display: { xs: 'none', sm: 'table-cell' } } as const;

/**
 * Paired devices as a table: name, platform, app version, the person (when the list shows every member's), paired
 * and last seen, and the button that revokes the device.
 */
export function DevicesTable({
  devices,
  caption,
  withPerson,
  onRevoke,
  revoking,
}: {
  devices: readonly AbaclikDevice[];
  caption: string;
  withPerson: boolean;
  onRevoke: (device: AbaclikDevice) => void;
  revoking: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Table size="small" aria-label={caption} sx={{ '& th': { whiteSpace: 'nowrap' } }}>
      <TableHead>
        <TableRow>
          <TableCell>{t('abaclik.list.name')}</TableCell>
          <TableCell sx={notOnPhones}>{t('abaclik.list.platform')}</TableCell>
          <TableCell sx={wide}>{t('abaclik.list.appVersion')}</TableCell>
          {withPerson && <TableCell>{t('abaclik.list.person')}</TableCell>}
          <TableCell sx={wide}>{t('abaclik.list.pairedAt')}</TableCell>
          <TableCell>{t('abaclik.list.lastSeen')}</TableCell>
          <RowActionsCell>{t('abaclik.list.actions')}</RowActionsCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {devices.map((device) => (
          <TableRow key={device.uuid} hover>
            <TableCell>{device.name}</TableCell>
            <TableCell sx={notOnPhones}>{t(`abaclik.platforms.${device.platform}`)}</TableCell>
            <TableCell sx={wide}>{device.appVersion}</TableCell>
            {withPerson && (
              <TableCell>
                {device.isOwn ? t('abaclik.list.you', { name: device.person.name }) : device.person.name}
              </TableCell>
            )}
            <TableCell sx={{ ...wide, whiteSpace: 'nowrap' }}>{formatDateTime(device.pairedAt)}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(device.lastSeenAt)}</TableCell>
            <RowActionsCell>
              <Tooltip title={t('abaclik.revoke.action')}>
                <IconButton
                  aria-label={t('abaclik.revoke.label', { name: device.name })}
                  onClick={() => onRevoke(device)}
                  disabled={revoking}
                  size="small"
                >
                  <LinkOff fontSize="small" />
                </IconButton>
              </Tooltip>
            </RowActionsCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
