import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { alpha } from '@mui/material/styles';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LockOutlined from '@mui/icons-material/LockOutlined';
import { TICKET_BODY_MAX, type SupportAttachment, type SupportMessage } from '@portal/contract';
import { FormTextField, RuleForm, type RuleFormApi } from '@/forms/index.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { AttachmentButtons } from './attachment-buttons.tsx';
import { AttachmentsField, useChosenFiles } from './attachments-field.tsx';

/** Who reads the conversation: the customer on the ticket page, or support in the queue. */
export type ConversationSide = 'customer' | 'agent';

type Kind = 'customer' | 'agent' | 'note';

function kindOf(message: SupportMessage): Kind {
  if (message.internal) return 'note';
  return message.authorKind === 'AGENT' ? 'agent' : 'customer';
}

/** One message: who wrote it (named in words for screen readers too) and when, its text and its files. */
function Message({
  side,
  message,
  onDownload,
  downloading,
}: {
  side: ConversationSide;
  message: SupportMessage;
  onDownload: (file: SupportAttachment) => void;
  downloading: boolean;
}) {
  const { t } = useTranslation();
  const kind = kindOf(message);
  // The reader's own side stands indented to the right; the other side's messages carry its name as a chip.
  const own = kind === 'note' || kind === side;
  const author = message.authorName || t('support.detail.deletedUser');
  return (
    <Paper
      component="li"
      variant="outlined"
      aria-label={t(`supportAgent.messageOf.${kind}`, { name: author })}
      sx={(theme) => ({
        p: 2,
        listStyle: 'none',
        ml: own ? { sm: 6 } : 0,
        mr: own ? 0 : { sm: 6 },
        bgcolor: kind === 'agent' ? 'action.hover' : 'background.paper',
        ...(kind === 'note' && {
          bgcolor: alpha(theme.palette.warning.main, 0.1),
          borderColor: 'warning.main',
          borderStyle: 'dashed',
        }),
      })}
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Typography component="h3" variant="subtitle2">
          {author}
        </Typography>
        {kind === 'note' ? (
          <Chip
            size="small"
            variant="outlined"
            color="warning"
            icon={<LockOutlined />}
            label={t('supportAgent.internalNote')}
            // Coloured chip text falls below the contrast minimum; the outline and icon carry the colour.
            sx={{ '& .MuiChip-label': { color: 'text.primary' }, fontWeight: 600 }}
          />
        ) : (
          !own && <Chip size="small" variant="outlined" label={t(`supportAgent.authorKind.${kind}`)} />
        )}
        <Typography component="span" variant="body2" sx={{ color: 'text.secondary', ml: 'auto' }}>
          <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
        </Typography>
      </Stack>
      <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message.body}</Typography>
      <AttachmentButtons attachments={message.attachments} onDownload={onDownload} disabled={downloading} />
    </Paper>
  );
}

/**
 * A ticket's conversation, oldest first, for the customer and for support alike: each message named by its
 * author's side, the reader's own side indented, files as download buttons. Internal notes (marked in words and
 * by their look) show on support's side only; the customer's side drops any it is handed.
 */
export function Conversation({
  side,
  messages,
  onDownload,
  downloading = false,
}: {
  side: ConversationSide;
  messages: SupportMessage[];
  onDownload: (file: SupportAttachment) => void;
  downloading?: boolean;
}) {
  const { t } = useTranslation();
  const shown = side === 'agent' ? messages : messages.filter((message) => !message.internal);
  return (
    <Box component="section" aria-labelledby="ticket-conversation">
      <Typography id="ticket-conversation" component="h2" variant="h6" sx={{ mb: 1.5 }}>
        {t('support.detail.conversation')}
      </Typography>
      <Stack component="ol" spacing={1.5} sx={{ p: 0, m: 0 }}>
        {shown.map((message) => (
          <Message
            key={message.uuid}
            side={side}
            message={message}
            onDownload={onDownload}
            downloading={downloading}
          />
        ))}
      </Stack>
    </Box>
  );
}

/**
 * Writes a message to the ticket: its text and up to five files, checked before the upload (a refused file shows
 * under the files, the server's verdict too). The caller owns the form, so it may add fields of its own
 * (`extra`, beside the send button); after sending, the text and the files are cleared and the other fields keep
 * their values.
 */
export function MessageForm<V extends { body: string }>({
  form,
  label,
  helperText,
  submitLabel,
  busy,
  onSend,
  extra,
  ...aria
}: {
  form: RuleFormApi<V>;
  label: string;
  helperText?: string;
  submitLabel: string;
  busy: boolean;
  /** Sends the text (trimmed) and the chosen files; a refusal of a file lands under the files. */
  onSend: (values: V, files: File[]) => Promise<unknown>;
  extra?: ReactNode;
  'aria-label'?: string;
  'aria-labelledby'?: string;
}) {
  const attachments = useChosenFiles();
  const onSubmit = async (values: V) => {
    if (attachments.problem) return;
    try {
      await onSend({ ...values, body: values.body.trim() }, attachments.files);
    } catch (error) {
      if (attachments.serverError(error)) return;
      throw error;
    }
    form.reset({ ...form.getValues(), body: '' });
    attachments.clear();
  };
  return (
    <RuleForm form={form} onSubmit={onSubmit} {...aria}>
      <Stack spacing={2}>
        <FormTextField
          name="body"
          label={label}
          helperText={helperText}
          rules={`required|max:${TICKET_BODY_MAX}`}
          multiline
          minRows={4}
        />
        <AttachmentsField {...attachments.field} disabled={busy} />
        <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2, alignItems: { sm: 'center' } }}>
          {extra}
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            sx={{ ml: extra ? { sm: 'auto' } : 0, alignSelf: { xs: 'flex-start', sm: 'center' } }}
          >
            {submitLabel}
          </Button>
        </Stack>
      </Stack>
    </RuleForm>
  );
}
