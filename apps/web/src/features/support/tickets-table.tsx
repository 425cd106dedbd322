import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableContainer from '@mui/material/TableContainer';
import type { SupportTicket } from '@portal/contract';
import { href } from '@/app/href.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { StatusChip } from './status-chip.tsx';

/** Tickets as a table: number, subject (the link to the ticket), status, category, severity, last activity. */
export function TicketsTable({ tickets, caption }: { tickets: readonly SupportTicket[]; caption: string }) {
  const { t } = useTranslation();
  return (
    <TableContainer>
      <Table size="small" aria-label={caption}>
        <TableHead>
          <TableRow>
            <TableCell>{t('support.list.number')}</TableCell>
            <TableCell>{t('support.list.subject')}</TableCell>
            <TableCell>{t('support.list.status')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
              {t('support.list.category')}
            </TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
              {t('support.list.severity')}
            </TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
              {t('support.list.createdBy')}
            </TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
              {t('support.list.lastActivity')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tickets.map((ticket) => (
            <TableRow key={ticket.uuid} hover>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{ticket.number}</TableCell>
              <TableCell>
                <Link component={RouterLink} to={href('support-ticket-detail', { ticketUuid: ticket.uuid })}>
                  {ticket.subject}
                </Link>
              </TableCell>
              <TableCell>
                <StatusChip status={ticket.status} />
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                {t(`support.categories.${ticket.category}.label`)}
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                {t(`support.severities.${ticket.severity}`)}
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                {ticket.createdBy?.name || t('support.detail.deletedUser')}
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, whiteSpace: 'nowrap' }}>
                {formatDateTime(ticket.lastMessageAt)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
