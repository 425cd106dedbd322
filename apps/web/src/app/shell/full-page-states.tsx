import { useEffect } from 'react';
import { reportError } from '../error-reporting.ts';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { GuardError } from '../guard.ts';
import { useRevalidate, useRouteError } from '@/routing/navigation-view.tsx';

/** Shown until the first navigation has settled. */
export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }} role="status" aria-live="polite">
      <Stack sx={{ alignItems: 'center', gap: 2 }}>
        <CircularProgress aria-hidden />
        <Typography color="text.secondary">{t('app.loading')}</Typography>
      </Stack>
    </Box>
  );
}

function ErrorState({ title, message, onRetry }: { title: string; message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center', p: 3 }} role="alert">
      <Stack sx={{ alignItems: 'center', gap: 2, maxWidth: 480, textAlign: 'center' }}>
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        <Typography color="text.secondary">{message}</Typography>
        <Button variant="contained" onClick={onRetry}>
          {t('errors.retry')}
        </Button>
      </Stack>
    </Box>
  );
}

/** The first navigation failed (user or accounts could not load) or the app crashed: a clear error with retry. */
export function RootErrorBoundary() {
  const error = useRouteError();
  const revalidate = useRevalidate();
  const { t } = useTranslation();
  // A crash is reported (SENTRY_DSN, decision 237); the first navigation's failed load is not an error of the app.
  useEffect(() => {
    if (!(error instanceof GuardError)) reportError(error);
  }, [error]);
  if (error instanceof GuardError) {
    return (
      <ErrorState
        title={t('errors.loadFailedTitle')}
        message={t('errors.loadFailed')}
        onRetry={() => void revalidate()}
      />
    );
  }
  return (
    <ErrorState
      title={t('errors.unexpectedTitle')}
      message={t('errors.unexpected')}
      onRetry={() => window.location.reload()}
    />
  );
}

/** A page failed to load or render: the shell stays, the page area shows the error. */
export function PageErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  useEffect(() => reportError(error), [error]);
  return (
    <ErrorState
      title={t('errors.pageFailedTitle')}
      message={t('errors.pageFailed')}
      onRetry={() => window.location.reload()}
    />
  );
}
