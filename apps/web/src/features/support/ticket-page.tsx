import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ACTIVE_TICKET_STATUSES, TICKET_REOPEN_DAYS, canReopen, type SupportTicket } from '@portal/contract';
import { ApiError } from '@/api/client.ts';
import { useCurrentAccount, useCurrentAccountUuid } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { useRuleForm } from '@/forms/index.ts';
import { formatDate, formatDateTime } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { Page } from '@/ui/page.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import {
  ticketQuery,
  useDownloadAttachment,
  useCloseTicket,
  useReopenTicket,
  useReplyToTicket,
  useSetConsent,
} from './api.ts';
import { Conversation, MessageForm } from './conversation.tsx';
import { StatusChip } from './status-chip.tsx';

const DAY = 24 * 3600 * 1000;

/** The reply form: sending a reply puts the ticket back in support's queue. */
function ReplyForm({ account, ticket }: { account: string; ticket: SupportTicket }) {
  const { t } = useTranslation();
  const form = useRuleForm<{ body: string }>({ defaultValues: { body: '' } });
  const reply = useReplyToTicket(account, ticket.uuid);
  return (
    <SectionCard id="ticket-reply" title={t('support.detail.reply')}>
      <MessageForm
        form={form}
        aria-label={t('support.detail.reply')}
        label={t('support.detail.replyLabel')}
        submitLabel={reply.isPending ? t('support.detail.sending') : t('support.detail.send')}
        busy={reply.isPending}
        onSend={({ body }, files) => reply.mutateAsync({ body, files })}
      />
    </SectionCard>
  );
}

/**
 * Whether support may open the account because of this ticket, and the customer's way to change it: allow it on
 * an open ticket, end it at any time. Solving or closing the ticket ends it; reopening never gives it back
 * (decision 195). Staff reading the account see the state only.
 */
function ConsentCard({
  account,
  ticket,
  readOnly,
}: {
  account: string;
  ticket: SupportTicket;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const consent = useSetConsent(account, ticket.uuid);
  const active = ACTIVE_TICKET_STATUSES.includes(ticket.status);
  const granted = ticket.staffAccessConsent;
  const help = granted ? 'onHelp' : active ? 'offHelp' : 'ended';
  return (
    <SectionCard id="ticket-access" title={t('support.detail.access.title')}>
      <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <Alert severity={granted ? 'warning' : 'info'} sx={{ width: '100%' }}>
          {t(granted ? 'support.detail.access.on' : 'support.detail.access.off')}
        </Alert>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t(`support.detail.access.${help}`)}
        </Typography>
        {!readOnly && (granted || active) && (
          <Button
            variant={granted ? 'outlined' : 'contained'}
            color={granted ? 'inherit' : 'primary'}
            disabled={consent.isPending}
            onClick={() => consent.mutate(!granted)}
          >
            {t(granted ? 'support.detail.access.end' : 'support.detail.access.allow')}
          </Button>
        )}
      </Stack>
    </SectionCard>
  );
}

/** What the status means for the customer, with the reopen period of a solved ticket. */
function StatusNotice({ ticket }: { ticket: SupportTicket }) {
  const { t } = useTranslation();
  if (ticket.status === 'WAITING_FOR_CUSTOMER') {
    return <Alert severity="warning">{t('support.detail.waitingNotice')}</Alert>;
  }
  if (ticket.status === 'SOLVED') {
    const until = ticket.solvedAt
      ? new Date(new Date(ticket.solvedAt).getTime() + TICKET_REOPEN_DAYS * DAY)
      : null;
    return (
      <Alert severity="success">
        {canReopen(ticket) && until
          ? t('support.detail.solvedNotice', { date: formatDate(until) })
          : t('support.detail.solvedLate')}
      </Alert>
    );
  }
  if (ticket.status === 'CLOSED') return <Alert severity="info">{t('support.detail.closedNotice')}</Alert>;
  return null;
}

/** A ticket with its conversation, its status, reopen and close, support's access and the reply form. */
export default function TicketPage({ ticketUuid = '' }: { ticketUuid?: string }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const account = useCurrentAccountUuid();
  const detail = useQuery({
    ...ticketQuery(account, ticketUuid),
    meta: { silentError: true },
    retry: false,
  });
  const reopen = useReopenTicket(account, ticketUuid);
  const close = useCloseTicket(account, ticketUuid);
  const download = useDownloadAttachment(account, ticketUuid);
  // Staff who opened the account read the ticket; they answer it from the support queue (the server refuses
  // their changes here).
  const staff = useCurrentAccount()?.accountRole === 'SUPPORT';

  if (detail.isPending) {
    return (
      <Page title={t('routes.supportTicketDetail')}>
        <CircularProgress aria-label={t('support.detail.loading')} />
      </Page>
    );
  }
  if (detail.isError) {
    const missing = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <Page title={t('routes.supportTicketDetail')}>
        <Alert
          severity={missing ? 'info' : 'error'}
          action={
            <Button color="inherit" component={RouterLink} to={href('support-tickets')}>
              {t('support.home.allTickets')}
            </Button>
          }
        >
          {missing ? t('support.detail.notFound') : t('support.detail.loadError')}
        </Alert>
      </Page>
    );
  }

  const { ticket, messages } = detail.data;
  const active = ACTIVE_TICKET_STATUSES.includes(ticket.status);
  const onClose = async () => {
    const ok = await confirm({
      title: t('support.detail.closeTitle', { number: ticket.number }),
      message: t('support.detail.closeMessage'),
      confirmLabel: t('support.detail.close'),
    });
    if (ok) close.mutate();
  };

  const actions = staff ? undefined : (
    <>
      {canReopen(ticket) && (
        <Button variant="outlined" onClick={() => reopen.mutate()} disabled={reopen.isPending}>
          {t('support.detail.reopen')}
        </Button>
      )}
      {ticket.status !== 'CLOSED' && (
        <Button variant="outlined" color="inherit" onClick={() => void onClose()} disabled={close.isPending}>
          {t('support.detail.close')}
        </Button>
      )}
    </>
  );

  return (
    <Page title={ticket.subject} actions={actions}>
      <Stack spacing={3}>
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <StatusChip status={ticket.status} />
          <Typography sx={{ color: 'text.secondary' }}>
            {t('support.detail.meta', {
              number: ticket.number,
              category: t(`support.categories.${ticket.category}.label`),
              severity: t(`support.severities.${ticket.severity}`),
              name: ticket.createdBy?.name || t('support.detail.deletedUser'),
              date: formatDateTime(ticket.createdAt),
            })}
          </Typography>
        </Stack>
        {staff && <Alert severity="info">{t('support.staffReadOnly')}</Alert>}
        <StatusNotice ticket={ticket} />
        <ConsentCard account={account} ticket={ticket} readOnly={staff} />
        <Conversation
          side="customer"
          messages={messages}
          onDownload={(file) => download.mutate(file)}
          downloading={download.isPending}
        />
        {active && !staff && <ReplyForm account={account} ticket={ticket} />}
        {ticket.status !== 'CLOSED' && !active && !canReopen(ticket) && !staff && (
          <Box>
            <Button component={RouterLink} to={href('support-ticket')} variant="outlined">
              {t('support.home.newTicket')}
            </Button>
          </Box>
        )}
      </Stack>
    </Page>
  );
}
