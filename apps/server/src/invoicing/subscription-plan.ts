import {
  recurringNetMinor,
  type BillingPeriod,
  type Currency,
  type InvoiceLine,
  type InvoiceTotals,
  type Plan,
  type SubscriptionAction,
} from '@portal/contract';
import { HttpError, invalidField } from '../http/errors.ts';
import { invoiceTotals, periodEnd, prorate, withVat, type NetLine, type VatRate } from './money.ts';
import { fallbackPlan, findPlan } from './plans.ts';

// What a subscription action does, computed without the database: the preview answers with it and the
// confirmation does it, so what is charged is exactly what was previewed. Renewals at a period's end use the same
// lines, so the "upcoming" invoice shown is the one the scheduler issues.

/** A subscription as stored (PAST_DUE is read from the invoices, never stored). */
export interface SubscriptionState {
  planCode: string;
  billingPeriod: BillingPeriod;
  currency: Currency;
  seats: number;
  status: 'TRIALING' | 'ACTIVE' | 'CANCELLED';
  trialEndsOn: string | null;
  periodStart: string;
  /** The period runs up to, not including, this day. */
  periodEnd: string;
  anchorDay: number;
  cancelAtPeriodEnd: boolean;
  cancelReason: string | null;
  cancelComment: string | null;
  pending: { planCode: string; billingPeriod: BillingPeriod; seats: number } | null;
}

export interface Catalogue {
  plans: readonly Plan[];
  vatRates: readonly VatRate[];
}

/** Lines with VAT and their totals, for the days from `periodStart` to `periodEnd`. */
export interface Charge {
  lines: InvoiceLine[];
  totals: InvoiceTotals;
  periodStart: string;
  periodEnd: string;
}

export interface PlannedAction {
  effective: 'NOW' | 'PERIOD_END';
  effectiveOn: string;
  /** Charged now (issued as an invoice with the change), or null. */
  charge: Charge | null;
  after: SubscriptionState;
}

/** A 409 the preview and the confirmation answer alike; `code` tells the web which. */
const refused = (code: string, message: string) => new HttpError(409, code, message);

function planOf(plans: readonly Plan[], code: string): Plan {
  const plan = findPlan(plans, code);
  if (!plan) throw new Error(`plan ${code} is not in the catalogue`);
  return plan;
}

const isFree = (plan: Plan) => plan.prices.CHF.monthlyMinor === 0 && plan.prices.EUR.monthlyMinor === 0;

function recurring(
  state: Pick<SubscriptionState, 'planCode' | 'billingPeriod' | 'seats' | 'currency'>,
  plans: readonly Plan[],
) {
  return recurringNetMinor(planOf(plans, state.planCode), state.currency, state.billingPeriod, state.seats);
}

/**
 * The net lines of a plan and its extra seats for the days from `from` to `to` of the period `[start, end)`:
 * the full price when they cover the period, else prorated by days; `sign` -1 makes them credits.
 */
function planLines(
  plan: Plan,
  state: Pick<SubscriptionState, 'billingPeriod' | 'seats' | 'currency'>,
  period: { start: string; end: string },
  from: string,
  sign: 1 | -1,
): NetLine[] {
  const price = plan.prices[state.currency];
  const monthly = state.billingPeriod === 'MONTHLY';
  const extra = Math.max(0, state.seats - plan.includedSeats);
  const prorated = from !== period.start;
  const parts = [
    { kind: 'PLAN', quantity: 1, unitMinor: monthly ? price.monthlyMinor : price.yearlyMinor },
    { kind: 'SEATS', quantity: extra, unitMinor: monthly ? price.seatMonthlyMinor : price.seatYearlyMinor },
  ] as const;
  const lines: NetLine[] = [];
  for (const part of parts) {
    const full = part.quantity * part.unitMinor;
    const net = prorated ? prorate(full, period.start, period.end, from) : full;
    if (net === 0) continue;
    lines.push({
      kind: sign === 1 ? part.kind : (`${part.kind}_CREDIT` as const),
      planCode: plan.code,
      billingPeriod: state.billingPeriod,
      quantity: part.quantity,
      unitMinor: part.unitMinor,
      netMinor: sign * net,
      periodStart: from,
      periodEnd: period.end,
      prorated,
    });
  }
  return lines;
}

