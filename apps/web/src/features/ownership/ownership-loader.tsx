import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import type { Ownership } from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { useCurrentAccount, useInvalidateSession } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { LinkAlert } from '@/ui/section-card.tsx';
import { ownershipQuery } from './api.ts';

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
        <LinkAlert severity="info" to={href('dashboard')} label={t('notFound.toDashboard')}>
          {t('ownership.errors.notOwner')}
        </LinkAlert>
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
