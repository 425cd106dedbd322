// The dashboard's data layer (see features/accounts/api.ts for the shape every area's api.ts follows): the
// transfer of ownership the user takes part in. The answer to it is in answer-transfer.ts, which loads with the
// offer's card, not with the dashboard (decision 255).
import { queryOptions } from '@tanstack/react-query';
import { ownershipRoutes } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';

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
