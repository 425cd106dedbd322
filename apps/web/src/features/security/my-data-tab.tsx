import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import OpenInNew from '@mui/icons-material/OpenInNew';
import {
  REAUTHENTICATION_REQUIRED,
  type DataExportStatus,
  type LoginDeletionPreview,
} from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { href } from '@/app/href.ts';
import { reauthenticateFor, useResumeAfterReauthentication } from '@/auth/reauthentication.ts';
import { FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { formatDate, formatDateTime } from '@/i18n/format.ts';
import { LinkAlert, SectionCard } from '@/ui/section-card.tsx';
import { useToast } from '@/ui/toast.tsx';
import { visuallyHidden } from '@/ui/visually-hidden.ts';
import {
  dataExportQuery,
  loginDeletionQuery,
  useDeleteLogin,
  useDownloadDataExport,
  useRequestDataExport,
} from './api.ts';
import { SubmitButton, useSecurityFieldErrors } from './security-form-parts.tsx';

/**
 * The tab "Meine Daten" of settings/users: the download of everything the portal keeps about the person, and the
 * deletion of their login (decisions 231 and 232).
 */
export function MyDataTab() {
  const { t } = useTranslation();
  const status = useQuery(dataExportQuery);
  const deletion = useQuery(loginDeletionQuery);
  if (status.isPending || deletion.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={t('security.loading')} />
      </Box>
    );
  }
  if (status.isError || deletion.isError) return <Alert severity="error">{t('security.loadError')}</Alert>;
  return (
    <Stack spacing={3}>
      <DataExportCard status={status.data} />
      <DeleteLoginCard preview={deletion.data} />
    </Stack>
  );
}

/** The export's password errors (wrong, locked) and the once-a-day rule, on the password field. */
function useExportErrors() {
  const { t } = useTranslation();
  const translate = useSecurityFieldErrors('password');
  return (error: unknown) => {
    if (error instanceof ApiError && error.code === 'DATA_EXPORT_TOO_SOON') {
      return new ApiError(error.status, error.message, error.code, {
        password: t('security.myData.tooSoon'),
      });
    }
    return translate(error);
  };
}

function DataExportCard({ status }: { status: DataExportStatus }) {
  const { t } = useTranslation();
  const toast = useToast();
  const form = useRuleForm<{ password: string }>({ defaultValues: { password: '' } });
  const request = useRequestDataExport();
  const download = useDownloadDataExport();
  const translate = useExportErrors();
  const { latest, nextAllowedAt } = status;
  const embedded = status.provider === 'embedded';

  const onSubmit = async ({ password }: { password: string }) => {
    try {
      await request.mutateAsync(embedded ? { password } : {});
    } catch (error) {
      // An external Keycloak: sign in again there, then the request goes on when the page is back.
      if (error instanceof ApiError && error.code === REAUTHENTICATION_REQUIRED) {
        await reauthenticateFor('my-data-export');
        return;
      }
      throw translate(error);
    }
    form.reset({ password: '' });
    toast.success(t('security.myData.requested'));
  };

  useResumeAfterReauthentication('my-data-export', () => {
    if (!embedded && !nextAllowedAt) void form.submit(onSubmit)();
  });

  return (
    <SectionCard id="my-data-export" title={t('security.myData.title')}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('security.myData.intro')}
        </Typography>
        {latest?.state === 'preparing' && (
          <Alert severity="info" role="status">
            {t('security.myData.preparing')}
          </Alert>
        )}
        {latest?.state === 'ready' && latest.expiresAt && (
          <Alert
            severity="success"
            action={
              <Button
                color="inherit"
                startIcon={<Download aria-hidden />}
                disabled={download.isPending}
                onClick={() => download.mutate(latest)}
              >
                {t('security.myData.download')}
              </Button>
            }
          >
            {t('security.myData.ready', { date: formatDate(latest.expiresAt) })}
          </Alert>
        )}
        {nextAllowedAt ? (
          <Typography variant="body2">
            {t('security.myData.nextAllowed', { dateTime: formatDateTime(nextAllowedAt) })}
          </Typography>
        ) : (
          <RuleForm form={form} onSubmit={onSubmit} aria-label={t('security.myData.title')}>
            <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
              {embedded ? (
                <FormTextField
                  name="password"
                  type="password"
                  label={t('security.myData.password')}
                  rules="required"
                  autoComplete="current-password"
                />
              ) : (
                <Typography variant="body2">{t('security.myData.reauthenticate')}</Typography>
              )}
              <SubmitButton pending={request.isPending} label={t('security.myData.request')} />
            </Stack>
          </RuleForm>
        )}
      </Stack>
    </SectionCard>
  );
}

