import { useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TERMS_VERSION, accountsRoutes, type Account } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { queryKeys, useCurrentAccount, useInvalidateSession } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { FormCheckbox, RuleForm, useRuleForm } from '@/forms/index.ts';
import { Page } from '@/ui/page.tsx';
import { useToast } from '@/ui/toast.tsx';
import { TermsDialog, type TermsKind } from './terms-dialog.tsx';

/** Where to go after accepting: an in-app path from `redirect`, never another site and never this page again. */
export function safeRedirect(value: string | null): string {
  const self = href('accept-agb');
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\'))
    return href('dashboard');
  if (value === self || value.startsWith(`${self}?`) || value.startsWith(`${self}/`))
    return href('dashboard');
  return value;
}

function TermsLink({ onOpen, children }: { onOpen: () => void; children?: ReactNode }) {
  return (
    <Link
      component="button"
      type="button"
      variant="body1"
      sx={{ verticalAlign: 'baseline' }}
      onClick={(event) => {
        // Inside the checkbox label: open the text, do not tick the box.
        event.preventDefault();
        event.stopPropagation();
        onOpen();
      }}
    >
      {children}
    </Link>
  );
}

interface Values {
  acceptedAgb: boolean;
  acceptedPrivacyPolicy: boolean;
}

function AcceptForm({ account, target }: { account: Account; target: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const invalidateSession = useInvalidateSession();
  const [open, setOpen] = useState<TermsKind | null>(null);
  const form = useRuleForm<Values>({ defaultValues: { acceptedAgb: false, acceptedPrivacyPolicy: false } });

  const accept = useMutation({
    mutationFn: () =>
      apiRequest(accountsRoutes.updateAccount, {
        params: { id: account.uuid },
        body: { acceptedAgb: true, acceptedPrivacyPolicy: true },
      }),
    meta: { silentError: true },
  });

  const onSubmit = async () => {
    const { data } = await accept.mutateAsync();
    // The guard reads the cached list: update it before moving on, so it does not send the owner back here.
    queryClient.setQueryData<Account[]>(queryKeys.myAccounts, (old) =>
      old?.map((item) =>
        item.uuid === data.uuid ? { ...item, ...data, accountRole: item.accountRole } : item,
      ),
    );
    await invalidateSession();
    toast.success(t('terms.accepted'));
    await navigate(target, { replace: true });
  };

  const busy = form.formState.isSubmitting;
  return (
    <RuleForm form={form} onSubmit={onSubmit} aria-label={t('terms.title')}>
      <Stack spacing={1}>
        <FormCheckbox
          name="acceptedAgb"
          fieldLabel={t('terms.agbField')}
          rules="required"
          label={
            <Trans
              i18nKey="terms.acceptAgb"
              components={{ read: <TermsLink onOpen={() => setOpen('agb')} /> }}
            />
          }
        />
        <FormCheckbox
          name="acceptedPrivacyPolicy"
          fieldLabel={t('terms.privacyField')}
          rules="required"
          label={
            <Trans
              i18nKey="terms.acceptPrivacy"
              components={{ read: <TermsLink onOpen={() => setOpen('privacy')} /> }}
            />
          }
        />
        <div>
          <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 2 }}>
            {busy ? t('terms.submitting') : t('terms.submit')}
          </Button>
        </div>
      </Stack>
      <TermsDialog kind={open} onClose={() => setOpen(null)} />
    </RuleForm>
  );
}

/**
 * /accept-agb: the owner of the current account accepts the terms and the privacy policy (version TERMS_VERSION)
 * before working with it, then continues to `redirect` (the route first requested) or the dashboard.
 */
export default function AcceptAgbPage() {
  const { t } = useTranslation();
  const account = useCurrentAccount();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  const [accepting] = useState(() => !(account?.acceptedAgb && account.acceptedPrivacyPolicy));

  // Nothing pending (SPEC-DECISIONS 12): straight on.
  if (account?.acceptedAgb && account.acceptedPrivacyPolicy && !accepting)
    return <Navigate to={target} replace />;

  return (
    <Page title={t('terms.title')}>
      {!account || !account.isOwner ? (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to={href('dashboard')} color="inherit" size="small">
              {t('terms.toDashboard')}
            </Button>
          }
        >
          {t('terms.notOwner')}
        </Alert>
      ) : (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 720 }}>
          <Typography sx={{ mb: 1 }}>{t('terms.intro', { account: account.name })}</Typography>
          <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary' }}>
            {t('terms.version', { version: TERMS_VERSION })}
          </Typography>
          <AcceptForm account={account} target={target} />
        </Paper>
      )}
    </Page>
  );
}
