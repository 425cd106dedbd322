import type { Db } from '../../db/client.ts';
import type { Invoicing } from '../../invoicing/invoicing.ts';
import { renewal, type Catalogue } from './subscription-plan.ts';
import { SUBSCRIPTION_COLUMNS, saveState, stateOf, type SubscriptionRow } from './subscriptions.service.ts';

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
      for (const row of rows) {
        let state = stateOf(row);
        while (state.periodEnd <= today) {
          const next = renewal(state, catalogue);
          if (next.charge) {
            await invoicing.issue(tx, {
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
        await saveState(tx, row.account_uuid, state);
      }
      return rows.length;
    });
    renewed += claimed;
    if (claimed < batch) return renewed;
  }
}
