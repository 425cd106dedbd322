import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { SectionCard } from '@/ui/section-card.tsx';
import { visuallyHidden } from '@/ui/visually-hidden.ts';
import { EmailCard } from './email-card.tsx';
import { PasskeysCard } from './passkeys-card.tsx';
import { PasswordCard } from './password-card.tsx';
import { securityOverviewQuery } from './api.ts';
import { SessionsCard } from './sessions-card.tsx';
import { SignInHistoryCard } from './sign-in-history-card.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';

/**
 * The tab "Sicherheit" of settings/users: the person's password, email, second factors, sessions and sign-in history,
 * one card each. With an external Keycloak its account console keeps all of that: one link there instead.
 */
export function SecurityTab() {
  const { t } = useTranslation();
  const overview = useQuery(securityOverviewQuery);

  if (overview.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={t('security.loading')} />
      </Box>
    );
  }
  if (overview.isError) return <Alert severity="error">{t('security.loadError')}</Alert>;

  if (overview.data.provider === 'external') {
    return (
      <SectionCard id="security-external" title={t('security.externalTitle')}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography sx={{ color: 'text.secondary' }}>{t('security.externalText')}</Typography>
          <Button
            variant="contained"
            href={overview.data.accountConsoleUrl ?? ''}
            target="_blank"
            rel="noopener noreferrer"
            endIcon={<OpenInNew aria-hidden />}
          >
            {t('security.externalAction')}
            <Box component="span" sx={visuallyHidden}>
              {` (${t('security.opensNewTab')})`}
            </Box>
          </Button>
        </Stack>
      </SectionCard>
    );
  }

  return (
    <Stack spacing={3}>
      {/* The cards of the security tab, in this order. */}
      <PasswordCard />
      <EmailCard />
      <TwoFactorCard overview={overview.data} />
      <PasskeysCard />
      <SessionsCard />
      <SignInHistoryCard />
    </Stack>
  );
}
