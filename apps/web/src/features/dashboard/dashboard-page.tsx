import { lazy, Suspense } from 'react';
import { Link } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Logout from '@mui/icons-material/Logout';
import { hasAcceptedTerms, type Account } from '@portal/contract';
import { useCurrentAccount, useMe, useMyAccounts } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { logout } from '@/auth/auth.ts';
import { formatDate } from '@/i18n/format.ts';
import { Page } from '@/ui/page.tsx';
import { OwnershipOffer } from './ownership-offer.tsx';

// Open invitations are rare: their card, with the answers' hooks, loads only for a user who has one (decision 255).
const OpenInvitations = lazy(() =>
  import('./open-invitations.tsx').then((invitations) => ({ default: invitations.OpenInvitations })),
);

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack
      direction="row"
      sx={{ justifyContent: 'space-between', gap: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}
    >
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, textAlign: 'right', fontWeight: 500 }}>
        {children}
      </Typography>
    </Stack>
  );
}

function AccountCard({ account }: { account: Account }) {
  const { t, i18n } = useTranslation();
  const termsAccepted = hasAcceptedTerms(account);
  return (
    <Card variant="outlined" component="section" aria-labelledby="dashboard-account">
      <CardContent>
        <Typography variant="overline" color="text.secondary">
          {t('dashboard.currentAccount')}
        </Typography>
        <Typography id="dashboard-account" variant="h5" component="h2" sx={{ mb: 2, fontWeight: 600 }}>
          {account.name}
        </Typography>
        <Stack component="dl" sx={{ m: 0 }}>
          <Row label={t('dashboard.role')}>{t(`common.accountRoles.${account.accountRole}`)}</Row>
          <Row label={t('dashboard.terms')}>
            <Typography
              component="span"
              sx={{ color: termsAccepted ? 'success.main' : 'warning.main', fontWeight: 600 }}
            >
              {termsAccepted ? t('dashboard.termsAccepted') : t('dashboard.termsPending')}
            </Typography>
          </Row>
          {account.invitationStatus !== 'ACCEPTED' && (
            <Row label={t('dashboard.invitation')}>{t('dashboard.invitationPending')}</Row>
          )}
          {account.availableUntil && (
            <Row label={t('dashboard.deletion')}>
              {t('dashboard.deletionOn', { date: formatDate(account.availableUntil, i18n.resolvedLanguage) })}
            </Row>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The first authenticated page: greets the user and shows the current account's state. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const me = useMe();
  const accounts = useMyAccounts();
  const account = useCurrentAccount();
  // Staff opened a customer's account by its ID: it is not one of theirs, so the count of their own would mislead.
  const actingAsSupport = account !== null && !accounts.some((own) => own.uuid === account.uuid);
  // The user belongs to the accounts whose invitation they accepted; open ones are listed apart.
  const memberships = accounts.filter((own) => own.invitationStatus === 'ACCEPTED').length;
  return (
    <Page
      title={t('dashboard.greeting', { name: me.name || me.email })}
      actions={
        <Button variant="outlined" startIcon={<Logout />} onClick={() => void logout()}>
          {t('dashboard.signOut')}
        </Button>
      }
    >
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('dashboard.intro')}
      </Typography>
      {account && account.invitationStatus === 'ACCEPTED' && !actingAsSupport && (
        <OwnershipOffer account={account.uuid} userUuid={me.uuid} />
      )}
      {accounts.some((own) => own.invitationStatus === 'PENDING') && (
        <Suspense fallback={null}>
          <OpenInvitations accounts={accounts} />
        </Suspense>
      )}
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 7 }}>{account && <AccountCard account={account} />}</Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Card variant="outlined" component="section" aria-labelledby="dashboard-you">
            <CardContent>
              <Typography variant="overline" color="text.secondary">
                {t('dashboard.you')}
              </Typography>
              <Typography id="dashboard-you" variant="h6" component="h2" sx={{ fontWeight: 600 }}>
                {me.name}
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                {me.email}
              </Typography>
              <Typography variant="body2" sx={{ mb: 2 }}>
                {actingAsSupport
                  ? t('dashboard.supportAccess')
                  : t('dashboard.accountCount', { count: memberships })}
              </Typography>
              <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
                <Button component={Link} to={href('accounts')} size="small">
                  {t('dashboard.allAccounts')}
                </Button>
                <Button component={Link} to={href('settings-users')} size="small">
                  {t('dashboard.profile')}
                </Button>
              </Stack>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Page>
  );
}
