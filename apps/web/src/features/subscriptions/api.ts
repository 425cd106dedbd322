// The subscriptions area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows):
// the plan catalogue, the account's subscription, and the two steps of every change: a preview the server
// computes, then the confirmation that carries the previewed charge. The page shows every error of both steps in
// its dialog (a 409 means the preview is outdated and is fetched anew), so neither hook toasts them.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { subscriptionsRoutes, type ConfirmSubscriptionBody, type SubscriptionAction } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

export function plansQuery(accountUuid: string) {
  return queryOptions({
    queryKey: ['subscriptions', accountUuid, 'plans'],
    queryFn: async ({ signal }) =>
      (await apiRequest(subscriptionsRoutes.listPlans, { accountUuid, signal })).data.plans,
  });
}

/** The subscription changes with every confirmed action and with the scheduler, so each visit reads it anew. */
export function subscriptionQuery(accountUuid: string) {
  return queryOptions({
    queryKey: ['subscriptions', accountUuid, 'subscription'],
    queryFn: async ({ signal }) =>
      (await apiRequest(subscriptionsRoutes.getSubscription, { accountUuid, signal })).data,
    staleTime: 0,
  });
}

/** What an action would do, computed by the server; changes nothing. */
export function usePreviewSubscription(accountUuid: string) {
  return useMutation({
    mutationFn: async (action: SubscriptionAction) =>
      (await apiRequest(subscriptionsRoutes.previewSubscription, { accountUuid, body: action })).data,
    meta: { silentError: true },
  });
}

const DONE = {
  CHANGE: 'subscriptions.done.change',
  CANCEL: 'subscriptions.done.cancel',
  RESUME: 'subscriptions.done.resume',
} as const;

/**
 * Does a previewed action. Afterwards the subscription and the billing area's data (a charge issues an invoice,
 * the next invoice changes) are read anew.
 */
export function useConfirmSubscription(accountUuid: string) {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ConfirmSubscriptionBody) =>
      (await apiRequest(subscriptionsRoutes.confirmSubscription, { accountUuid, body })).data,
    meta: { silentError: true },
    onSuccess: async (result, body) => {
      queryClient.setQueryData(subscriptionQuery(accountUuid).queryKey, result.subscription);
      toast.success(later(DONE[body.action.action]));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['subscriptions', accountUuid] }),
        queryClient.invalidateQueries({ queryKey: ['billing', accountUuid] }),
      ]);
    },
  });
}
