import { randomUUID } from 'node:crypto';
import {
  costlierThanStaying,
  type ConfirmSubscriptionBody,
  type PlanCatalogue,
  type Subscription,
  type SubscriptionAction,
  type SubscriptionPreview,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { HttpError } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import type { Invoicing } from '../../invoicing/invoicing.ts';
import { seatsInUse, startTrial } from '../../invoicing/subscription-start.ts';
import {
  planAction,
  renewal,
  type Catalogue,
  type PlannedAction,
  type SubscriptionState,
} from '../../invoicing/subscription-plan.ts';
import {
  SUBSCRIPTION_COLUMNS,
  saveStates,
  stateOf,
  type SubscriptionRow,
} from '../../invoicing/subscription-renewal.ts';

export interface SubscriptionContext {
  catalogue: Catalogue;
  /** Today in the provider's time zone. */
  today: string;
}

/**
 * The account's subscription row, created first for an account that has none (one made before subscriptions
 * existed starts its trial on first read); `lock` holds it until the transaction ends.
 */
async function loadRow(
  tx: Queryable,
  accountUuid: string,
  context: SubscriptionContext,
  lock: boolean,
): Promise<SubscriptionRow> {
  const select = `select ${SUBSCRIPTION_COLUMNS} from subscriptions where account_uuid = $1${lock ? ' for update' : ''}`;
  let { rows } = await tx.query<SubscriptionRow>(select, [accountUuid]);
  if (!rows[0]) {
    await startTrial(tx, context.catalogue.plans, accountUuid, context.today);
    ({ rows } = await tx.query<SubscriptionRow>(select, [accountUuid]));
  }
  if (!rows[0]) throw new Error(`account ${accountUuid} has no subscription`);
  return rows[0];
}

/** An ACTIVE subscription is PAST_DUE while one of the account's invoices is overdue (read, never stored). */
async function isPastDue(tx: Queryable, accountUuid: string, today: string): Promise<boolean> {
  const { rows } = await tx.query(
    `select 1 from invoices
      where account_uuid = $1 and kind = 'INVOICE'
        and (status = 'OVERDUE' or (status = 'OPEN' and due_on < $2::date)) limit 1`,
    [accountUuid, today],
  );
  return rows.length > 0;
}

/** The answer's shape: the stored state, the seats in use, the derived status and the next renewal's invoice. */
function present(
  state: SubscriptionState,
  extra: { seatsInUse: number; pastDue: boolean; updatedAt: Date },
  catalogue: Catalogue,
): Subscription {
  const next = renewal(state, catalogue);
  return {
    planCode: state.planCode,
    billingPeriod: state.billingPeriod,
    currency: state.currency,
    seats: state.seats,
    seatsInUse: extra.seatsInUse,
    status: state.status === 'ACTIVE' && extra.pastDue ? 'PAST_DUE' : state.status,
    trialEndsOn: state.trialEndsOn,
    currentPeriodStart: state.periodStart,
    currentPeriodEnd: state.periodEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    cancelReason: state.cancelReason as Subscription['cancelReason'],
    pendingChange: state.pending ? { ...state.pending, effectiveOn: state.periodEnd } : null,
    upcoming: next.charge
      ? { issuedOn: state.periodEnd, lines: next.charge.lines, totals: next.charge.totals }
      : null,
    updatedAt: extra.updatedAt.toISOString(),
  };
}

export function listPlans(catalogue: Catalogue): PlanCatalogue {
  return { plans: [...catalogue.plans].sort((a, b) => a.rank - b.rank) };
}

async function load(tx: Queryable, accountUuid: string, context: SubscriptionContext, lock: boolean) {
  const row = await loadRow(tx, accountUuid, context, lock);
  const state = stateOf(row);
  const extra = {
    seatsInUse: await seatsInUse(tx, accountUuid),
    pastDue: await isPastDue(tx, accountUuid, context.today),
    updatedAt: row.updated_at,
  };
  return { state, extra };
}

export function getSubscription(
  db: Db,
  access: AccountAccess,
  context: SubscriptionContext,
): Promise<Subscription> {
  return db.transaction(async (tx) => {
    const { state, extra } = await load(tx, access.accountUuid, context, false);
    return present(state, extra, context.catalogue);
  });
}

function previewOf(
  state: SubscriptionState,
  action: SubscriptionAction,
  planned: PlannedAction,
  extra: { seatsInUse: number; pastDue: boolean; updatedAt: Date },
  catalogue: Catalogue,
): SubscriptionPreview {
  const next = renewal(planned.after, catalogue);
  const wanted = planned.after.pending ?? planned.after;
  // Staying is a price only for a paid subscription that runs on (not cancelled, not on the free plan).
  const staying = action.action === 'CHANGE' && state.status !== 'CANCELLED';
  return {
    effective: planned.effective,
    effectiveOn: planned.effectiveOn,
    charge: planned.charge ? { lines: planned.charge.lines, totals: planned.charge.totals } : null,
    recurring: next.charge ? { from: planned.after.periodEnd, totals: next.charge.totals } : null,
    costsMoreThanStaying: staying
      ? costlierThanStaying(catalogue.plans, state.currency, state, wanted)
      : null,
    subscription: present(planned.after, extra, catalogue),
  };
}

/** What an action would do; changes nothing (a subscription row missing is created, as on any read). */
export function previewSubscription(
  db: Db,
  access: AccountAccess,
  action: SubscriptionAction,
  context: SubscriptionContext,
): Promise<SubscriptionPreview> {
  return db.transaction(async (tx) => {
    const { state, extra } = await load(tx, access.accountUuid, context, false);
    const planned = planAction(state, action, context.today, context.catalogue, extra.seatsInUse);
    return previewOf(state, action, planned, { ...extra, updatedAt: new Date() }, context.catalogue);
  });
}

const AUDIT_ACTIONS = {
  CHANGE: 'subscription.change',
  CANCEL: 'subscription.cancel',
  RESUME: 'subscription.resume',
} as const;

/** The part of a subscription an audit entry shows before and after an action. */
function audited(state: SubscriptionState) {
  return {
    planCode: state.planCode,
    billingPeriod: state.billingPeriod,
    seats: state.seats,
    status: state.status,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    cancelReason: state.cancelReason,
    pendingChange: state.pending,
  };
}

/**
 * Does a previewed action: recomputed with the row locked, refused (409 PREVIEW_OUTDATED, nothing changed) when
 * what it charges now differs from the previewed total; otherwise saved, its charge invoiced and the action
 * logged, all in one transaction.
 */
export function confirmSubscription(
  db: Db,
  invoicing: Invoicing,
  user: PortalUser,
  access: AccountAccess,
  body: ConfirmSubscriptionBody,
  context: SubscriptionContext,
): Promise<{ subscription: Subscription; chargeInvoiceUuid: string | null }> {
  const { accountUuid } = access;
  return db.transaction(async (tx) => {
    const { state, extra } = await load(tx, accountUuid, context, true);
    const planned = planAction(state, body.action, context.today, context.catalogue, extra.seatsInUse);
    const chargeMinor = planned.charge?.totals.totalMinor ?? 0;
    if (chargeMinor !== body.expectedChargeMinor) {
      throw new HttpError(
        409,
        'PREVIEW_OUTDATED',
        `The charge is now ${chargeMinor}, not ${body.expectedChargeMinor}: preview the change again`,
      );
    }
    await saveStates(tx, [{ accountUuid, state: planned.after }]);
    let chargeInvoiceUuid: string | null = null;
    if (planned.charge) {
      const issued = await invoicing.issue(tx, {
        accountUuid,
        reason: 'CHANGE',
        sourceKey: `change:${randomUUID()}`,
        currency: planned.after.currency,
        lines: planned.charge.lines,
        periodStart: planned.charge.periodStart,
        periodEnd: planned.charge.periodEnd,
        issuedOn: context.today,
      });
      chargeInvoiceUuid = issued.uuid;
    }
    await writeAudit(tx, {
      accountUuid,
      actor: user,
      action: AUDIT_ACTIONS[body.action.action],
      target: `subscription:${accountUuid}`,
      before: audited(state),
      after: { ...audited(planned.after), chargedMinor: chargeMinor },
    });
    const saved = await load(tx, accountUuid, context, false);
    return { subscription: present(saved.state, saved.extra, context.catalogue), chargeInvoiceUuid };
  });
}
