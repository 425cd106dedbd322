import { useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Logout from '@mui/icons-material/Logout';
import Refresh from '@mui/icons-material/Refresh';
import { href } from '@/app/href.ts';
import { logout } from '@/auth/auth.ts';
import { myAccountsQuery, useMe } from '@/api/session.ts';
import { CreateAccountForm } from './create-account-form.tsx';
import { Page } from '@/ui/page.tsx';
import { useNavigate } from '@/routing/navigation-view.tsx';

/** One of the page's two ways forward: a card headed by its title, which names it for assistive technology. */
function Section(props: { id: string; title: string; flex: number; titleGap: number; children: ReactNode }) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={props.id}
      sx={{ p: 3, flex: props.flex, width: '100%' }}
    >
      <Typography id={props.id} component="h2" variant="h6" sx={{ mb: props.titleGap }}>
        {props.title}
      </Typography>
      {props.children}
    </Paper>
  );
}

/**
 * /onboarding: a signed-in user without any account creates the first one, or learns how to get invited
 * (the guard refuses this page once the user has an account, pending invitations included).
 */
export default function OnboardingPage() {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);
  const [noInvitation, setNoInvitation] = useState(false);

  const checkInvitations = async () => {
    setChecking(true);
    setNoInvitation(false);
    try {
      const accounts = await queryClient.fetchQuery({ ...myAccountsQuery, staleTime: 0 });
      if (accounts.length > 0) await navigate(href('invite-verify'));
      else setNoInvitation(true);
    } finally {
      setChecking(false);
    }
  };

  return (
    <Page title={me.name ? t('onboarding.titleNamed', { name: me.name }) : t('onboarding.title')}>
      <Typography sx={{ mb: 3, maxWidth: 720, color: 'text.secondary' }}>{t('onboarding.intro')}</Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Section id="onboarding-create" title={t('onboarding.createTitle')} flex={3} titleGap={2}>
          <CreateAccountForm />
        </Section>
        <Section id="onboarding-invite" title={t('onboarding.inviteTitle')} flex={2} titleGap={1}>
          <Typography sx={{ mb: 1, overflowWrap: 'anywhere' }}>
            <Trans i18nKey="onboarding.inviteText" values={{ email: me.email }} />
          </Typography>
          <Typography sx={{ mb: 2, color: 'text.secondary' }}>{t('onboarding.inviteNext')}</Typography>
          <Button variant="outlined" startIcon={<Refresh />} disabled={checking} onClick={checkInvitations}>
            {t('onboarding.checkInvitations')}
          </Button>
          <div role="status">
            {noInvitation && (
              <Alert severity="info" sx={{ mt: 2 }}>
                {t('onboarding.noInvitationYet')}
              </Alert>
            )}
          </div>
          <Divider sx={{ my: 3 }} />
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('onboarding.otherUserTitle')}
          </Typography>
          <Typography sx={{ mb: 2, color: 'text.secondary' }}>{t('onboarding.otherUserText')}</Typography>
          <Button startIcon={<Logout />} onClick={() => void logout()}>
            {t('onboarding.signOut')}
          </Button>
        </Section>
      </Stack>
    </Page>
  );
}
