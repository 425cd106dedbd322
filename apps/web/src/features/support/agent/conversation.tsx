import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import LockOutlined from '@mui/icons-material/LockOutlined';
import type { SupportMessage } from '@portal/contract';
import { formatDateTime } from '@/i18n/format.ts';
import { AttachmentButtons } from '../attachment-buttons.tsx';
import { useDownloadAttachment } from './api.ts';

function Message({ ticketUuid, message }: { ticketUuid: string; message: SupportMessage }) {
  const { t } = useTranslation();
  const download = useDownloadAttachment(ticketUuid);
  const kind = message.internal ? 'note' : message.authorKind === 'AGENT' ? 'agent' : 'customer';
  const author = message.authorName ?? t('supportAgent.deletedUser');
  return (
    <Paper
      component="li"
      variant="outlined"
      aria-label={t(`supportAgent.messageOf.${kind}`, { name: author })}
      sx={(theme) => ({
        p: 2,
        listStyle: 'none',
        ...(kind === 'note' && {
          bgcolor: alpha(theme.palette.warning.main, 0.1),
          borderColor: 'warning.main',
          borderStyle: 'dashed',
        }),
        ...(kind === 'agent' && { bgcolor: alpha(theme.palette.primary.main, 0.05), ml: { sm: 4 } }),
      })}
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Typography component="span" sx={{ fontWeight: 600 }}>
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
          <Chip size="small" variant="outlined" label={t(`supportAgent.authorKind.${kind}`)} />
        )}
        <Typography component="span" variant="body2" sx={{ color: 'text.secondary', ml: 'auto' }}>
          <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
        </Typography>
      </Stack>
      <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message.body}</Typography>
      <AttachmentButtons
        attachments={message.attachments}
        onDownload={(file) => download.mutate(file)}
        disabled={download.isPending}
      />
    </Paper>
  );
}

/** The ticket's conversation, oldest first; internal notes are marked in words and by their look. */
export function Conversation({ ticketUuid, messages }: { ticketUuid: string; messages: SupportMessage[] }) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby="conversation-title">
      <Typography id="conversation-title" component="h2" variant="h6" sx={{ mb: 1.5 }}>
        {t('supportAgent.conversation')}
      </Typography>
      <Stack component="ol" spacing={1.5} sx={{ p: 0, m: 0 }}>
        {messages.map((message) => (
          <Message key={message.uuid} ticketUuid={ticketUuid} message={message} />
        ))}
      </Stack>
    </Box>
  );
}
