import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { maySupport, type TicketStatus, type UserRole } from '@portal/contract';
import { FormSelect, useRuleForm } from '@/forms/index.ts';
import { MessageForm } from '../conversation.tsx';
import { useAgentNote, useAgentReply } from './api.ts';

type Mode = 'reply' | 'note';

interface ComposerValues {
  body: string;
  /** The status after the answer; '' keeps it. */
  status: '' | TicketStatus;
}

/**
 * Writes to the ticket: an answer to the customer (optionally setting the status in the same step) or an
 * internal note only agents read, each with up to five files checked before the upload as the customer's reply
 * checks them (a note's files stay with agents). Roles that may not answer customers (SUPPORT) write notes only;
 * a closed ticket takes notes only.
 */
export function Composer({
  ticketUuid,
  status,
  userRole,
}: {
  ticketUuid: string;
  status: TicketStatus;
  userRole: UserRole;
}) {
  const { t } = useTranslation();
  const mayReply = maySupport(userRole, 'reply') && status !== 'CLOSED';
  const [chosen, setMode] = useState<Mode>('reply');
  const mode: Mode = mayReply ? chosen : 'note';
  const reply = useAgentReply(ticketUuid);
  const note = useAgentNote(ticketUuid);
  const form = useRuleForm<ComposerValues>({ defaultValues: { body: '', status: 'WAITING_FOR_CUSTOMER' } });
  const busy = reply.isPending || note.isPending;
  const onSend = ({ body, status: next }: ComposerValues, files: File[]) =>
    mode === 'reply'
      ? reply.mutateAsync({ body, files, ...(next ? { status: next } : {}) })
      : note.mutateAsync({ body, files });

  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, ...(mode === 'note' && { borderColor: 'warning.main', borderStyle: 'dashed' }) }}
    >
      <Typography id="composer-title" component="h2" variant="h6" sx={{ mb: 1.5 }}>
        {t('supportAgent.write')}
      </Typography>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={mode}
        onChange={(_event, value: Mode | null) => value && setMode(value)}
        aria-label={t('supportAgent.writeKind')}
        sx={{ mb: 2 }}
      >
        <ToggleButton value="reply" disabled={!mayReply}>
          {t('supportAgent.replyMode')}
        </ToggleButton>
        <ToggleButton value="note">{t('supportAgent.noteMode')}</ToggleButton>
      </ToggleButtonGroup>
      {!maySupport(userRole, 'reply') && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('supportAgent.notesOnly')}
        </Alert>
      )}
      <MessageForm
        form={form}
        aria-labelledby="composer-title"
        label={mode === 'reply' ? t('supportAgent.replyLabel') : t('supportAgent.noteLabel')}
        helperText={mode === 'reply' ? t('supportAgent.replyHelp') : t('supportAgent.noteHelp')}
        submitLabel={mode === 'reply' ? t('supportAgent.sendReply') : t('supportAgent.saveNote')}
        busy={busy}
        onSend={onSend}
        extra={
          mode === 'reply' && (
            <FormSelect
              name="status"
              label={t('supportAgent.statusAfter')}
              size="small"
              sx={{ minWidth: 260 }}
              options={[
                { value: '', label: t('supportAgent.keepStatus') },
                { value: 'WAITING_FOR_CUSTOMER', label: t('supportAgent.statuses.WAITING_FOR_CUSTOMER') },
                { value: 'SOLVED', label: t('supportAgent.statuses.SOLVED') },
              ]}
            />
          )
        }
      />
    </Paper>
  );
}
