// The shop area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows): the shop
// connection of the current account and the hooks that save, test, sync and disconnect it.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { peppershopRoutes, type SaveShopBody, type ShopState, type TestShopBody } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

const stateKey = (account: string) => ['peppershop', account, 'connection'] as const;

/** While a sync is queued or running, the page reads the state again every few seconds until it has ended. */
const SYNC_WATCH_MS = 2000;

const syncing = (state: ShopState | undefined) =>
  state?.connection?.lastSync?.status === 'QUEUED' || state?.connection?.lastSync?.status === 'RUNNING';

export function shopStateQuery(account: string) {
  return queryOptions({
    queryKey: stateKey(account),
    queryFn: async ({ signal }) =>
      (await apiRequest(peppershopRoutes.getShopState, { accountUuid: account, signal })).data,
    // A sync runs on the server's jobs runner: its outcome is read again until it is known.
    refetchInterval: (query) => (syncing(query.state.data) ? SYNC_WATCH_MS : false),
    staleTime: 0,
  });
}

function useStateChanged(account: string) {
  const queryClient = useQueryClient();
  return (state: ShopState) => queryClient.setQueryData(stateKey(account), state);
}

/** Saves the configuration; the form shows field errors (422). */
export function useSaveShop(account: string) {
  const toast = useToast();
  const changed = useStateChanged(account);
  return useMutation({
    mutationFn: (body: SaveShopBody) =>
      apiRequest(peppershopRoutes.saveShopConnection, { accountUuid: account, body }),
    meta: { silentError: true },
    onSuccess: ({ data }) => {
      changed(data);
      toast.success(later('peppershop.saved'));
    },
  });
}

/** Tests the entered (or stored) address and key; the form shows the result beside its buttons. */
export function useTestShop(account: string) {
  return useMutation({
    mutationFn: async (body: TestShopBody) =>
      (await apiRequest(peppershopRoutes.testShopConnection, { accountUuid: account, body })).data,
    meta: { silentError: true },
  });
}

export function useSyncShop(account: string) {
  const toast = useToast();
  const changed = useStateChanged(account);
  return useMutation({
    mutationFn: () => apiRequest(peppershopRoutes.syncShopNow, { accountUuid: account }),
    onSuccess: ({ data }) => {
      changed(data);
      toast.success(later('peppershop.syncQueued'));
    },
  });
}

export function useDisconnectShop(account: string) {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(peppershopRoutes.disconnectShop, { accountUuid: account }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: stateKey(account) });
      toast.success(later('peppershop.disconnected'));
    },
  });
}
