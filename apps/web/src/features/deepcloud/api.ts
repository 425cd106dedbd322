// The cloud area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows).
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { deepcloudRoutes, type CloudAuthBody, type CloudConnection, type CloudState } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

/** Every query of this area is one account's; the key names it, so switching accounts never shows another's. */
const keys = {
  all: (account: string) => ['deepcloud', account] as const,
  state: (account: string) => ['deepcloud', account, 'state'] as const,
  organizations: (account: string, connection: string) =>
    ['deepcloud', account, 'organizations', connection] as const,
};

/** The connection (without tokens) and what connecting needs; another admin may change it, so read on each visit. */
export function cloudStateQuery(account: string) {
  return queryOptions({
    queryKey: keys.state(account),
    queryFn: async ({ signal }): Promise<CloudState> =>
      (await apiRequest(deepcloudRoutes.getCloudState, { accountUuid: account, signal })).data,
    staleTime: 0,
    // The page shows a failure itself, with a retry.
    meta: { silentError: true },
  });
}

/**
 * The organisations the connection reaches, read from the cloud through the server. Leaving the page aborts the
 * request (the query's signal reaches the HTTP client), and the server then cancels its call to the cloud.
 */
export function cloudOrganizationsQuery(account: string, connection: string) {
  return queryOptions({
    queryKey: keys.organizations(account, connection),
    queryFn: async ({ signal }) =>
      (await apiRequest(deepcloudRoutes.listCloudOrganizations, { accountUuid: account, signal })).data,
    staleTime: 0,
    // The list shows its own failure, with a retry.
    meta: { silentError: true },
  });
}

/**
 * Exchanges the code the cloud sent back and the stored verifier for a connection. Called by the callback step
 * before any page renders; a failure there ends on the dashboard without a message, so nothing is toasted here.
 * The attempt's state is the Idempotency-Key: a repeated post of the same attempt gets the first answer back
 * instead of a refusal (the cloud accepts a code only once).
 */
export async function exchangeCloudCode(
  queryClient: QueryClient,
  account: string,
  body: CloudAuthBody,
  attempt: string,
): Promise<CloudConnection> {
  const { data: connection } = await apiRequest(deepcloudRoutes.connectCloud, {
    accountUuid: account,
    body,
    headers: { 'Idempotency-Key': attempt },
  });
  await queryClient.invalidateQueries({ queryKey: keys.all(account) });
  return connection;
}

/** Revokes the tokens at the cloud and deletes the connection. */
export function useDisconnectCloud(account: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: () => apiRequest(deepcloudRoutes.disconnectCloud, { accountUuid: account }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: [...keys.all(account), 'organizations'] });
      await queryClient.invalidateQueries({ queryKey: keys.state(account) });
      toast.success(later('deepcloud.disconnected'));
    },
  });
}
