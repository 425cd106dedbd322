import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import AttachFile from '@mui/icons-material/AttachFile';
import type { SupportAttachment } from '@portal/contract';
import { formatFileSize } from './labels.ts';

/** A message's attachments as download buttons: name and size, for customers and agents alike. */
export function AttachmentButtons({
  attachments,
  onDownload,
  disabled = false,
}: {
  attachments: SupportAttachment[];
  onDownload: (file: SupportAttachment) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  if (attachments.length === 0) return null;
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mt: 1.5 }}>
      {attachments.map((file) => (
        <Button
          key={file.uuid}
          size="small"
          variant="outlined"
          startIcon={<AttachFile />}
          disabled={disabled}
          aria-label={t('support.detail.download', { name: file.fileName, size: formatFileSize(file.size) })}
          onClick={() => onDownload(file)}
          sx={{ textTransform: 'none' }}
        >
          {file.fileName} ({formatFileSize(file.size)})
        </Button>
      ))}
    </Stack>
  );
}
