// The ownership area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows).
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ownershipRoutes,
  TRANSFER_CANDIDATES_PAGE_MAX,
  type OwnershipTransfer,
  type StartTransferBody,
} from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { ApiError } from '@/api/errors.ts';
import { useInvalidateSession } from '@/api/session.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

/** Every query of this area is one account's; the key names it, so switching accounts never shows another's. */
const keys = {
  all: (account: string) => ['ownership', account] as const,
  overview: (account: string) => ['ownership', account, 'overview'] as const,
  candidates: (account: string, search: string) => ['ownership', account, 'candidates', search] as const,
};

/** The owner, since when, and the pending transfer (owner and staff only). */
export function ownershipQuery(account: string) {
  return queryOptions({
    queryKey: keys.overview(account),
    queryFn: async ({ signal }) =>
      (await apiRequest(ownershipRoutes.getOwnership, { accountUuid: account, signal })).data,
    // Another person changes it (the offer is answered, the ownership moves): read it anew on every visit.
    staleTime: 0,
    // The page shows a failure itself (with a retry, or that the caller is no longer the owner).
    meta: { silentError: true },
  });
}

/** The admins the owner can choose from, searched on the server, one capped page. */
export function candidatesQuery(account: string, search: string) {
  return queryOptions({
    queryKey: keys.candidates(account, search),
    queryFn: ({ signal }) =>
      apiRequest(ownershipRoutes.listTransferCandidates, {
        accountUuid: account,
        query: { ...(search ? { search } : {}), pageSize: TRANSFER_CANDIDATES_PAGE_MAX },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/**
 * What a refused change means for the user, in their language: the transfer was answered or withdrawn meanwhile
 * (409), or the caller is no longer the owner (403).
 */
export function transferErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 409) {
    if (/expired/.test(error.message)) return later('ownership.errors.expired');
    if (/already pending/.test(error.message)) return later('ownership.errors.alreadyPending');
    return later('ownership.errors.decided');
  }
  // Only a verified address takes over an account (decision 193).
  if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') {
    return later('ownership.errors.emailNotVerified');
  }
  if (error instanceof ApiError && error.status === 403) return later('ownership.errors.notOwner');
  return error instanceof Error ? error.message : String(error);
}

/** After a change the area's data is refetched, and so is the session (roles, terms) the guard decides on. */
function useOwnershipChanged(account: string) {
  const queryClient = useQueryClient();
  const invalidateSession = useInvalidateSession();
  return async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: keys.all(account) }), invalidateSession()]);
  };
}

/** The owner offers the account to an admin; the form shows the errors (422 on its fields). */
export function useStartTransfer(account: string) {
  const toast = useToast();
  const changed = useOwnershipChanged(account);
  return useMutation({
    mutationFn: (body: StartTransferBody) =>
      apiRequest(ownershipRoutes.startTransfer, { accountUuid: account, body }),
    meta: { silentError: true },
    onSuccess: async ({ data }) => {
      await changed();
      toast.success(later('ownership.started', { name: data.to.name || data.to.email }));
    },
  });
}

/** The owner withdraws the pending transfer. */
export function useCancelTransfer(account: string) {
  const toast = useToast();
  const changed = useOwnershipChanged(account);
  return useMutation({
    mutationFn: (transfer: OwnershipTransfer) =>
      apiRequest(ownershipRoutes.cancelTransfer, { accountUuid: account, params: { id: transfer.uuid } }),
    meta: { silentError: true },
    onError: async (error) => {
      toast.error(transferErrorMessage(error));
      await changed();
    },
    onSuccess: async () => {
      await changed();
      toast.success(later('ownership.cancelled'));
    },
  });
}
