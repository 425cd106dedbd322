import { useTranslation } from 'react-i18next';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import { accountExportRoutes } from '@portal/contract/account-export';
import {
  DATA_EXPORT_TOO_SOON,
  REAUTHENTICATION_REQUIRED,
  type DataExport,
  type DataExportBody,
  type DataExportStatus,
} from '@portal/contract';
import { apiFile, apiRequest } from '@/api/client.ts';
import { ApiError } from '@/api/errors.ts';
import { useDownload } from '@/api/use-download.ts';
import { reauthenticateFor, useResumeAfterReauthentication } from '@/auth/reauthentication.ts';
import { FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { formatDate, formatDateTime } from '@/i18n/format.ts';
import { useToast } from '@/ui/toast.tsx';

// The card "Kontodaten exportieren" of the company profile (OWNER only, decision 240): its own chunk, loaded only
// for an owner. The same rules as the person's own export (decision 231): the password again, once a day, 7 days.

/** While an export is being prepared the card asks again every few seconds, and only then. */
function accountExportQuery(account: string) {
  return queryOptions({
    queryKey: ['company', account, 'data-export'],
    queryFn: async ({ signal }) =>
      (await apiRequest(accountExportRoutes.getAccountExport, { accountUuid: account, signal })).data,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.latest?.state === 'preparing' ? 3000 : false),
  });
}

function useRequestAccountExport(account: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DataExportBody) =>
      apiRequest(accountExportRoutes.requestAccountExport, { accountUuid: account, body }),
    meta: { silentError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountExportQuery(account).queryKey }),
  });
}

/** The password's errors (wrong, locked) and the once-a-day rule, as texts on the password field. */
function useExportErrors() {
  const { t } = useTranslation();
  return (error: unknown): unknown => {
    if (!(error instanceof ApiError)) return error;
    if (error.code === DATA_EXPORT_TOO_SOON) {
      return new ApiError(error.status, error.message, error.code, { password: t('company.export.tooSoon') });
    }
    if (!error.fields) return error;
    const { retryAfter, ...fields } = error.fields;
    const minutes = Math.max(1, Math.ceil(Number(retryAfter ?? 60) / 60));
    const text = (key: string) => {
      if (key === 'locked') return t('company.export.locked', { count: minutes });
      if (key === 'wrongPassword') return t('company.export.wrongPassword');
      return key;
    };
    const translated = Object.fromEntries(Object.entries(fields).map(([name, key]) => [name, text(key)]));
    return new ApiError(error.status, error.message, error.code, translated);
  };
}

export default function AccountExport({ account }: { account: string }) {
  const { t } = useTranslation();
  const status = useQuery(accountExportQuery(account));
  if (status.isPending) return <CircularProgress size={24} aria-label={t('company.export.title')} />;
  if (status.isError) return <Alert severity="error">{t('company.export.loadError')}</Alert>;
  return <ExportForm account={account} status={status.data} />;
}

function ExportForm({ account, status }: { account: string; status: DataExportStatus }) {
  const { t } = useTranslation();
  const toast = useToast();
  const form = useRuleForm<{ password: string }>({ defaultValues: { password: '' } });
  const request = useRequestAccountExport(account);
  const download = useDownload((item: DataExport) =>
    apiFile(accountExportRoutes.downloadAccountExport, { accountUuid: account, params: { id: item.uuid } }),
  );
  const translate = useExportErrors();
  const { latest, nextAllowedAt } = status;
  const embedded = status.provider === 'embedded';

  const onSubmit = async ({ password }: { password: string }) => {
    try {
      await request.mutateAsync(embedded ? { password } : {});
    } catch (error) {
      // An external Keycloak: sign in again there, then the request goes on when the page is back.
      if (error instanceof ApiError && error.code === REAUTHENTICATION_REQUIRED) {
        await reauthenticateFor(`account-export:${account}`);
        return;
      }
      throw translate(error);
    }
    form.reset({ password: '' });
    toast.success(t('company.export.requested'));
  };
  useResumeAfterReauthentication(`account-export:${account}`, () => {
    if (!embedded && !nextAllowedAt) void form.submit(onSubmit)();
  });

  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('company.export.intro')}
      </Typography>
      {latest?.state === 'preparing' && (
        <Alert severity="info" role="status">
          {t('company.export.preparing')}
        </Alert>
      )}
      {latest?.state === 'ready' && latest.expiresAt && (
        // The download under the sentence, not beside it: on a phone an action beside the text squeezes both.
        <Alert severity="success" sx={{ alignSelf: 'stretch' }}>
          <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
            <span>{t('company.export.ready', { date: formatDate(latest.expiresAt) })}</span>
            <Button
              color="inherit"
              variant="outlined"
              size="small"
              startIcon={<Download aria-hidden />}
              disabled={download.isPending}
              onClick={() => download.mutate(latest)}
            >
              {t('company.export.download')}
            </Button>
          </Stack>
        </Alert>
      )}
      {nextAllowedAt ? (
        <Typography variant="body2">
          {t('company.export.nextAllowed', { dateTime: formatDateTime(nextAllowedAt) })}
        </Typography>
      ) : (
        <RuleForm form={form} onSubmit={onSubmit} aria-label={t('company.export.title')}>
          <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
            {embedded ? (
              <FormTextField
                name="password"
                type="password"
                label={t('company.export.password')}
                rules="required"
                autoComplete="current-password"
              />
            ) : (
              <Typography variant="body2">{t('company.export.reauthenticate')}</Typography>
            )}
            <div>
              <Button type="submit" variant="contained" disabled={request.isPending}>
                {request.isPending ? t('forms.saving') : t('company.export.request')}
              </Button>
            </div>
          </Stack>
        </RuleForm>
      )}
    </Stack>
  );
}
