import { useEffect, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { Ownership } from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { useCurrentAccount, useInvalidateSession } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { ownershipQuery } from './api.ts';

/** A titled card of this page. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={id} component="h2" variant="h6" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Loading, failure with a retry, or the page's content for the current account. */
export function OwnershipLoader({ children }: { children: (account: string, data: Ownership) => ReactNode }) {
  const { t } = useTranslation();
  const account = useCurrentAccount();
  const query = useQuery({ ...ownershipQuery(account?.uuid ?? ''), enabled: Boolean(account) });
  const invalidateSession = useInvalidateSession();
  const notOwner = query.error instanceof ApiError && query.error.status === 403;
  useEffect(() => {
    if (notOwner) void invalidateSession();
  }, [notOwner, invalidateSession]);
  if (!account) return null;
  if (query.isError) {
    // No longer the owner (the ownership went to someone else meanwhile): the session's roles are refetched.
    if (notOwner) {
      return (
        <Alert
          severity="info"
          action={
            <Button color="inherit" component={RouterLink} to={href('dashboard')}>
              {t('notFound.toDashboard')}
            </Button>
          }
        >
          {t('ownership.errors.notOwner')}
        </Alert>
      );
    }
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={() => void query.refetch()}>
            {t('ownership.retry')}
          </Button>
        }
      >
        {t('ownership.loadFailed')}
      </Alert>
    );
  }
  if (!query.data) return <Skeleton variant="rounded" height={240} aria-busy="true" />;
  return <>{children(account.uuid, query.data)}</>;
}
