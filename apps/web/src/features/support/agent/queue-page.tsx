import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  QUEUE_PAGE_SIZE_MAX,
  QUEUE_STATUS_FILTERS,
  SUPPORT_CATEGORIES,
  SUPPORT_SEVERITIES,
  type QueueQuery,
  type QueueStatusFilter,
  type SupportCategory,
  type SupportSeverity,
} from '@portal/contract';
import { href } from '@/app/href.ts';
import { AddressPagination, useAddressParams } from '@/ui/address-pagination.tsx';
import { FilterSelect } from '@/ui/filter-select.tsx';
import { Page } from '@/ui/page.tsx';
import { queueQuery, supportAgentsQuery } from './api.ts';
import { waitingText } from './labels.ts';
import { AgentStatusChip, SeverityChip } from './ticket-chips.tsx';

const COLUMNS = ['number', 'subject', 'account', 'severity', 'status', 'assignee', 'waiting'] as const;
const PAGE_SIZES = [10, 25, 50, QUEUE_PAGE_SIZE_MAX];
/** Waiting times the filter offers, in hours. */
const WAITING_CHOICES = [1, 4, 24, 72];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
  list.includes(value as T) ? (value as T) : undefined;

/** The queue's filters and page live in the address, so a link, a reload and "back" keep them. */
function readQuery(params: URLSearchParams): QueueQuery {
  const assignee = params.get('assignee');
  const waiting = Number(params.get('waitingHours'));
  const page = Number(params.get('page'));
  const pageSize = Number(params.get('pageSize'));
  return {
    status: oneOf(QUEUE_STATUS_FILTERS, params.get('status')) ?? 'ACTIVE',
    severity: oneOf(SUPPORT_SEVERITIES, params.get('severity')),
    category: oneOf(SUPPORT_CATEGORIES, params.get('category')),
    assignee:
      assignee === 'mine' || assignee === 'unassigned' || (assignee && UUID.test(assignee))
        ? assignee
        : undefined,
    waitingHours: WAITING_CHOICES.includes(waiting) ? waiting : undefined,
    page: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : 25,
  };
}

/**
 * The support queue across every account, for staff: filters by status, severity, category, assignee and
 * waiting time; longest waiting first; paged on the server.
 */
export default function QueuePage() {
  const { t } = useTranslation();
  const { params, set } = useAddressParams();
  const query = readQuery(params);
  const { data, isFetching, isError } = useQuery(queueQuery(query));
  const agents = useQuery(supportAgentsQuery).data ?? [];
  const rows = data?.data ?? [];
  const total = data?.meta.total ?? 0;
  const pageSize = query.pageSize ?? 25;

  const filtered = Boolean(
    query.severity || query.category || query.assignee || query.waitingHours || query.status !== 'ACTIVE',
  );

  return (
    <Page title={t('routes.supportQueue')}>
      <Typography sx={{ color: 'text.secondary', mb: 2, maxWidth: 800 }}>
        {t('supportAgent.queueIntro')}
      </Typography>
      <Stack
        component="search"
        aria-label={t('supportAgent.filters')}
        direction="row"
        sx={{ gap: 2, flexWrap: 'wrap', mb: 2 }}
      >
        <FilterSelect
          label={t('supportAgent.status')}
          value={query.status ?? 'ACTIVE'}
          onChange={(value) => set('status', value === 'ACTIVE' ? undefined : value)}
          options={QUEUE_STATUS_FILTERS.map((value: QueueStatusFilter) => ({
            value,
            label: t(`supportAgent.statusFilter.${value}`),
          }))}
        />
        <FilterSelect
          label={t('supportAgent.severity')}
          value={query.severity ?? ''}
          onChange={(value) => set('severity', value)}
          options={[
            { value: '', label: t('supportAgent.any') },
            ...SUPPORT_SEVERITIES.map((value: SupportSeverity) => ({
              value,
              label: t(`support.severities.${value}`),
            })),
          ]}
        />
        <FilterSelect
          label={t('supportAgent.category')}
          value={query.category ?? ''}
          onChange={(value) => set('category', value)}
          options={[
            { value: '', label: t('supportAgent.any') },
            ...SUPPORT_CATEGORIES.map((value: SupportCategory) => ({
              value,
              label: t(`support.categories.${value}.label`),
            })),
          ]}
        />
        <FilterSelect
          label={t('supportAgent.assignee')}
          value={query.assignee ?? ''}
          onChange={(value) => set('assignee', value)}
          options={[
            { value: '', label: t('supportAgent.anyone') },
            { value: 'mine', label: t('supportAgent.mine') },
            { value: 'unassigned', label: t('supportAgent.unassigned') },
            ...agents.filter((a) => !a.isSelf).map((a) => ({ value: a.uuid, label: a.name || a.email })),
          ]}
        />
        <FilterSelect
          label={t('supportAgent.waiting')}
          value={query.waitingHours ? String(query.waitingHours) : ''}
          onChange={(value) => set('waitingHours', value)}
          options={[
            { value: '', label: t('supportAgent.anyWaiting') },
            ...WAITING_CHOICES.map((hours) => ({
              value: String(hours),
              label: t('supportAgent.waitingLonger', { count: hours }),
            })),
          ]}
        />
      </Stack>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {isFetching && <LinearProgress aria-label={t('supportAgent.loading')} sx={{ height: 2 }} />}
        <Table size="small" aria-label={t('routes.supportQueue')}>
          <TableHead>
            <TableRow>
              {COLUMNS.map((column) => (
                <TableCell key={column}>{t(`supportAgent.${column}`)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((ticket) => (
              <TableRow key={ticket.uuid} hover>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>#{ticket.number}</TableCell>
                {/* Wide enough for a word: on a phone the table scrolls sideways instead of breaking words. */}
                <TableCell sx={{ minWidth: 180, overflowWrap: 'break-word' }}>
                  <Link component={RouterLink} to={href('support-queue-ticket', { ticketUuid: ticket.uuid })}>
                    {ticket.subject}
                  </Link>
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {t(`support.categories.${ticket.category}.label`)}
                  </Typography>
                </TableCell>
                <TableCell>{ticket.accountName}</TableCell>
                <TableCell>
                  <SeverityChip severity={ticket.severity} />
                </TableCell>
                <TableCell>
                  <AgentStatusChip status={ticket.status} />
                </TableCell>
                <TableCell>
                  {ticket.assignee ? (
                    ticket.assignee.name
                  ) : (
                    <Chip size="small" variant="outlined" label={t('supportAgent.unassigned')} />
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {ticket.awaitingAgentSince ? waitingText(t, ticket.awaitingAgentSince) : '—'}
                </TableCell>
              </TableRow>
            ))}
            {!rows.length && !isFetching && (
              <TableRow>
                <TableCell
                  colSpan={COLUMNS.length}
                  sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}
                >
                  {isError
                    ? t('supportAgent.loadFailed')
                    : filtered
                      ? t('supportAgent.noMatch')
                      : t('supportAgent.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <AddressPagination total={total} page={query.page ?? 1} pageSize={pageSize} sizes={PAGE_SIZES} />
    </Page>
  );
}
