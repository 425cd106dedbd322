// Scheduling and cancelling the deletion of an account: the shell's deletion bar and the company profile page
// both use these hooks (owner only; the server refuses everyone else).
import { useTranslation } from 'react-i18next';
import { useMutation } from '@tanstack/react-query';
import { ACCOUNT_DELETION_DAYS, accountsRoutes, type Account } from '@portal/contract';
import { later } from '@/i18n/later.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { useToast } from '@/ui/toast.tsx';
import { apiRequest } from './client.ts';
import { updateAccount, useAccountChanged } from './session.ts';

/** The owner cancels the scheduled deletion of an account: it stays, and the session data is refetched. */
function useCancelDeletionRequest() {
  const toast = useToast();
  const accountChanged = useAccountChanged();
  return useMutation({
    mutationFn: (account: Account) => updateAccount(account.uuid, { availableUntil: null }),
    onSuccess: async ({ data }) => {
      await accountChanged(data);
      toast.success(later('shell.deletionCancelled'));
    },
  });
}

/**
 * Cancelling a scheduled deletion after the owner confirmed it: `cancelDeletion(account)` asks first;
 * `isPending` is the request's busy state.
 */
export function useCancelDeletion() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const mutation = useCancelDeletionRequest();
  const cancelDeletion = async (account: Account) => {
    const ok = await confirm({
      title: t('shell.cancelDeletionTitle'),
      message: t('shell.cancelDeletionMessage', { name: account.name }),
      confirmLabel: t('shell.cancelDeletion'),
    });
    if (ok) mutation.mutate(account);
  };
  return { cancelDeletion, isPending: mutation.isPending };
}

/**
 * The owner schedules the deletion of an account (30 days from now; it stays usable until then). The changed
 * account goes into the cache at once, so the shell's deletion bar shows the date.
 */
export function useScheduleDeletion() {
  const toast = useToast();
  const accountChanged = useAccountChanged();
  return useMutation({
    // The answer's message is English; the hook shows its localised text instead, so it leaves the message out.
    mutationFn: async (account: Account) => {
      const { data } = await apiRequest(accountsRoutes.deleteAccount, { params: { id: account.uuid } });
      return { data };
    },
    onSuccess: async ({ data }) => {
      await accountChanged(data);
      toast.success(later('company.deletionScheduled', { name: data.name, days: ACCOUNT_DELETION_DAYS }));
    },
  });
}
