import { useState } from 'react';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import OpenInNew from '@mui/icons-material/OpenInNew';
import {
  ACTIVE_TICKET_STATUSES,
  TICKET_STATUSES,
  maySupport,
  type QueueTicket,
  type TicketStatus,
  type UserRole,
} from '@portal/contract';
import { href } from '@/app/href.ts';
import { ApiError } from '@/api/errors.ts';
import { useMe } from '@/api/session.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { FilterSelect } from '@/ui/filter-select.tsx';
import { Page } from '@/ui/page.tsx';
import { Conversation } from '../conversation.tsx';
import {
  agentTicketQuery,
  supportAgentsQuery,
  useAgentAssign,
  useAgentStatus,
  useDownloadAttachment,
} from './api.ts';
import { Composer } from './composer.tsx';
import { waitingText } from './labels.ts';
import { AgentStatusChip, SeverityChip } from './ticket-chips.tsx';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, mb: 1.5, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </>
  );
}

/** A choice that takes effect only when applied (a status or an owner is never changed by a slip of the list). */
function ApplyChoice<V extends string>({
  label,
  current,
  options,
  disabled,
  busy,
  onApply,
}: {
  label: string;
  current: V;
  options: { value: V; label: string }[];
  disabled: boolean;
  busy: boolean;
  onApply: (value: V) => void;
}) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<V>(current);
  return (
    <Stack spacing={1}>
      <FilterSelect
        label={label}
        value={chosen}
        disabled={disabled}
        onChange={setChosen}
        sx={{ width: '100%' }}
        options={options}
      />
      <Button
        variant="outlined"
        sx={{ alignSelf: 'flex-end' }}
        disabled={disabled || chosen === current || busy}
        onClick={() => onApply(chosen)}
      >
        {t('supportAgent.apply')}
      </Button>
    </Stack>
  );
}

/** Changes the status. A closed ticket is final. */
function StatusControl({ ticket, userRole }: { ticket: QueueTicket; userRole: UserRole }) {
  const { t } = useTranslation();
  const change = useAgentStatus(ticket.uuid);
  return (
    <ApplyChoice<TicketStatus>
      label={t('supportAgent.changeStatus')}
      current={ticket.status}
      disabled={!maySupport(userRole, 'status') || ticket.status === 'CLOSED'}
      busy={change.isPending}
      onApply={(status) => change.mutate(status)}
      options={TICKET_STATUSES.map((status) => ({
        value: status,
        label: t(`supportAgent.statuses.${status}`),
      }))}
    />
  );
}

/**
 * Who owns the ticket. Agents take a free ticket or give their own back; managers give it to anyone who can
 * answer customers. The choices offered are the ones the server allows the caller.
 */
function AssignControl({
  ticket,
  userRole,
  myUuid,
}: {
  ticket: QueueTicket;
  userRole: UserRole;
  myUuid: string;
}) {
  const { t } = useTranslation();
  const assign = useAgentAssign(ticket.uuid);
  const agents = useQuery(supportAgentsQuery).data ?? [];
  const current = ticket.assignee?.uuid ?? '';
  const manager = maySupport(userRole, 'assignOther');
  const mayChange = manager || (maySupport(userRole, 'assignSelf') && (!current || current === myUuid));
  const options = [
    { value: '', label: t('supportAgent.nobody') },
    ...agents
      .filter((agent) => manager || agent.isSelf || agent.uuid === current)
      .map((agent) => ({
        value: agent.uuid,
        label: agent.isSelf ? t('supportAgent.me', { name: agent.name }) : agent.name || agent.email,
      })),
  ];
  if (current && !options.some((o) => o.value === current))
    options.push({ value: current, label: ticket.assignee!.name });
  return (
    <Stack spacing={1}>
      <ApplyChoice
        label={t('supportAgent.assignee')}
        current={current}
        disabled={!mayChange}
        busy={assign.isPending}
        onApply={(uuid) => assign.mutate(uuid || null)}
        options={options}
      />
      {!current && maySupport(userRole, 'assignSelf') && (
        <Button
          size="small"
          sx={{ alignSelf: 'flex-start' }}
          disabled={assign.isPending}
          onClick={() => assign.mutate(myUuid)}
        >
          {t('supportAgent.takeTicket')}
        </Button>
      )}
      {!mayChange && maySupport(userRole, 'assignSelf') && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('supportAgent.managerOnly')}
        </Typography>
      )}
    </Stack>
  );
}

