// Answering the user's own pending invitations: the invitations page and the dashboard both use these hooks, so the answer, its toast and the refetch of the session data are the same everywhere.
import { useTranslation } from 'react-i18next';
import { useMutation } from '@tanstack/react-query';
import { usersRoutes, type Account } from '@portal/contract';
import { ApiError } from './errors.ts';
import { shouldToastError } from './query-client.ts';
import { href } from '@/app/href.ts';
import { later } from '@/i18n/later.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { useToast } from '@/ui/toast.tsx';
import { storeAccountUuid } from './account-storage.ts';
import { apiRequest } from './client.ts';
import { useInvalidateSession } from './session.ts';
import { useNavigate } from '@/routing/navigation-view.tsx';

/** What a caller does once the answer is in (e.g. navigate); pending lasts until it has finished. */
type Then = (account: Account) => Promise<unknown> | void;

/** Answers the user's own pending invitation; the session data is refetched and the answer is confirmed. */
function useAnswerInvitation(answer: 'accept' | 'decline', then?: Then) {
  const toast = useToast();
  const invalidateSession = useInvalidateSession();
  const route = answer === 'accept' ? usersRoutes.acceptInvitation : usersRoutes.declineInvitation;
  return useMutation({
    mutationFn: (account: Account) => apiRequest(route, { params: { id: account.uuid } }),
    meta: { silentError: true },
    // Only a verified address answers an invitation (decision 193): that refusal is explained in the user's language.
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED')
        toast.error(later('invite.notVerified'));
      else if (shouldToastError(error, undefined)) toast.error(error.message);
    },
    onSuccess: async (_answer, account) => {
      await invalidateSession();
      toast.success(
        later(answer === 'accept' ? 'invite.accepted' : 'invite.declined', { name: account.name }),
      );
      await then?.(account);
    },
  });
}

/** Accepts a pending invitation; `then` is what the caller does afterwards. */
function useAcceptInvitation(then?: Then) {
  return useAnswerInvitation('accept', then);
}

/**
 * Accepts a pending invitation and opens that account: it becomes the stored account and the dashboard is loaded
 * with ?uuid=, which makes the guard select it.
 */
export function useAcceptAndOpenInvitation() {
  const navigate = useNavigate();
  return useAcceptInvitation(async ({ uuid }) => {
    storeAccountUuid(uuid);
    await navigate(href('dashboard', undefined, { uuid }));
  });
}

/**
 * Declines a pending invitation after the user confirms it (a new invitation is needed to join later).
 * `decline(account)` asks first; `isPending` is the request's busy state.
 */
export function useDeclineInvitation(then?: Then) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const mutation = useAnswerInvitation('decline', then);
  const decline = async (account: Account) => {
    const ok = await confirm({
      title: t('invite.declineTitle'),
      message: t('invite.declineMessage', { name: account.name }),
      confirmLabel: t('invite.decline'),
      destructive: true,
    });
    if (ok) mutation.mutate(account);
  };
  return { decline, isPending: mutation.isPending };
}
