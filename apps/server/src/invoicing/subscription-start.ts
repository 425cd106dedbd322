import { TRIAL_DAYS, type Currency, type Plan } from '@portal/contract';
import type { Queryable } from '../db/client.ts';
import { addDays } from './money.ts';
import { findPlan } from './plans.ts';

/** The plan a trial runs on, and the one its first invoice is for unless the account chose another. */
export const TRIAL_PLAN_CODE = 'STANDARD';

/** Swiss accounts pay in francs; every other country in euros. */
export function currencyFor(country: string): Currency {
  return country === 'CH' ? 'CHF' : 'EUR';
}

/** The plan trials run on: Standard, or the lowest paid plan of a catalogue without it. */
export function trialPlan(plans: readonly Plan[]): Plan {
  const paid = [...plans].filter((plan) => plan.prices.CHF.monthlyMinor > 0).sort((a, b) => a.rank - b.rank);
  return findPlan(plans, TRIAL_PLAN_CODE) ?? paid[0] ?? plans[0]!;
}

/** Seats the account uses: accepted members and open invitations (each invitation holds a seat). */
export async function seatsInUse(tx: Queryable, accountUuid: string): Promise<number> {
  const { rows } = await tx.query<{ count: string | number }>(
    `select (select count(*) from account_members where account_uuid = $1 and invitation_status = 'ACCEPTED')
          + (select count(*) from invitations where account_uuid = $1 and status = 'PENDING' and expires_at > now())
            as count`,
    [accountUuid],
  );
  return Number(rows[0]?.count ?? 0);
}

/**
 * Gives an account without a subscription its trial: TRIAL_DAYS from `today` on the trial plan, monthly, in the
 * currency of its country, with the plan's included seats (or its members when more). An account that has a
 * subscription keeps it (insert … on conflict do nothing), so this is safe to call on every read.
 */
export async function startTrial(
  tx: Queryable,
  plans: readonly Plan[],
  accountUuid: string,
  today: string,
): Promise<void> {
  const { rows } = await tx.query<{ country: string }>('select country from accounts where uuid = $1', [
    accountUuid,
  ]);
  const account = rows[0];
  if (!account) return;
  const plan = trialPlan(plans);
  const seats = Math.max(plan.includedSeats, await seatsInUse(tx, accountUuid));
  const trialEnd = addDays(today, TRIAL_DAYS);
  await tx.query(
    `insert into subscriptions (account_uuid, plan_code, billing_period, currency, seats, status, trial_ends_on,
       current_period_start, current_period_end, billing_anchor_day)
     values ($1, $2, 'MONTHLY', $3, $4, 'TRIALING', $5, $6, $5, $7)
     on conflict (account_uuid) do nothing`,
    [
      accountUuid,
      plan.code,
      currencyFor(account.country),
      seats,
      trialEnd,
      today,
      Number(trialEnd.slice(8, 10)),
    ],
  );
}