function charge(
  lines: NetLine[],
  currency: Currency,
  vatRates: readonly VatRate[],
  start: string,
  end: string,
): Charge | null {
  if (lines.length === 0) return null;
  const taxed = lines.flatMap((line) => withVat(line, vatRates));
  const totals = invoiceTotals(taxed, currency);
  // Nothing to pay (a change between plans of the same price): no invoice.
  if (totals.totalMinor === 0) return null;
  return { lines: taxed, totals, periodStart: start, periodEnd: end };
}

/**
 * The period after the current one ends: a pending cancellation moves the account to the free plan (CANCELLED, no
 * more invoices), a pending change takes effect, a trial becomes ACTIVE; its invoice charges the new period in full
 * (null when it costs nothing).
 */
export function renewal(
  state: SubscriptionState,
  catalogue: Catalogue,
): { after: SubscriptionState; charge: Charge | null } {
  const start = state.periodEnd;
  if (state.cancelAtPeriodEnd || state.status === 'CANCELLED') {
    const free = fallbackPlan(catalogue.plans);
    const after: SubscriptionState = {
      ...state,
      planCode: free.code,
      billingPeriod: 'MONTHLY',
      seats: free.includedSeats,
      status: 'CANCELLED',
      periodStart: start,
      periodEnd: periodEnd(start, 'MONTHLY', state.anchorDay),
      cancelAtPeriodEnd: false,
      pending: null,
    };
    return { after, charge: null };
  }
  const next = state.pending ?? state;
  const after: SubscriptionState = {
    ...state,
    planCode: next.planCode,
    billingPeriod: next.billingPeriod,
    seats: next.seats,
    status: 'ACTIVE',
    periodStart: start,
    periodEnd: periodEnd(start, next.billingPeriod, state.anchorDay),
    pending: null,
  };
  const lines = planLines(
    planOf(catalogue.plans, after.planCode),
    after,
    { start, end: after.periodEnd },
    start,
    1,
  );
  return { after, charge: charge(lines, after.currency, catalogue.vatRates, start, after.periodEnd) };
}

/**
 * Credit and charge lines, without a credit and a charge that cancel each other out (the same plan's price when
 * only the seats change), so the invoice shows what changed.
 */
function withoutOffsets(credits: NetLine[], charges: NetLine[]): NetLine[] {
  const kept = [...charges];
  const remaining = credits.filter((credit) => {
    const index = kept.findIndex(
      (line) =>
        `${line.kind}_CREDIT` === credit.kind &&
        line.planCode === credit.planCode &&
        line.quantity === credit.quantity &&
        line.netMinor === -credit.netMinor,
    );
    if (index < 0) return true;
    kept.splice(index, 1);
    return false;
  });
  return [...remaining, ...kept];
}

/** The seats a change asks for, checked: at least those in use, at most the plan's limit, none extra on a free plan. */
function checkedSeats(plan: Plan, requested: number, inUse: number): number {
  const seats = Math.max(requested, plan.includedSeats);
  if (seats < inUse)
    throw invalidField('seats', `must be at least ${inUse}, the members and open invitations`);
  if (isFree(plan) && seats > plan.includedSeats)
    throw invalidField('seats', `${plan.name} has no extra seats`);
  if (plan.maxSeats !== null && seats > plan.maxSeats)
    throw invalidField('seats', `must be at most ${plan.maxSeats} on ${plan.name}`);
  return seats;
}

/**
 * What `action` does to `state` on `today`:
 * - CHANGE that raises the amount charged per period (a higher plan, more seats, monthly to yearly) applies now:
 *   the unused days of the old price are credited and the new price is charged for the rest of the period; a
 *   change to yearly starts a new yearly period today. From the free plan or a cancelled subscription, a paid plan
 *   starts a new period today, charged in full. During the trial a change applies now and charges nothing.
 * - Any other CHANGE (a lower plan, fewer seats, yearly to monthly) waits for the period end; choosing the current
 *   plan again drops the waiting change. A change also withdraws a pending cancellation.
 * - CANCEL ends the subscription at the period end; RESUME withdraws that before it.
 */
