// Test helper: the app's query client (its toasts are part of what the user sees) for a page of one account, as
// the route guard leaves it: the account is the current one and the user's accounts are loaded.
import type { QueryClient } from '@tanstack/react-query';
import type { Account } from '@portal/contract';
import { storeAccountUuid } from '@/api/account-storage.ts';
import { createQueryClient } from '@/api/query-client.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';

export function accountQueryClient(account: Account): QueryClient {
  storeAccountUuid(account.uuid);
  setCurrentAccountUuid(account.uuid);
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    queries: { retry: false, staleTime: Infinity },
    mutations: { retry: false },
  });
  queryClient.setQueryData(queryKeys.myAccounts, [account]);
  return queryClient;
}
