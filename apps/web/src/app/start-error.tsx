import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { clearInitFailures } from '@/auth/init-failures.ts';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import { currentLanguage } from '@/i18n/i18n.ts';

/** Sign-in failed twice within a minute: say so and offer a retry instead of redirecting forever. */
export function StartError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <PortalThemeProvider language={currentLanguage()} rowsPerPage={t('common.rowsPerPage')}>
      <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3 }} role="alert">
        <Stack sx={{ alignItems: 'center', gap: 2, maxWidth: 480, textAlign: 'center' }}>
          <Typography variant="h5" component="h1">
            {t('auth.startFailedTitle')}
          </Typography>
          <Typography color="text.secondary">{t('auth.startFailed')}</Typography>
          {error instanceof Error && (
            <Typography variant="body2" color="text.secondary" component="code">
              {error.message}
            </Typography>
          )}
          <Button
            variant="contained"
            onClick={() => {
              clearInitFailures();
              window.location.reload();
            }}
          >
            {t('errors.retry')}
          </Button>
        </Stack>
      </Box>
    </PortalThemeProvider>
  );
}
