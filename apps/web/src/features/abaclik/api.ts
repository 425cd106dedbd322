// The AbaClik area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows): the
// paired devices (the caller's own, or every member's for ADMIN and above), a new activation code and its state
// while the pairing dialog waits for the app, and revoking a device. Devices change from outside (the app pairs
// and reports in), so their reads are never cached as fresh (staleTime 0).
import { useCallback } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { abaclikRoutes, type AbaclikDevice, type AbaclikDevicesQuery } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

/** How often the pairing dialog asks whether the app has used the code. */
export const CODE_POLL_MS = 2000;

const devicesKey = (account: string) => ['abaclik', account, 'devices'] as const;

export function devicesQuery(account: string, query: AbaclikDevicesQuery) {
  return queryOptions({
    queryKey: [...devicesKey(account), query] as const,
    queryFn: ({ signal }) =>
      apiRequest(abaclikRoutes.listAbaclikDevices, { accountUuid: account, query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * The state of an activation code while the dialog shows it: read again every CODE_POLL_MS while it is open (the
 * app has not used it and it has not expired), then no more.
 */
export function codeStatusQuery(account: string, uuid: string) {
  return queryOptions({
    queryKey: ['abaclik', account, 'code', uuid] as const,
    queryFn: async ({ signal }) =>
      (
        await apiRequest(abaclikRoutes.getAbaclikActivationCode, {
          accountUuid: account,
          params: { uuid },
          signal,
        })
      ).data,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data && query.state.data.status !== 'OPEN' ? false : CODE_POLL_MS,
  });
}

/** A new activation code for the caller's own phone (the earlier one stops working). */
export function useCreateActivationCode(account: string) {
  return useMutation({
    mutationFn: async () =>
      (await apiRequest(abaclikRoutes.createAbaclikActivationCode, { accountUuid: account })).data,
  });
}

/** The devices list is read again once a device was paired or revoked. */
export function useDevicesChanged(account: string) {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: devicesKey(account) }),
    [queryClient, account],
  );
}

/** Revokes a device: its app is refused from its next call on. */
export function useRevokeDevice(account: string) {
  const toast = useToast();
  const devicesChanged = useDevicesChanged(account);
  return useMutation({
    mutationFn: (device: AbaclikDevice) =>
      apiRequest(abaclikRoutes.revokeAbaclikDevice, { accountUuid: account, params: { uuid: device.uuid } }),
    onSuccess: async (_answer, device) => {
      toast.success(later('abaclik.revoked', { name: device.name }));
      await devicesChanged();
    },
  });
}
