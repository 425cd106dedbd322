import { subscriptionsRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import { todayIn } from '../../invoicing/money.ts';
import type { Catalogue } from '../../invoicing/subscription-plan.ts';
import { renewDueSubscriptions } from '../../invoicing/subscription-renewal.ts';
import {
  confirmSubscription,
  getSubscription,
  listPlans,
  previewSubscription,
  type SubscriptionContext,
} from './subscriptions.service.ts';

declare module '../../jobs/runner.ts' {
  interface JobKinds {
    /** Renews the subscriptions whose period ended: next period, its invoice. */
    'subscriptions.renew': Record<string, never>;
  }
}

/** Periods end at midnight in the provider's time zone; the scheduler looks every minute. */
const RENEW_INTERVAL_MS = 60 * 1000;

/**
 * Subscriptions of an account: the plan catalogue, the subscription, and its changes previewed and confirmed
 * (ADMIN and above, checked before the handlers run); the renewal scheduler issues the periods' invoices.
 */
export function registerSubscriptionsRoutes({ db, route, jobs, invoicing }: ModuleDeps) {
  const catalogue: Catalogue = { plans: invoicing.config.plans, vatRates: invoicing.config.vatRates };
  const context = (): SubscriptionContext => ({ catalogue, today: todayIn(invoicing.config.timeZone) });

  jobs.define('subscriptions.renew', {
    every: RENEW_INTERVAL_MS,
    handler: async ({ log }) => {
      const renewed = await renewDueSubscriptions(db, invoicing, catalogue, context().today);
      if (renewed) log.info({ renewed }, 'renewed subscriptions');
    },
  });

  route(subscriptionsRoutes.listPlans, {
    handler: async () => ({ data: listPlans(catalogue) }),
  });

  route(subscriptionsRoutes.getSubscription, {
    handler: async (request) => ({ data: await getSubscription(db, request.account, context()) }),
  });

  route(subscriptionsRoutes.previewSubscription, {
    handler: async (request) => ({
      data: await previewSubscription(db, request.account, request.body, context()),
    }),
  });

  // A confirmation retried with its Idempotency-Key answers again instead of charging twice.
  route(subscriptionsRoutes.confirmSubscription, {
    idempotent: true,
    handler: async (request) => ({
      data: await confirmSubscription(db, invoicing, request.user, request.account, request.body, context()),
    }),
  });
}
