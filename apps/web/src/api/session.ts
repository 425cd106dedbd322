import { useCallback, useSyncExternalStore } from 'react';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  accountsRoutes,
  mayCall,
  usersRoutes,
  type Account,
  type RouteDef,
  type UpdateAccountBody,
  type User,
} from '@portal/contract';
import { href } from '@/app/href.ts';
import { storeAccountUuid } from './account-storage.ts';
import { apiRequest } from './client.ts';

export const queryKeys = {
  me: ['me'] as const,
  myAccounts: ['me', 'accounts'] as const,
  accounts: ['accounts'] as const,
  account: (id: string) => ['accounts', id] as const,
};

/** The guard's loads: silent on failure (the guard decides what follows), cached, revalidated in the background. */
export const meQuery = queryOptions({
  queryKey: queryKeys.me,
  queryFn: async ({ signal }): Promise<User> => (await apiRequest(usersRoutes.getMe, { signal })).data,
  meta: { silentError: true },
});

export const myAccountsQuery = queryOptions({
  queryKey: queryKeys.myAccounts,
  queryFn: async ({ signal }): Promise<Account[]> =>
    (await apiRequest(usersRoutes.listMyAccounts, { signal })).data,
  meta: { silentError: true },
});

export function accountQuery(id: string) {
  return queryOptions({
    queryKey: queryKeys.account(id),
    queryFn: async ({ signal }): Promise<Account> =>
      (await apiRequest(accountsRoutes.getAccount, { params: { id }, signal })).data,
    meta: { silentError: true },
  });
}

/** The signed-in user; the guard has loaded it before any page renders. */
export function useMe(): User {
  const { data } = useQuery(meQuery);
  if (!data) throw new Error('useMe before the navigation guard loaded the user');
  return data;
}

/** The user's accounts, pending invitations included; loaded by the guard before any page renders. */
export function useMyAccounts(): Account[] {
  const { data } = useQuery(myAccountsQuery);
  if (!data) throw new Error('useMyAccounts before the navigation guard loaded the accounts');
  return data;
}

// The account the guard selected for the current navigation.
let currentAccountUuid: string | null = null;
const listeners = new Set<() => void>();

export function setCurrentAccountUuid(uuid: string | null): void {
  if (uuid === currentAccountUuid) return;
  currentAccountUuid = uuid;
  for (const listener of listeners) listener();
}

function subscribeCurrentAccount(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getCurrentAccountUuid() {
  return currentAccountUuid;
}

/** The current account: from the user's list, or (staff acting by ?uuid=) the account loaded by id. */
export function useCurrentAccount(): Account | null {
  return useAccount(
    useSyncExternalStore(subscribeCurrentAccount, getCurrentAccountUuid, getCurrentAccountUuid),
  );
}

/**
 * The uuid of the account the guard selected for this navigation, on a page of one account: what the page hands
 * to every account-scoped query (its key and its URL) and change it uses. Known before the account's data loads.
 */
export function useCurrentAccountUuid(): string {
  const uuid = useSyncExternalStore(subscribeCurrentAccount, getCurrentAccountUuid, getCurrentAccountUuid);
  if (!uuid) throw new Error('useCurrentAccountUuid outside a page of one account');
  return uuid;
}

/** An account as the user sees it: from their own list, else (staff in a customer's account) read by itself. */
export function useAccount(uuid: string | null): Account | null {
  const { data: accounts } = useQuery(myAccountsQuery);
  const own = accounts?.find((account) => account.uuid === uuid);
  const { data: external } = useQuery({ ...accountQuery(uuid ?? ''), enabled: Boolean(uuid) && !own });
  return own ?? external ?? null;
}

/**
 * Whether the caller may call this route of the current account, by the server's own rule (`mayCall`): a page shows
 * an action only where it passes, so staff under a customer's consent see the account without its changes.
 */
export function useMayCall(route: RouteDef): boolean {
  return mayCall(route, useCurrentAccount()?.accountRole);
}

/** Switches the account: stores it and reloads the dashboard with ?uuid=, which makes the guard select it. */
export function switchAccount(uuid: string): void {
  storeAccountUuid(uuid);
  window.location.assign(href('dashboard', undefined, { uuid }));
}

/**
 * Puts an account the API answered with into the cache: its entry by id, and its row in the user's list (keeping
 * the row's own role), so the guard reads the change before the refetch has finished.
 */
function setCachedAccount(queryClient: QueryClient, account: Account): void {
  queryClient.setQueryData<Account>(queryKeys.account(account.uuid), account);
  queryClient.setQueryData<Account[]>(queryKeys.myAccounts, (old) =>
    old?.map((item) =>
      item.uuid === account.uuid ? { ...item, ...account, accountRole: item.accountRole } : item,
    ),
  );
}

/** Refetches the user and the accounts after a change to them (e.g. terms accepted, account created). */
export function useInvalidateSession(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.me }),
      queryClient.invalidateQueries({ queryKey: queryKeys.accounts }),
    ]);
  }, [queryClient]);
}

/** Changes fields of an account (terms, deletion date, company data); the answer is the changed account. */
export function updateAccount(id: string, body: UpdateAccountBody) {
  return apiRequest(accountsRoutes.updateAccount, { params: { id }, body });
}

/** After a change to an account: its answer goes into the cache at once, then the session data is refetched. */
export function useAccountChanged(): (account: Account) => Promise<void> {
  const queryClient = useQueryClient();
  const invalidateSession = useInvalidateSession();
  return useCallback(
    async (account: Account) => {
      setCachedAccount(queryClient, account);
      await invalidateSession();
    },
    [queryClient, invalidateSession],
  );
}
