import { addDays, todayIn } from '../invoicing/money.ts';
import type { TestApi } from './api.ts';

// Subscription states for tests and benches, written straight into the database (whatever the demo data gave).

export interface StoredSubscription {
  plan: string;
  period: 'MONTHLY' | 'YEARLY';
  seats: number;
  status: 'TRIALING' | 'ACTIVE' | 'CANCELLED';
  start: string;
  end: string;
  currency?: 'CHF' | 'EUR';
}

/** Puts an account's subscription into a known state. */
export async function storeSubscription(api: TestApi, account: string, s: StoredSubscription): Promise<void> {
  await api.db.query('delete from subscriptions where account_uuid = $1', [account]);
  await api.db.query(
    `insert into subscriptions (account_uuid, plan_code, billing_period, currency, seats, status, trial_ends_on,
       current_period_start, current_period_end, billing_anchor_day)
     values ($1, $2, $3, $4, $5, $6, case when $6 = 'TRIALING' then $8::date end, $7, $8, $9)`,
    [
      account,
      s.plan,
      s.period,
      s.currency ?? 'CHF',
      s.seats,
      s.status,
      s.start,
      s.end,
      Number(s.start.slice(8, 10)),
    ],
  );
}

/** Runs the renewal scheduler now, through the job runner, and waits until it is done. */
export async function runRenewals(api: TestApi): Promise<void> {
  await api.db.query(
    `update jobs set run_at = now() where kind = 'subscriptions.renew' and state = 'pending'`,
  );
  await api.app.jobs.drain();
}

/**
 * `count` new Swiss accounts whose Standard subscription (7 seats, monthly) ended today, inserted set-based;
 * returns their ids.
 */
export async function dueAccounts(api: TestApi, count: number, prefix: string): Promise<string[]> {
  const today = todayIn(api.config.billing.timeZone);
  const { rows } = await api.db.query<{ uuid: string }>(
    `insert into accounts (uuid, name, country, preferred_language)
     select gen_random_uuid(), $1 || ' ' || g, 'CH', 'de' from generate_series(1, $2::int) g
     returning uuid`,
    [prefix, count],
  );
  const accounts = rows.map((row) => row.uuid);
  await api.db.query(
    `insert into subscriptions (account_uuid, plan_code, billing_period, currency, seats, status,
       current_period_start, current_period_end, billing_anchor_day)
     select unnest($1::uuid[]), 'STANDARD', 'MONTHLY', 'CHF', 7, 'ACTIVE', $2::date, $3::date, $4`,
    [accounts, addDays(today, -30), today, Number(today.slice(8, 10))],
  );
  return accounts;
}

/** The invoice sequences of each year, in order: gapless numbering makes each 1..n. */
export async function invoiceSequences(api: TestApi): Promise<number[][]> {
  const { rows } = await api.db.query<{ sequences: number[] }>(
    'select array_agg(sequence order by sequence) as sequences from invoices group by year order by year',
  );
  return rows.map((row) => row.sequences);
}