interface DeletionValues {
  password: string;
  confirmation: string;
}

function DeleteLoginCard({ preview }: { preview: LoginDeletionPreview }) {
  const { t } = useTranslation();
  const form = useRuleForm<DeletionValues>({ defaultValues: { password: '', confirmation: '' } });
  const remove = useDeleteLogin();
  const translate = useSecurityFieldErrors('password');

  const onSubmit = async (values: DeletionValues) => {
    if (values.confirmation.trim().toLowerCase() !== preview.email.toLowerCase()) {
      throw new ApiError(422, 'mismatch', 'INVALID', { confirmation: t('security.deleteLogin.mismatch') });
    }
    try {
      await remove.mutateAsync(values);
    } catch (error) {
      if (error instanceof ApiError && error.fields?.confirmation) {
        throw new ApiError(error.status, error.message, error.code, {
          confirmation: t('security.deleteLogin.mismatch'),
        });
      }
      throw translate(error);
    }
  };

  const accounts = preview.memberships
    .map((m) => t('security.deleteLogin.accountName', { name: m.name }))
    .join(', ');
  const consequences = [
    preview.memberships.length
      ? t('security.deleteLogin.memberships', { accounts })
      : t('security.deleteLogin.noMemberships'),
    t('security.deleteLogin.sessions'),
    t('security.deleteLogin.messages'),
    t('security.deleteLogin.records'),
    t('security.deleteLogin.address'),
  ];

  return (
    <SectionCard id="my-data-delete" title={t('security.deleteLogin.title')}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="body2">{t('security.deleteLogin.intro')}</Typography>
        <Box component="ul" sx={{ m: 0, pl: 3 }}>
          {consequences.map((text) => (
            <Typography component="li" variant="body2" key={text} sx={{ mb: 0.5 }}>
              {text}
            </Typography>
          ))}
        </Box>
        {preview.provider === 'external' ? (
          <>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('security.deleteLogin.externalText')}
            </Typography>
            <Button
              variant="outlined"
              href={preview.accountConsoleUrl ?? ''}
              target="_blank"
              rel="noopener noreferrer"
              endIcon={<OpenInNew aria-hidden />}
            >
              {t('security.externalAction')}
              <Box component="span" sx={visuallyHidden}>
                {` (${t('security.opensNewTab')})`}
              </Box>
            </Button>
          </>
        ) : preview.soleOwnerOf.length ? (
          <Stack spacing={1.5} sx={{ alignSelf: 'stretch' }}>
            {preview.soleOwnerOf.map((account) => (
              <LinkAlert
                key={account.uuid}
                severity="warning"
                to={href('settings-ownership', undefined, { uuid: account.uuid })}
                label={t('security.deleteLogin.transfer')}
              >
                {t('security.deleteLogin.soleOwner', { account: account.name })}
              </LinkAlert>
            ))}
          </Stack>
        ) : (
          <RuleForm form={form} onSubmit={onSubmit} aria-label={t('security.deleteLogin.title')}>
            <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
              <FormTextField
                name="password"
                type="password"
                label={t('security.myData.password')}
                rules="required"
                autoComplete="current-password"
              />
              <FormTextField
                name="confirmation"
                label={t('security.deleteLogin.confirmation')}
                helperText={t('security.deleteLogin.confirmationHelp', { email: preview.email })}
                rules="required"
                autoComplete="off"
              />
              <div>
                <Button type="submit" variant="contained" color="error" disabled={remove.isPending}>
                  {remove.isPending ? t('forms.saving') : t('security.deleteLogin.submit')}
                </Button>
              </div>
            </Stack>
          </RuleForm>
        )}
      </Stack>
    </SectionCard>
  );
}
