import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import UploadFile from '@mui/icons-material/UploadFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { LOGO_MAX_BYTES, LOGO_TYPES, companyRoutes, type CompanyProfile } from '@portal/contract';
import { useMayCall } from '@/api/session.ts';
import { serverFieldErrors } from '@/forms/index.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { companyLogoQuery, useRemoveLogo, useUploadLogo } from './api.ts';

/** The problem with a chosen file the browser can already see (size, a declared type); the server checks the content. */
function localProblem(file: File): 'logoTooLarge' | 'logoType' | 'logoEmpty' | null {
  if (file.size === 0) return 'logoEmpty';
  if (file.size > LOGO_MAX_BYTES) return 'logoTooLarge';
  if (file.type && !(LOGO_TYPES as readonly string[]).includes(file.type)) return 'logoType';
  return null;
}

/** The logo: a preview, upload or replace (PNG, JPEG, SVG up to 1 MB) and remove; errors show under it. */
export function CompanyLogo({ account, profile }: { account: string; profile: CompanyProfile }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const helpId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useUploadLogo(account);
  const remove = useRemoveLogo(account);
  const image = useQuery(companyLogoQuery(account, profile.logo));
  const busy = upload.isPending || remove.isPending;
  const mayChange = useMayCall(companyRoutes.uploadCompanyLogo);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const local = localProblem(file);
    setProblem(local);
    if (local) return;
    try {
      await upload.mutateAsync(file);
    } catch (error) {
      const message = serverFieldErrors(error).logo;
      setProblem(message ?? (error instanceof Error ? error.message : String(error)));
    }
  };

  const removeLogo = async () => {
    const ok = await confirm({
      title: t('company.removeLogoTitle'),
      message: t('company.removeLogoMessage'),
      confirmLabel: t('company.removeLogo'),
      destructive: true,
    });
    if (ok) {
      setProblem(null);
      remove.mutate();
    }
  };

  const errorText = problem ? t(problem as 'logoType', { ns: 'validation', defaultValue: problem }) : null;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' } }}>
      <Box
        sx={{
          width: 200,
          height: 120,
          flexShrink: 0,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          // A light ground in both themes: most logos are drawn for white paper.
          bgcolor: '#ffffff',
          p: 1.5,
        }}
      >
        {profile.logo && image.data ? (
          <Box
            component="img"
            src={image.data}
            alt={t('company.logoAlt', { name: profile.legalName })}
            sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
          />
        ) : profile.logo && image.isPending ? (
          <CircularProgress size={24} aria-label={t('company.logo')} />
        ) : (
          <Typography variant="body2" sx={{ color: '#5f6368' }}>
            {t('company.noLogo')}
          </Typography>
        )}
      </Box>
      {mayChange && (
        <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <Stack direction="row" spacing={1.5} sx={{ flexWrap: 'wrap', gap: 1.5 }}>
            <Button
              component="label"
              variant="outlined"
              startIcon={upload.isPending ? <CircularProgress size={16} /> : <UploadFile />}
              disabled={busy}
            >
              {upload.isPending
                ? t('company.uploading')
                : profile.logo
                  ? t('company.replaceLogo')
                  : t('company.uploadLogo')}
              <input
                type="file"
                hidden
                accept={LOGO_TYPES.join(',')}
                aria-describedby={helpId}
                aria-invalid={Boolean(errorText)}
                onChange={(event) => void choose(event)}
              />
            </Button>
            {profile.logo && (
              <Button
                color="error"
                startIcon={<DeleteOutlined />}
                disabled={busy}
                onClick={() => void removeLogo()}
              >
                {t('company.removeLogo')}
              </Button>
            )}
          </Stack>
          <FormHelperText id={helpId} error={Boolean(errorText)} role={errorText ? 'alert' : undefined}>
            {errorText ?? t('company.logoHelp')}
          </FormHelperText>
        </Stack>
      )}
    </Stack>
  );
}
