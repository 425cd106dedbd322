// The billing area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows): the
// account's invoices (paged and filtered on the server), one invoice and its PDF, the billing details and the
// hook that changes them, the past-due status the shell's banner reads, and what the page shows beside them: the
// subscription and the plan catalogue, under the subscriptions page's keys and shapes, so both share one cache;
// and the saved card: the card provider's page to save one, keeping it on return, removing it.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  billingRoutes,
  subscriptionsRoutes,
  type InvoicesQuery,
  type UpdateBillingDetailsBody,
} from '@portal/contract';
import { apiFile, apiRequest } from '@/api/client.ts';
import { useDownload } from '@/api/use-download.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';
import { leavePageTo } from './leave-page.ts';

export const billingKeys = {
  all: (account: string) => ['billing', account] as const,
  invoices: (account: string, query: InvoicesQuery) => ['billing', account, 'invoices', query] as const,
  invoice: (account: string, uuid: string) => ['billing', account, 'invoice', uuid] as const,
  details: (account: string) => ['billing', account, 'details'] as const,
  status: (account: string) => ['billing', account, 'status'] as const,
};

/** One page of the account's invoices for a filter; the previous page stays on screen while the next loads. */
export function invoicesQuery(account: string, query: InvoicesQuery) {
  return queryOptions({
    queryKey: billingKeys.invoices(account, query),
    queryFn: ({ signal }) => apiRequest(billingRoutes.listInvoices, { accountUuid: account, query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function invoiceQuery(account: string, uuid: string) {
  return queryOptions({
    queryKey: billingKeys.invoice(account, uuid),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(billingRoutes.getInvoice, {
          accountUuid: account,
          params: { invoiceUuid: uuid },
          signal,
        })
      ).data,
  });
}

export function billingDetailsQuery(account: string) {
  return queryOptions({
    queryKey: billingKeys.details(account),
    queryFn: async ({ signal }) =>
      (await apiRequest(billingRoutes.getBillingDetails, { accountUuid: account, signal })).data,
  });
}

/**
 * Whether the account is past due, for its admins' banner in the shell: read once per account and kept for a
 * quarter of an hour, so moving between pages sends no request. Its failure stays silent (the banner is a hint;
 * the billing page shows the invoices themselves).
 */
export function billingStatusQuery(account: string) {
  return queryOptions({
    queryKey: billingKeys.status(account),
    queryFn: async ({ signal }) =>
      (await apiRequest(billingRoutes.getBillingStatus, { accountUuid: account, signal })).data,
    staleTime: 15 * 60_000,
    meta: { silentError: true },
  });
}

/** The account's subscription: plan, period and the next invoice as it stands today. */
export function subscriptionQuery(account: string) {
  return queryOptions({
    queryKey: ['subscriptions', account, 'subscription'] as const,
    queryFn: async ({ signal }) =>
      (await apiRequest(subscriptionsRoutes.getSubscription, { accountUuid: account, signal })).data,
  });
}

/** The plan catalogue (same key and shape as the subscriptions page), for the plans' names. */
export function plansQuery(account: string) {
  return queryOptions({
    queryKey: ['subscriptions', account, 'plans'] as const,
    queryFn: async ({ signal }) =>
      (await apiRequest(subscriptionsRoutes.listPlans, { accountUuid: account, signal })).data.plans,
  });
}

/** Saves the billing details; the form shows the errors (422 on the fields), so they are not toasted here. */
export function useUpdateBillingDetails(account: string) {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBillingDetailsBody) =>
      apiRequest(billingRoutes.updateBillingDetails, { accountUuid: account, body }),
    meta: { silentError: true },
    onSuccess: ({ data }) => {
      queryClient.setQueryData(billingKeys.details(account), data);
      toast.success(later('billing.details.saved'));
    },
  });
}

/** Opens the card provider's page where the admin saves a card (the whole page goes there and comes back). */
export function useStartCardSetup(account: string) {
  return useMutation({
    mutationFn: async () => (await apiRequest(billingRoutes.startCardSetup, { accountUuid: account })).data,
    onSuccess: ({ url }) => leavePageTo(url),
  });
}

/** Keeps the card of the setup session the admin came back from; the page shows the result, not a toast. */
export function useCompleteCardSetup(account: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      apiRequest(billingRoutes.completeCardSetup, { accountUuid: account, body: { sessionId } }),
    meta: { silentError: true },
    onSuccess: ({ data }) => queryClient.setQueryData(billingKeys.details(account), data),
  });
}

/** Forgets the saved card: the account pays by invoice again. */
export function useRemoveCard(account: string) {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(billingRoutes.removeCard, { accountUuid: account }),
    onSuccess: ({ data }) => {
      queryClient.setQueryData(billingKeys.details(account), data);
      toast.success(later('billing.method.cardRemoved'));
    },
  });
}

/** Downloads an invoice's PDF (fetched with the session's token, then saved by the browser under its number). */
export function useDownloadInvoicePdf(account: string) {
  return useDownload(
    (invoice: { uuid: string; number: string }) =>
      apiFile(billingRoutes.getInvoicePdf, { accountUuid: account, params: { invoiceUuid: invoice.uuid } }),
    (invoice) => `${invoice.number}.pdf`,
  );
}
