import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import TableContainer from '@mui/material/TableContainer';
import QrCode2 from '@mui/icons-material/QrCode2';
import { mayManageAllAbaclikDevices, type AbaclikDevice } from '@portal/contract';
import { useCurrentAccount, useCurrentAccountUuid } from '@/api/session.ts';
import { ServerPagination } from '@/ui/address-pagination.tsx';
import { useConfirm } from '@/ui/confirm.tsx';
import { Page } from '@/ui/page.tsx';
import { devicesQuery, useRevokeDevice } from './api.ts';
import { DevicesTable } from './devices-table.tsx';
import { PairDialog } from './pair-dialog.tsx';

const PAGE_SIZES = [10, 25, 50];
type Scope = 'mine' | 'all';

/**
 * AbaClik: every member pairs their own phone with the time-tracking app and sees and revokes their own devices;
 * ADMIN and above also see every member's devices (with the person) and may revoke any. The list is paged on the
 * server; revoking asks first.
 */
export default function AbaclikPage() {
  const { t } = useTranslation();
  const account = useCurrentAccount();
  const manager = mayManageAllAbaclikDevices(account?.accountRole);
  // Staff looking into a customer's account have no devices of their own there and pair none (the server refuses).
  const staff = account?.accountRole === 'SUPPORT';
  const [scope, setScope] = useState<Scope>(staff ? 'all' : 'mine');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [pairing, setPairing] = useState(false);
  const shown: Scope = manager ? scope : 'mine';
  const accountUuid = useCurrentAccountUuid();
  const devices = useQuery(devicesQuery(accountUuid, { scope: shown, page, pageSize }));
  const revoke = useRevokeDevice(accountUuid);
  const confirm = useConfirm();
  const rows = devices.data?.data ?? [];
  const total = devices.data?.meta.total ?? 0;

  const askRevoke = async (device: AbaclikDevice) => {
    const confirmed = await confirm({
      title: t('abaclik.revoke.title'),
      message: device.isOwn
        ? t('abaclik.revoke.messageOwn', { name: device.name })
        : t('abaclik.revoke.messageOther', { name: device.name, person: device.person.name }),
      confirmLabel: t('abaclik.revoke.confirm'),
      destructive: true,
    });
    if (confirmed) revoke.mutate(device);
  };

  const caption = shown === 'all' ? t('abaclik.list.allDevices') : t('abaclik.list.myDevices');
  return (
    <Page
      title={t('routes.abaclik')}
      actions={
        !staff && (
          <Button variant="contained" startIcon={<QrCode2 />} onClick={() => setPairing(true)}>
            {t('abaclik.pair.action')}
          </Button>
        )
      }
    >
      <Stack spacing={2}>
        <Typography sx={{ color: 'text.secondary', maxWidth: 760 }}>{t('abaclik.intro')}</Typography>
        {manager && (
          <Tabs
            value={scope}
            onChange={(_event, next: Scope) => {
              setScope(next);
              setPage(1);
            }}
            aria-label={t('abaclik.list.scope')}
          >
            <Tab value="mine" label={t('abaclik.list.myDevices')} />
            <Tab value="all" label={t('abaclik.list.allDevices')} />
          </Tabs>
        )}
        {devices.isError && <Alert severity="error">{t('abaclik.list.loadError')}</Alert>}
        <Paper variant="outlined">
          {devices.isPending ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
              <CircularProgress aria-label={t('abaclik.list.loading')} />
            </Box>
          ) : rows.length === 0 ? (
            <Box sx={{ p: 3 }}>
              <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                {t('abaclik.list.empty')}
              </Typography>
              <Typography sx={{ color: 'text.secondary' }}>
                {shown === 'all' ? t('abaclik.list.emptyAll') : t('abaclik.list.emptyMine')}
              </Typography>
            </Box>
          ) : (
            <TableContainer>
              <DevicesTable
                devices={rows}
                caption={caption}
                withPerson={shown === 'all'}
                onRevoke={(device) => void askRevoke(device)}
                revoking={revoke.isPending}
              />
            </TableContainer>
          )}
          {total > 0 && (
            <ServerPagination
              total={total}
              page={page}
              pageSize={pageSize}
              sizes={PAGE_SIZES}
              onChange={(next, size) => {
                setPageSize(size);
                setPage(next);
              }}
            />
          )}
        </Paper>
      </Stack>
      {pairing && <PairDialog onClose={() => setPairing(false)} />}
    </Page>
  );
}
