import { lazy, Suspense, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import { accountsRoutes, usersRoutes, type Account } from '@portal/contract';
import { clearStoredAccountUuid } from '@/api/account-storage.ts';
import { apiRequest } from '@/api/client.ts';
import { useInvalidateSession } from '@/api/session.ts';
import { rememberCurrentPage, tokenClaims, verifyEmailUrl } from '@/auth/auth.ts';
import { formatDate } from '@/i18n/format.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { toast } from '@/ui/toast-store.ts';
import { getVersionState, subscribeVersion } from '../version-check.ts';

const ToolbarBar = lazy(() => import('./toolbar-bar.tsx'));

function Bar(props: { severity: 'info' | 'warning' | 'error'; children: ReactNode; action?: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <ToolbarBar {...props} />
    </Suspense>
  );
}

/** SPEC §2: a system toolbar when a newer version is served (or the check failed), with a reload button. */
export function NewVersionBar() {
  const { t } = useTranslation();
  const { newVersionAvailable } = useSyncExternalStore(subscribeVersion, getVersionState, getVersionState);
  if (!newVersionAvailable) return null;
  return (
    <Bar
      severity="info"
      action={
        <Button color="inherit" size="small" variant="outlined" onClick={() => window.location.reload()}>
          {t('shell.reload')}
        </Button>
      }
    >
      {t('shell.newVersionAvailable')}
    </Bar>
  );
}

/** The token says the email address is not verified: link to the provider's verification (SPEC-DECISIONS 27). */
export function EmailVerificationBar() {
  const { t, i18n } = useTranslation();
  const unverified = tokenClaims().email_verified === false;
  const [href, setHref] = useState<string | null>(null);
  const language = i18n.resolvedLanguage ?? currentLanguage();
  useEffect(() => {
    if (!unverified) return;
    let live = true;
    void verifyEmailUrl(language).then((url) => live && setHref(url));
    return () => {
      live = false;
    };
  }, [unverified, language]);
  if (!unverified) return null;
  return (
    <Bar
      severity="warning"
      action={
        <Button
          color="inherit"
          size="small"
          variant="outlined"
          href={href ?? undefined}
          disabled={!href}
          onClick={rememberCurrentPage}
        >
          {t('shell.verify')}
        </Button>
      }
    >
      {t('shell.needsEmailVerification')}
    </Bar>
  );
}

/** The account is scheduled for deletion: the date, and for its owner a way to cancel (SPEC-DECISIONS 30). */
export function AccountDeletionBar({ account }: { account: Account | null }) {
  const { t, i18n } = useTranslation();
  const confirm = useConfirm();
  const invalidate = useInvalidateSession();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (!account?.availableUntil) return null;
  const date = formatDate(account.availableUntil, i18n.resolvedLanguage);

  const cancelDeletion = async () => {
    const ok = await confirm({
      title: t('shell.cancelDeletionTitle'),
      message: t('shell.cancelDeletionMessage', { name: account.name }),
      confirmLabel: t('shell.cancelDeletion'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      const updated = await apiRequest(accountsRoutes.updateAccount, {
        params: { id: account.uuid },
        body: { availableUntil: null },
      });
      queryClient.setQueryData(['accounts', account.uuid], updated.data);
      await invalidate();
      toast.success(t('shell.deletionCancelled'));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Bar
      severity="error"
      action={
        account.isOwner ? (
          <Button
            color="inherit"
            size="small"
            variant="outlined"
            disabled={busy}
            onClick={() => void cancelDeletion()}
          >
            {t('shell.cancelDeletion')}
          </Button>
        ) : undefined
      }
    >
      {t('shell.accountWillBeDeletedAfter', { date })}
    </Bar>
  );
}

/** The selected account is a pending invitation: offer to accept or decline it (SPEC-DECISIONS 13). */
export function InvitationBar({ account }: { account: Account | null }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const invalidate = useInvalidateSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  if (!account || account.invitationStatus !== 'PENDING') return null;

  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await action();
      await invalidate();
      toast.success(done);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  const accept = () =>
    run(
      () => apiRequest(usersRoutes.acceptInvitation, { params: { id: account.uuid } }),
      t('shell.invitationAccepted', { name: account.name }),
    );
  const decline = async () => {
    const ok = await confirm({
      title: t('shell.declineInvitationTitle'),
      message: t('shell.declineInvitationMessage', { name: account.name }),
      confirmLabel: t('shell.declineInvitation'),
      destructive: true,
    });
    if (!ok) return;
    await run(
      async () => {
        await apiRequest(usersRoutes.declineInvitation, { params: { id: account.uuid } });
        clearStoredAccountUuid();
        await invalidate();
        await navigate('/', { replace: true });
      },
      t('shell.invitationDeclined', { name: account.name }),
    );
  };

  return (
    <Bar
      severity="info"
      action={
        <>
          <Button color="inherit" size="small" disabled={busy} onClick={() => void decline()}>
            {t('shell.declineInvitation')}
          </Button>
          <Button
            color="inherit"
            size="small"
            variant="outlined"
            disabled={busy}
            onClick={() => void accept()}
            sx={{ ml: 1 }}
          >
            {t('shell.acceptInvitation')}
          </Button>
        </>
      }
    >
      {t('shell.invitationPending', { name: account.name })}
    </Bar>
  );
}
