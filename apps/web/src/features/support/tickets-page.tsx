import { useState } from 'react';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import { TICKET_STATUSES, type TicketStatus } from '@portal/contract';
import { ServerPagination } from '@/ui/address-pagination.tsx';
import { useCurrentAccountUuid } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import { ticketsQuery } from './api.ts';
import { TicketsTable } from './tickets-table.tsx';

const PAGE_SIZES = [10, 25, 50];

/**
 * The account's tickets, newest first, paged on the server and filtered by status. An EMPLOYEE sees their own
 * tickets, ADMIN and above every ticket of the account (the server decides).
 */
export default function TicketsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<TicketStatus | ''>('');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(25);
  const account = useCurrentAccountUuid();
  const tickets = useQuery(ticketsQuery(account, { status: status || undefined, page: page + 1, pageSize }));
  const total = tickets.data?.meta.total ?? 0;
  const rows = tickets.data?.data ?? [];

  const newTicket = (
    <Button variant="contained" startIcon={<Add />} component={RouterLink} to={href('support-ticket')}>
      {t('support.home.newTicket')}
    </Button>
  );

  if (tickets.isSuccess && total === 0 && !status) {
    return (
      <Page title={t('routes.supportTickets')}>
        <EmptyState
          icon={SupportAgentOutlined}
          title={t('support.list.empty')}
          text={t('support.list.emptyText')}
          action={{ to: href('support-ticket'), label: t('support.home.newTicket') }}
        />
      </Page>
    );
  }

  return (
    <Page title={t('routes.supportTickets')} actions={newTicket}>
      <Stack spacing={2}>
        <TextField
          select
          label={t('support.list.status')}
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as TicketStatus | '');
            setPage(0);
          }}
          sx={{ maxWidth: 280 }}
          size="small"
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">{t('support.list.anyStatus')}</MenuItem>
          {TICKET_STATUSES.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`support.statuses.${value}`)}
            </MenuItem>
          ))}
        </TextField>
        {tickets.isError && <Alert severity="error">{t('support.list.loadError')}</Alert>}
        <Paper variant="outlined">
          {tickets.isPending ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
              <CircularProgress aria-label={t('support.list.loading')} />
            </Box>
          ) : rows.length === 0 ? (
            <Typography sx={{ p: 3, color: 'text.secondary' }}>{t('support.list.noMatches')}</Typography>
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <TicketsTable tickets={rows} caption={t('routes.supportTickets')} />
            </Box>
          )}
          <ServerPagination
            total={total}
            page={page + 1}
            pageSize={pageSize}
            sizes={PAGE_SIZES}
            onChange={(next, size) => {
              setPageSize(size);
              setPage(next - 1);
            }}
          />
        </Paper>
      </Stack>
    </Page>
  );
}
