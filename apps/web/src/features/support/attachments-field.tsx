import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import { ATTACHMENTS_PER_MESSAGE_MAX, ATTACHMENT_EXTENSIONS, ATTACHMENT_MAX_BYTES } from '@portal/contract';
import { ApiError } from '@/api/client.ts';
import { useAttachmentErrors } from './attachment-errors.ts';
import { formatFileSize } from './labels.ts';

/** What is wrong with a chosen file that the browser can see already (the server judges the content). */
export function localFileProblem(
  file: File,
): 'attachmentEmpty' | 'attachmentTooLarge' | 'attachmentType' | null {
  if (file.size === 0) return 'attachmentEmpty';
  if (file.size > ATTACHMENT_MAX_BYTES) return 'attachmentTooLarge';
  const name = file.name.toLowerCase();
  if (!ATTACHMENT_EXTENSIONS.some((extension) => name.endsWith(extension))) return 'attachmentType';
  return null;
}

/**
 * The chosen files of a message form and the problem shown under them: `field` goes to AttachmentsField,
 * `serverError` shows the server's verdict on the files (and says whether the error was one), `clear` empties
 * the field after sending.
 */
export function useChosenFiles() {
  const [files, setFiles] = useState<File[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const attachmentErrors = useAttachmentErrors();
  return {
    files,
    problem,
    field: { files, onChange: setFiles, error: problem, onProblem: setProblem },
    serverError: (error: unknown) =>
      error instanceof ApiError && attachmentErrors.apply(error, files, setProblem),
    clear: () => {
      setFiles([]);
      setProblem(null);
    },
  };
}

/**
 * The files of a message: a picker (PDF, PNG, JPEG, TXT, CSV), the chosen files with name and size, each
 * removable. Too many or too large files are refused here, before anything is uploaded, with the reason under
 * the list; `error` shows the server's verdict on a file's content.
 */
export function AttachmentsField({
  files,
  onChange,
  error,
  onProblem,
  disabled,
}: {
  files: readonly File[];
  onChange: (files: File[]) => void;
  /** The message under the field (a refused file, local or from the server). */
  error: string | null;
  onProblem: (message: string | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const helpId = useId();
  const input = useRef<HTMLInputElement>(null);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (!chosen.length) return;
    const kept = [...files];
    const problems: string[] = [];
    for (const file of chosen) {
      const problem = localFileProblem(file);
      if (problem) problems.push(t(`support.errors.${problem}`, { name: file.name }));
      else if (kept.length >= ATTACHMENTS_PER_MESSAGE_MAX) {
        problems.push(t('support.errors.attachmentsTooMany', { count: ATTACHMENTS_PER_MESSAGE_MAX }));
        break;
      } else kept.push(file);
    }
    onChange(kept);
    onProblem(problems.length ? problems.join(' ') : null);
  };

  const full = files.length >= ATTACHMENTS_PER_MESSAGE_MAX;
  return (
    <Stack spacing={1}>
      <Typography component="label" htmlFor={inputId} variant="subtitle2">
        {t('support.form.attachments')}
      </Typography>
      <input
        ref={input}
        id={inputId}
        type="file"
        multiple
        hidden
        accept={ATTACHMENT_EXTENSIONS.join(',')}
        onChange={choose}
        aria-describedby={helpId}
      />
      {files.length > 0 && (
        <List dense disablePadding aria-label={t('support.form.chosenFiles')}>
          {files.map((file, index) => (
            <ListItem
              key={`${file.name}-${index}`}
              disableGutters
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={t('support.form.removeFile', { name: file.name })}
                  onClick={() => {
                    onChange(files.filter((_, i) => i !== index));
                    onProblem(null);
                  }}
                  disabled={disabled}
                >
                  <DeleteOutlined />
                </IconButton>
              }
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <InsertDriveFileOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText
                primary={file.name}
                secondary={formatFileSize(file.size)}
                slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
      <div>
        <Button
          variant="outlined"
          startIcon={<AttachFile />}
          onClick={() => input.current?.click()}
          disabled={disabled || full}
          aria-describedby={helpId}
        >
          {t('support.form.chooseFiles')}
        </Button>
      </div>
      <FormHelperText id={helpId} error={Boolean(error)} role={error ? 'alert' : undefined}>
        {error ??
          t('support.form.attachmentsHelp', {
            count: ATTACHMENTS_PER_MESSAGE_MAX,
            size: formatFileSize(ATTACHMENT_MAX_BYTES),
          })}
      </FormHelperText>
    </Stack>
  );
}
