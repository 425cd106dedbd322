// The dashboard's data layer (see features/accounts/api.ts for the shape every area's api.ts follows): the
// transfer of ownership the user takes part in, which they answer here.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ownershipRoutes, type OwnershipTransfer } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { ApiError } from '@/api/errors.ts';
import { useInvalidateSession } from '@/api/session.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

const pendingKey = (account: string) => ['ownership', account, 'pending'] as const;

/** The pending transfer of the account's ownership the user takes part in (as owner or as the chosen admin). */
export function pendingTransferQuery(account: string) {
  return queryOptions({
    queryKey: pendingKey(account),
    queryFn: async ({ signal }) =>
      (await apiRequest(ownershipRoutes.getMyPendingTransfer, { accountUuid: account, signal })).data,
    // Another person changes it (the offer is answered, the ownership moves): read it anew on every visit.
    staleTime: 0,
    // A dashboard without this card still works: no toast when it cannot load.
    meta: { silentError: true },
  });
}

/** The chosen admin accepts or declines; afterwards the roles (and the terms the new owner accepts) are refetched. */
export function useAnswerTransfer(answer: 'accept' | 'decline', then?: () => Promise<unknown> | void) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const invalidateSession = useInvalidateSession();
  const route = answer === 'accept' ? ownershipRoutes.acceptTransfer : ownershipRoutes.declineTransfer;
  const refresh = (account: string) =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ['ownership', account] }), invalidateSession()]);
  return useMutation({
    mutationFn: (transfer: OwnershipTransfer) =>
      apiRequest(route, { accountUuid: transfer.accountUuid, params: { id: transfer.uuid } }),
    meta: { silentError: true },
    onError: async (error, transfer) => {
      const expired = error instanceof ApiError && /expired/.test(error.message);
      toast.error(
        error instanceof ApiError && error.status < 500
          ? later(expired ? 'ownership.errors.expired' : 'ownership.errors.decided')
          : error.message,
      );
      await refresh(transfer.accountUuid);
    },
    onSuccess: async (_answer, transfer) => {
      await refresh(transfer.accountUuid);
      toast.success(
        answer === 'accept'
          ? later('ownership.accepted', { account: transfer.accountName })
          : later('ownership.declined'),
      );
      await then?.();
    },
  });
}
