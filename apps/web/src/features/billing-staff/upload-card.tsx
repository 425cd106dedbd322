import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { CAMT_MAX_BYTES } from '@portal/contract';
import { SectionCard } from '@/ui/section-card.tsx';
import { errorKey, useImportPayments } from './api.ts';

const COUNTS = ['matched', 'partial', 'unmatched', 'duplicates'] as const;

/** Uploads the bank's camt.054 file and says how its credits were booked, or why the file was refused. */
export function UploadCard() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const upload = useImportPayments();
  const result = upload.data;
  // A file over the limit is refused here already; the server refuses it too.
  const [tooLarge, setTooLarge] = useState(false);
  const problem = tooLarge ? 'camtTooLarge' : upload.error ? errorKey(upload.error) : null;

  const choose = (file: File | undefined) => {
    if (!file) return;
    upload.reset();
    setTooLarge(file.size > CAMT_MAX_BYTES);
    if (file.size <= CAMT_MAX_BYTES) upload.mutate(file);
  };

  return (
    <SectionCard id="billing-staff-upload" title={t('billingStaff.upload.title')}>
      <Typography sx={{ color: 'text.secondary', mb: 2 }}>{t('billingStaff.upload.hint')}</Typography>
      <input
        ref={input}
        type="file"
        accept=".xml,application/xml,text/xml"
        hidden
        aria-label={t('billingStaff.upload.choose')}
        data-testid="camt-file"
        onChange={(event) => {
          choose(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <Button
        variant="contained"
        startIcon={<UploadFileOutlined />}
        loading={upload.isPending}
        onClick={() => input.current?.click()}
      >
        {t('billingStaff.upload.choose')}
      </Button>
      <Stack role="status" aria-live="polite" sx={{ mt: 2, gap: 1 }}>
        {result && !upload.isPending && (
          <Alert severity={result.counts.unmatched || result.counts.partial ? 'warning' : 'success'}>
            <Typography sx={{ fontWeight: 600 }}>
              {t('billingStaff.upload.done', { fileName: result.fileName })}
            </Typography>
            <Stack
              component="ul"
              direction="row"
              sx={{ gap: 3, m: 0, p: 0, listStyle: 'none', flexWrap: 'wrap' }}
            >
              {COUNTS.map((count) => (
                <li key={count} data-testid={`count-${count}`}>
                  {t(`billingStaff.counts.${count}`)}: <strong>{result.counts[count]}</strong>
                </li>
              ))}
            </Stack>
          </Alert>
        )}
        {(upload.isError || tooLarge) && (
          <Alert severity="error">
            {problem
              ? t(`billingStaff.errors.${problem}` as 'billingStaff.errors.unknown', {
                  defaultValue: upload.error?.message,
                })
              : upload.error?.message}
          </Alert>
        )}
      </Stack>
    </SectionCard>
  );
}
