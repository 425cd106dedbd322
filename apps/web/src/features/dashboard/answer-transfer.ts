// The answer to a transfer of ownership offered to the user (the dashboard's data layer, api.ts): apart from the
// query, so that its mutation loads with the offer's card and not with every dashboard (decision 255).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ownershipRoutes, type OwnershipTransfer } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { ApiError } from '@/api/errors.ts';
import { useInvalidateSession } from '@/api/session.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

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