/** The account link: staff open the customer's account only while the customer allows it on an active ticket. */
function AccountAccess({ ticket, userRole }: { ticket: QueueTicket; userRole: UserRole }) {
  const { t } = useTranslation();
  const allowed =
    userRole === 'PORTAL_ADMIN' ||
    (ticket.staffAccessConsent && ACTIVE_TICKET_STATUSES.includes(ticket.status));
  if (!allowed) return <Alert severity="info">{t('supportAgent.noConsent')}</Alert>;
  return (
    <Button
      component={RouterLink}
      to={href('dashboard', undefined, { uuid: ticket.accountUuid })}
      variant="outlined"
      startIcon={<OpenInNew />}
    >
      {t('supportAgent.openAccount')}
    </Button>
  );
}

/** One ticket for staff: the conversation with internal notes, the composer, and status and owner. */
export default function AgentTicketPage({ ticketUuid = '' }: { ticketUuid?: string }) {
  const { t } = useTranslation();
  const me = useMe();
  const { data, isPending, error } = useQuery(agentTicketQuery(ticketUuid));
  const download = useDownloadAttachment(ticketUuid);
  const back = (
    <Button component={RouterLink} to={href('support-queue')} startIcon={<ArrowBack />}>
      {t('supportAgent.backToQueue')}
    </Button>
  );
  if (isPending) {
    return (
      <Page title={t('routes.supportQueueTicket')} actions={back}>
        <CircularProgress aria-label={t('supportAgent.loading')} />
      </Page>
    );
  }
  if (!data) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <Page title={t('routes.supportQueueTicket')} actions={back}>
        <Alert severity={missing ? 'warning' : 'error'}>
          {missing ? t('supportAgent.notFound') : t('supportAgent.loadFailed')}
        </Alert>
      </Page>
    );
  }
  const { ticket, messages } = data;
  return (
    <Page
      title={t('supportAgent.ticketTitle', { number: ticket.number, subject: ticket.subject })}
      actions={back}
    >
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) 360px' },
          alignItems: 'start',
        }}
      >
        <Stack spacing={3}>
          <Conversation
            side="agent"
            messages={messages}
            onDownload={(file) => download.mutate(file)}
            downloading={download.isPending}
          />
          <Composer ticketUuid={ticket.uuid} status={ticket.status} userRole={me.userRole} />
        </Stack>
        <Paper component="aside" variant="outlined" aria-labelledby="ticket-facts" sx={{ p: 2 }}>
          <Typography id="ticket-facts" component="h2" variant="h6" sx={{ mb: 1.5 }}>
            {t('supportAgent.details')}
          </Typography>
          <Box component="dl" sx={{ m: 0 }}>
            <Fact label={t('supportAgent.account')}>{ticket.accountName}</Fact>
            <Fact label={t('supportAgent.status')}>
              <AgentStatusChip status={ticket.status} />
            </Fact>
            <Fact label={t('supportAgent.severity')}>
              <SeverityChip severity={ticket.severity} />
            </Fact>
            <Fact label={t('supportAgent.category')}>{t(`support.categories.${ticket.category}.label`)}</Fact>
            <Fact label={t('supportAgent.createdBy')}>
              {ticket.createdBy?.name ?? t('supportAgent.deletedUser')}
            </Fact>
            <Fact label={t('supportAgent.created')}>{formatDateTime(ticket.createdAt)}</Fact>
            <Fact label={t('supportAgent.waiting')}>
              {ticket.awaitingAgentSince
                ? waitingText(t, ticket.awaitingAgentSince)
                : t('supportAgent.notWaiting')}
            </Fact>
          </Box>
          <Stack spacing={2}>
            <AccountAccess ticket={ticket} userRole={me.userRole} />
            <StatusControl key={`status-${ticket.status}`} ticket={ticket} userRole={me.userRole} />
            <AssignControl
              key={`assignee-${ticket.assignee?.uuid ?? ''}`}
              ticket={ticket}
              userRole={me.userRole}
              myUuid={me.uuid}
            />
          </Stack>
        </Paper>
      </Box>
    </Page>
  );
}
