import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCurrentAccount, useCurrentAccountUuid } from '@/api/session.ts';
import { Page } from '@/ui/page.tsx';
import { AccountDeletion } from './account-deletion.tsx';
import { companyProfileQuery } from './api.ts';
import { CompanyDetailsForm } from './company-details-form.tsx';
import { CompanyLogo } from './company-logo.tsx';
import { TwoFactorPolicyCard } from './two-factor-policy.tsx';

/** The owner's export of the account's data: a chunk of its own, loaded only for an owner (decision 240). */
const AccountExport = lazy(() => import('./account-export.tsx'));

function Section({
  id,
  title,
  help,
  children,
}: {
  id: string;
  title: string;
  help?: string;
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={id} component="h2" variant="h6" sx={{ mb: help ? 0.5 : 2 }}>
        {title}
      </Typography>
      {help && (
        <Typography variant="body2" sx={{ mb: 2.5, color: 'text.secondary' }}>
          {help}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

/**
 * /settings/company-profile (ADMIN and above): company details, logo, the two-factor rule, the export of the
 * account's data (OWNER), the account's deletion.
 */
export default function CompanyProfilePage() {
  const { t } = useTranslation();
  const accountUuid = useCurrentAccountUuid();
  const account = useCurrentAccount();
  const profile = useQuery(companyProfileQuery(accountUuid));

  let content: ReactNode;
  if (profile.data) {
    content = (
      <Stack spacing={3}>
        <Section id="company-details" title={t('company.details')} help={t('company.detailsHelp')}>
          <CompanyDetailsForm key={accountUuid} account={accountUuid} profile={profile.data} />
        </Section>
        <Section id="company-logo" title={t('company.logo')}>
          <CompanyLogo account={accountUuid} profile={profile.data} />
        </Section>
        <Section
          id="company-two-factor"
          title={t('company.twoFactor.title')}
          help={t('company.twoFactor.help')}
        >
          <TwoFactorPolicyCard account={accountUuid} isOwner={account?.accountRole === 'OWNER'} />
        </Section>
        {account?.accountRole === 'OWNER' && (
          <Section id="company-export" title={t('company.export.title')}>
            <Suspense fallback={<CircularProgress size={24} aria-label={t('company.export.title')} />}>
              <AccountExport account={accountUuid} />
            </Suspense>
          </Section>
        )}
        {account && (
          <Section id="company-deletion" title={t('company.deletion')}>
            <AccountDeletion account={account} />
          </Section>
        )}
      </Stack>
    );
  } else if (profile.isError) {
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void profile.refetch()}>
            {t('errors.retry')}
          </Button>
        }
      >
        {profile.error.message}
      </Alert>
    );
  } else {
    content = <CircularProgress aria-label={t('routes.companyProfile')} />;
  }
  return <Page title={t('routes.companyProfile')}>{content}</Page>;
}