export function planAction(
  state: SubscriptionState,
  action: SubscriptionAction,
  today: string,
  catalogue: Catalogue,
  seatsInUse: number,
): PlannedAction {
  const { plans, vatRates } = catalogue;
  if (action.action === 'CANCEL') {
    if (state.status === 'CANCELLED' || isFree(planOf(plans, state.planCode)))
      throw refused('NOTHING_TO_CANCEL', 'There is no paid subscription to cancel');
    if (state.cancelAtPeriodEnd) throw refused('ALREADY_CANCELLED', 'The subscription is cancelled already');
    return {
      effective: 'PERIOD_END',
      effectiveOn: state.periodEnd,
      charge: null,
      after: {
        ...state,
        cancelAtPeriodEnd: true,
        cancelReason: action.reason,
        cancelComment: action.comment,
        pending: null,
      },
    };
  }
  if (action.action === 'RESUME') {
    if (!state.cancelAtPeriodEnd) throw refused('NOT_CANCELLED', 'The subscription is not cancelled');
    return {
      effective: 'NOW',
      effectiveOn: today,
      charge: null,
      after: { ...state, cancelAtPeriodEnd: false, cancelReason: null, cancelComment: null },
    };
  }

  const plan = findPlan(plans, action.planCode);
  if (!plan) throw invalidField('planCode', 'is not a plan of the catalogue');
  const seats = checkedSeats(plan, action.seats, seatsInUse);
  const wanted = { planCode: plan.code, billingPeriod: action.billingPeriod, seats };
  const same =
    wanted.planCode === state.planCode &&
    wanted.billingPeriod === state.billingPeriod &&
    wanted.seats === state.seats;
  const base: SubscriptionState = {
    ...state,
    cancelAtPeriodEnd: false,
    cancelReason: null,
    cancelComment: null,
  };
  if (same && !state.pending && !state.cancelAtPeriodEnd)
    throw refused('NO_CHANGE', 'The subscription already has this plan, period and seats');

  // During the trial (whatever plan was chosen in it) nothing is charged before the trial's end.
  if (state.status === 'TRIALING') {
    return {
      effective: 'NOW',
      effectiveOn: today,
      charge: null,
      after: { ...base, ...wanted, pending: null },
    };
  }
  const oldPlan = planOf(plans, state.planCode);
  const fromNothing = state.status === 'CANCELLED' || isFree(oldPlan);
  if (fromNothing) {
    // A paid plan starts a new period today, charged in full; the free plan changes at once for nothing.
    if (isFree(plan))
      return {
        effective: 'NOW',
        effectiveOn: today,
        charge: null,
        after: { ...base, ...wanted, pending: null },
      };
    const end = periodEnd(today, wanted.billingPeriod, Number(today.slice(8, 10)));
    const after: SubscriptionState = {
      ...base,
      ...wanted,
      status: 'ACTIVE',
      periodStart: today,
      periodEnd: end,
      anchorDay: Number(today.slice(8, 10)),
      pending: null,
    };
    const lines = planLines(plan, after, { start: today, end }, today, 1);
    return {
      effective: 'NOW',
      effectiveOn: today,
      charge: charge(lines, state.currency, vatRates, today, end),
      after,
    };
  }
  if (same) {
    // The current plan chosen again: a waiting change (or cancellation) is dropped, nothing else changes.
    return { effective: 'NOW', effectiveOn: today, charge: null, after: { ...base, pending: null } };
  }

  const oldAmount = recurring(state, plans);
  const newAmount = recurring({ ...wanted, currency: state.currency }, plans);
  const shorter = state.billingPeriod === 'YEARLY' && wanted.billingPeriod === 'MONTHLY';
  if (
    shorter ||
    newAmount < oldAmount ||
    (newAmount === oldAmount && wanted.planCode !== state.planCode && plan.rank < oldPlan.rank)
  ) {
    return {
      effective: 'PERIOD_END',
      effectiveOn: state.periodEnd,
      charge: null,
      after: { ...base, pending: wanted },
    };
  }

  const period = { start: state.periodStart, end: state.periodEnd };
  const credit = planLines(oldPlan, state, period, today, -1);
  if (wanted.billingPeriod !== state.billingPeriod) {
    // Monthly to yearly: the unused month is credited and a yearly period starts today.
    const anchorDay = Number(today.slice(8, 10));
    const end = periodEnd(today, wanted.billingPeriod, anchorDay);
    const after: SubscriptionState = {
      ...base,
      ...wanted,
      periodStart: today,
      periodEnd: end,
      anchorDay,
      pending: null,
    };
    const lines = [...credit, ...planLines(plan, after, { start: today, end }, today, 1)];
    return {
      effective: 'NOW',
      effectiveOn: today,
      charge: charge(lines, state.currency, vatRates, today, end),
      after,
    };
  }
  const after: SubscriptionState = { ...base, ...wanted, pending: null };
  const lines = withoutOffsets(credit, planLines(plan, after, period, today, 1));
  return {
    effective: 'NOW',
    effectiveOn: today,
    charge: charge(lines, state.currency, vatRates, today, state.periodEnd),
    after,
  };
}
