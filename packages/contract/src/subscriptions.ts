import Type from 'typebox';
import { DateTime, Entity, ErrorBody } from './common.ts';
import {
  BillingPeriodSchema,
  CurrencySchema,
  InvoiceLine,
  InvoiceTotals,
  IsoDate,
  type BillingPeriod,
  type Currency,
} from './billing.ts';
import { defineRoute } from './route.ts';

// Subscriptions: the plan an account pays for, its billing period and seats. Every change is previewed by the
// server and confirmed with the previewed total, so what is charged is what was shown.

/** What a plan offers, beyond its seats; the web names each in the reader's language. */
export const PLAN_FEATURES = [
  'INBOX',
  'SUPPORT_TICKETS',
  'PRIORITY_SUPPORT',
  'AUDIT_LOG',
  'LOG_EXPORT',
  'INTEGRATIONS',
  'SSO',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

/** Prices of a plan in one currency, in minor units, without VAT: the plan per period and one extra seat per period. */
export const PlanPrice = Type.Object({
  monthlyMinor: Type.Integer({ minimum: 0 }),
  yearlyMinor: Type.Integer({ minimum: 0 }),
  seatMonthlyMinor: Type.Integer({ minimum: 0 }),
  seatYearlyMinor: Type.Integer({ minimum: 0 }),
});
export type PlanPrice = Type.Static<typeof PlanPrice>;

/** A plan of the catalogue (configuration). Plans are ordered by `rank`: a higher rank is an upgrade. */
export const Plan = Type.Object({
  code: Type.String({ pattern: '^[A-Z][A-Z0-9_]{1,31}$' }),
  /** Product names are the same in every language. */
  name: Type.String({ minLength: 1, maxLength: 40 }),
  rank: Type.Integer({ minimum: 0 }),
  includedSeats: Type.Integer({ minimum: 1 }),
  /** Most seats the plan allows, null for no limit; extra seats above the included ones are billed. */
  maxSeats: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  features: Type.Array(Type.Enum(PLAN_FEATURES)),
  prices: Type.Object({ CHF: PlanPrice, EUR: PlanPrice }),
});
export type Plan = Type.Static<typeof Plan>;

/** Days a new account tries the product before its first invoice. */
export const TRIAL_DAYS = 14;

/**
 * TRIALING until the trial ends, then ACTIVE; PAST_DUE while an invoice is overdue; CANCELLED after a
 * cancellation took effect (the account is then on the free plan).
 */
export const SUBSCRIPTION_STATUSES = ['TRIALING', 'ACTIVE', 'PAST_DUE', 'CANCELLED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const CANCEL_REASONS = [
  'TOO_EXPENSIVE',
  'MISSING_FEATURES',
  'SWITCHED_SERVICE',
  'UNUSED',
  'OTHER',
] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
export const CANCEL_COMMENT_MAX = 1000;

/** A change that waits for the end of the period (a downgrade). */
export const PendingChange = Type.Object({
  planCode: Type.String(),
  billingPeriod: BillingPeriodSchema,
  seats: Type.Integer(),
  effectiveOn: IsoDate,
});

export const Subscription = Type.Object({
  planCode: Type.String(),
  billingPeriod: BillingPeriodSchema,
  currency: CurrencySchema,
  /** Seats paid for, the included ones counted; never fewer than the account's members. */
  seats: Type.Integer(),
  /** Members and open invitations of the account: the fewest seats allowed. */
  seatsInUse: Type.Integer(),
  status: Type.Enum(SUBSCRIPTION_STATUSES),
  trialEndsOn: Type.Union([IsoDate, Type.Null()]),
  currentPeriodStart: IsoDate,
  /** The period runs up to, not including, this day; the next invoice is issued on it. */
  currentPeriodEnd: IsoDate,
  cancelAtPeriodEnd: Type.Boolean(),
  cancelReason: Type.Union([Type.Enum(CANCEL_REASONS), Type.Null()]),
  pendingChange: Type.Union([PendingChange, Type.Null()]),
  /** The next invoice as it stands today: its day and totals; null when none follows (cancelled, free). */
  upcoming: Type.Union([
    Type.Object({ issuedOn: IsoDate, lines: Type.Array(InvoiceLine), totals: InvoiceTotals }),
    Type.Null(),
  ]),
  updatedAt: DateTime,
});
export type Subscription = Type.Static<typeof Subscription>;

export const SubscriptionAction = Type.Union([
  Type.Object(
    {
      action: Type.Literal('CHANGE'),
      planCode: Type.String({ maxLength: 32 }),
      billingPeriod: BillingPeriodSchema,
      seats: Type.Integer({ minimum: 1, maximum: 100_000 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      action: Type.Literal('CANCEL'),
      reason: Type.Enum(CANCEL_REASONS),
      comment: Type.Union([Type.String({ maxLength: CANCEL_COMMENT_MAX }), Type.Null()]),
    },
    { additionalProperties: false },
  ),
  Type.Object({ action: Type.Literal('RESUME') }, { additionalProperties: false }),
]);
export type SubscriptionAction = Type.Static<typeof SubscriptionAction>;

/**
 * What an action will do, computed by the same code that then does it: whether it applies now or at the period
 * end, what is charged now (lines and totals, none for a change at the period end) and what recurs afterwards.
 */
export const SubscriptionPreview = Type.Object({
  effective: Type.Enum(['NOW', 'PERIOD_END'] as const),
  effectiveOn: IsoDate,
  /** Charged now (a prorated invoice), or null when nothing is charged now. */
  charge: Type.Union([Type.Object({ lines: Type.Array(InvoiceLine), totals: InvoiceTotals }), Type.Null()]),
  /** The recurring invoice after the change: from when, and its totals; null when nothing recurs (cancelled, free). */
  recurring: Type.Union([Type.Object({ from: IsoDate, totals: InvoiceTotals }), Type.Null()]),
  /**
   * A change that is no upgrade (a lower plan, or the same plan with no more seats) but recurs at more per year than
   * staying: both yearly net prices, so the page can say so (`costlierThanStaying`); null otherwise.
   */
  costsMoreThanStaying: Type.Union([
    Type.Object({ currentYearlyNetMinor: Type.Integer(), newYearlyNetMinor: Type.Integer() }),
    Type.Null(),
  ]),
  subscription: Subscription,
});
export type SubscriptionPreview = Type.Static<typeof SubscriptionPreview>;

/**
 * The confirmation carries the previewed total: when it no longer matches (a price, a day or the subscription
 * changed in between) the server refuses with 409 and nothing changes, so a new preview is shown.
 */
export const ConfirmSubscriptionBody = Type.Object(
  { action: SubscriptionAction, expectedChargeMinor: Type.Integer() },
  { additionalProperties: false },
);
export type ConfirmSubscriptionBody = Type.Static<typeof ConfirmSubscriptionBody>;

export const SubscriptionChangeResult = Type.Object({
  subscription: Subscription,
  /** The invoice issued for what the change charged now, in the same transaction; null when nothing was charged. */
  chargeInvoiceUuid: Type.Union([Type.String(), Type.Null()]),
});

export const PlanCatalogue = Type.Object({ plans: Type.Array(Plan) });
export type PlanCatalogue = Type.Static<typeof PlanCatalogue>;

/** The price of a plan for one period and currency, seats above the included ones added. */
export function recurringNetMinor(
  plan: Plan,
  currency: Currency,
  period: BillingPeriod,
  seats: number,
): number {
  const price = plan.prices[currency];
  const extra = Math.max(0, seats - plan.includedSeats);
  return period === 'MONTHLY'
    ? price.monthlyMinor + extra * price.seatMonthlyMinor
    : price.yearlyMinor + extra * price.seatYearlyMinor;
}

type PlanChoice = { planCode: string; billingPeriod: BillingPeriod; seats: number };

/** A plan's price for a year at `seats`: twelve months, or the yearly price. */
function yearlyNetMinor(plan: Plan, currency: Currency, choice: PlanChoice): number {
  const amount = recurringNetMinor(plan, currency, choice.billingPeriod, choice.seats);
  return choice.billingPeriod === 'MONTHLY' ? amount * 12 : amount;
}

/**
 * Whether a change that is no upgrade costs more per year than staying (issue 23 item 10): a lower plan (its
 * seats dearer than the current plan's), or the same plan with no more seats (monthly instead of yearly). Both
 * yearly net prices, or null. The server puts it into the preview; the page says it from there.
 */
export function costlierThanStaying(
  plans: readonly Plan[],
  currency: Currency,
  current: PlanChoice,
  wanted: PlanChoice,
): { currentYearlyNetMinor: number; newYearlyNetMinor: number } | null {
  const from = plans.find((plan) => plan.code === current.planCode);
  const to = plans.find((plan) => plan.code === wanted.planCode);
  if (!from || !to) return null;
  const noUpgrade = to.rank < from.rank || (to.code === from.code && wanted.seats <= current.seats);
  if (!noUpgrade) return null;
  const currentYearlyNetMinor = yearlyNetMinor(from, currency, current);
  const newYearlyNetMinor = yearlyNetMinor(to, currency, wanted);
  return newYearlyNetMinor > currentYearlyNetMinor ? { currentYearlyNetMinor, newYearlyNetMinor } : null;
}

/**
 * The seats a plan change proposes: the fewest that hold the members and open invitations (never below the plan's
 * included seats, which cost nothing extra); what the account bought beyond its plan stays only on an upgrade;
 * never more than the plan allows (issue 23 item 10).
 */
export function proposedSeats(
  plans: readonly Plan[],
  current: { planCode: string; seats: number; seatsInUse: number },
  target: Plan,
): number {
  const from = plans.find((plan) => plan.code === current.planCode);
  const upgrade = !from || target.rank > from.rank;
  const kept = upgrade && from && current.seats > from.includedSeats ? current.seats : 0;
  const seats = Math.max(current.seatsInUse, target.includedSeats, kept);
  return target.maxSeats === null ? seats : Math.min(seats, target.maxSeats);
}

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const tags = ['subscriptions'];
const admin = { min: 'ADMIN', denied: 'Subscriptions need the ADMIN role' } as const;

export const subscriptionsRoutes = {
  listPlans: defineRoute({
    method: 'GET',
    path: '/subscriptions/v1/plans',
    summary: 'The plans an account can choose, with their prices',
    tags,
    accountScoped: true,
    accountRole: admin,
    response: { 200: Entity(PlanCatalogue), ...errors },
  }),
  getSubscription: defineRoute({
    method: 'GET',
    path: '/subscriptions/v1/subscription',
    summary: "The account's plan, period, seats, status and next invoice",
    tags,
    accountScoped: true,
    accountRole: admin,
    response: { 200: Entity(Subscription), ...errors },
  }),
  previewSubscription: defineRoute({
    method: 'POST',
    path: '/subscriptions/v1/subscription/preview',
    summary: 'What a change, cancellation or resumption would charge and when; changes nothing',
    tags,
    accountScoped: true,
    accountRole: admin,
    // Changes nothing: support may show the customer what a change would cost.
    supportAction: true,
    body: SubscriptionAction,
    response: { 200: Entity(SubscriptionPreview), ...errors, 409: ErrorBody },
  }),
  confirmSubscription: defineRoute({
    method: 'POST',
    path: '/subscriptions/v1/subscription/confirm',
    summary: 'Do a previewed change, cancellation or resumption; refused when the preview is outdated',
    tags,
    accountScoped: true,
    accountRole: admin,
    body: ConfirmSubscriptionBody,
    response: { 200: Entity(SubscriptionChangeResult), ...errors, 409: ErrorBody },
  }),
};
