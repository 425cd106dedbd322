import type { Db, Queryable } from '../db/client.ts';
import type { IssueInvoiceInput, Invoicing } from './invoicing.ts';
import { renewal, type Catalogue, type SubscriptionState } from './subscription-plan.ts';

// Subscriptions as stored, and their renewal at the period's end (the scheduler of the subscriptions area runs it).

export interface SubscriptionRow {
  plan_code: string;
  billing_period: SubscriptionState['billingPeriod'];
  currency: SubscriptionState['currency'];
  seats: number;
  status: SubscriptionState['status'];
  trial_ends_on: string | null;
  current_period_start: string;
  current_period_end: string;
  billing_anchor_day: number;
  cancel_at_period_end: boolean;
  cancel_reason: string | null;
  cancel_comment: string | null;
  pending_plan_code: string | null;
  pending_billing_period: SubscriptionState['billingPeriod'] | null;
  pending_seats: number | null;
  updated_at: Date;
}

export const SUBSCRIPTION_COLUMNS = `plan_code, billing_period, currency, seats, status, trial_ends_on::text,
  current_period_start::text, current_period_end::text, billing_anchor_day, cancel_at_period_end, cancel_reason,
  cancel_comment, pending_plan_code, pending_billing_period, pending_seats, updated_at`;

export function stateOf(row: SubscriptionRow): SubscriptionState {
  return {
    planCode: row.plan_code,
    billingPeriod: row.billing_period,
    currency: row.currency,
    seats: row.seats,
    status: row.status,
    trialEndsOn: row.trial_ends_on,
    periodStart: row.current_period_start,
    periodEnd: row.current_period_end,
    anchorDay: row.billing_anchor_day,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    cancelReason: row.cancel_reason,
    cancelComment: row.cancel_comment,
    pending:
      row.pending_plan_code && row.pending_billing_period && row.pending_seats
        ? {
            planCode: row.pending_plan_code,
            billingPeriod: row.pending_billing_period,
            seats: row.pending_seats,
          }
        : null,
  };
}

/** Writes subscriptions' states back (the rows exist: they were read, and locked, before), in one statement. */
export async function saveStates(
  tx: Queryable,
  states: { accountUuid: string; state: SubscriptionState }[],
): Promise<void> {
  if (states.length === 0) return;
  const rows = states.map(({ accountUuid, state }) => ({
    account_uuid: accountUuid,
    plan_code: state.planCode,
    billing_period: state.billingPeriod,
    seats: state.seats,
    status: state.status,
    current_period_start: state.periodStart,
    current_period_end: state.periodEnd,
    billing_anchor_day: state.anchorDay,
    cancel_at_period_end: state.cancelAtPeriodEnd,
    cancel_reason: state.cancelReason,
    cancel_comment: state.cancelComment,
    pending_plan_code: state.pending?.planCode ?? null,
    pending_billing_period: state.pending?.billingPeriod ?? null,
    pending_seats: state.pending?.seats ?? null,
  }));
  await tx.query(
    `update subscriptions s set plan_code = r.plan_code, billing_period = r.billing_period, seats = r.seats,
       status = r.status, current_period_start = r.current_period_start, current_period_end = r.current_period_end,
       billing_anchor_day = r.billing_anchor_day, cancel_at_period_end = r.cancel_at_period_end,
       cancel_reason = r.cancel_reason, cancel_comment = r.cancel_comment, pending_plan_code = r.pending_plan_code,
       pending_billing_period = r.pending_billing_period, pending_seats = r.pending_seats, updated_at = now()
     from jsonb_to_recordset($1::jsonb) as r (account_uuid uuid, plan_code text, billing_period text, seats integer,
       status text, current_period_start date, current_period_end date, billing_anchor_day smallint,
       cancel_at_period_end boolean, cancel_reason text, cancel_comment text, pending_plan_code text,
       pending_billing_period text, pending_seats integer)
     where s.account_uuid = r.account_uuid`,
    [JSON.stringify(rows)],
  );
}

/** Subscriptions renewed per transaction: large enough to be quick, small enough to hold few locks briefly. */
export const RENEWAL_BATCH = 200;

/**
 * Renews every subscription whose period ended by `today`: claims a batch (`for update skip locked`, so two
 * instances never take the same one), moves each to its next period (a waiting change, cancellation or the trial's
 * end takes effect) and issues that period's invoice with the key 'period:<start>', in one transaction per batch,
 * so a subscription is never advanced without its invoice nor invoiced twice. A subscription several periods
 * behind (the server was down) catches up period by period. Returns the number of subscriptions renewed.
 */
export async function renewDueSubscriptions(
  db: Db,
  invoicing: Invoicing,
  catalogue: Catalogue,
  today: string,
  batch = RENEWAL_BATCH,
): Promise<number> {
  let renewed = 0;
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      const { rows } = await tx.query<SubscriptionRow & { account_uuid: string }>(
        `select account_uuid, ${SUBSCRIPTION_COLUMNS} from subscriptions where current_period_end <= $1::date
          order by current_period_end, account_uuid limit $2 for update skip locked`,
        [today, batch],
      );
      const saved: { accountUuid: string; state: SubscriptionState }[] = [];
      const invoices: IssueInvoiceInput[] = [];
      for (const row of rows) {
        let state = stateOf(row);
        while (state.periodEnd <= today) {
          const next = renewal(state, catalogue);
          if (next.charge) {
            invoices.push({
              accountUuid: row.account_uuid,
              reason: 'PERIOD',
              sourceKey: `period:${next.after.periodStart}`,
              currency: next.after.currency,
              lines: next.charge.lines,
              periodStart: next.charge.periodStart,
              periodEnd: next.charge.periodEnd,
              issuedOn: today,
            });
          }
          state = next.after;
        }
        saved.push({ accountUuid: row.account_uuid, state });
      }
      await invoicing.issueMany(tx, invoices);
      await saveStates(tx, saved);
      return rows.length;
    });
    renewed += claimed;
    if (claimed < batch) return renewed;
  }
}
