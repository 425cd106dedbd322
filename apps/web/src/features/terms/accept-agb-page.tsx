import { useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate, Link as RouterLink, Navigate, useSearchParams } from '@/routing/navigation-view.tsx';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TERMS_VERSION, hasAcceptedTerms, type Account } from '@portal/contract';
import { useCurrentAccount } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { FormCheckbox, RuleForm, useRuleForm } from '@/forms/index.ts';
import { Page } from '@/ui/page.tsx';
import { useAcceptTerms } from './api.ts';
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
  const [open, setOpen] = useState<TermsKind | null>(null);
  const form = useRuleForm<Values>({ defaultValues: { acceptedAgb: false, acceptedPrivacyPolicy: false } });
  const accept = useAcceptTerms();

  const onSubmit = async () => {
    await accept.mutateAsync(account);
    await navigate(target, { replace: true });
  };

  const busy = accept.isPending;
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
  // Whether the terms were pending when the page opened: accepting them here must not count as "nothing pending".
  const [accepting] = useState(() => !(account && hasAcceptedTerms(account)));

  // Nothing pending: straight on.
  if (account && hasAcceptedTerms(account) && !accepting) return <Navigate to={target} replace />;

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
