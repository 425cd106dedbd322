/**
 * The renewal scheduler at scale, on PostgreSQL (TEST_DATABASE_URL names an admin connection that may create
 * databases): 10,000 accounts whose monthly subscription ended today, generated here, renewed by the
 * 'subscriptions.renew' job through the job runner. Measures the seconds from the job's start until every
 * subscription is in its next period with its invoice issued (target ≤ 60 s), and checks the outcome: one invoice
 * per account, numbers without gaps.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { TestApi } from '../test/api.ts';
import type { ModuleDeps } from '../modules/deps.ts';
import { todayIn } from '../invoicing/money.ts';
import { renewDueSubscriptions } from '../invoicing/subscription-renewal.ts';
import { dueAccounts, invoiceSequences } from '../test/subscriptions.ts';

const ACCOUNTS = 10_000;

export interface SchedulerFigures {
  accounts: number;
  invoices: number;
  seconds: number;
  /** The jobs the invoices queued (one per invoice, its mail), run after. */
  followUpSeconds: number;
  gapless: boolean;
}

export async function measureScheduler(): Promise<SchedulerFigures> {
  const api = new TestApi('postgres');
  // The app's own services, as the job handler gets them, so the renewal is timed without the mails it queues.
  let deps: ModuleDeps | undefined;
  await api.start({ modules: [(given) => void (deps = given)] });
  const { db, invoicing } = deps!;
  const catalogue = { plans: invoicing.config.plans, vatRates: invoicing.config.vatRates };
  try {
    // Owners for the accounts, so each invoice also notifies its admins as a real one does.
    const accounts = await dueAccounts(api, ACCOUNTS, 'Bench');
    await api.db.query(
      `insert into users (uuid, subject, email, name)
       select gen_random_uuid(), 'bench-' || a, 'owner-' || a || '@example.org', 'Owner ' || a
         from unnest($1::uuid[]) a`,
      [accounts],
    );
    await api.db.query(
      `insert into account_members (account_uuid, user_uuid, role, invitation_status, accepted_at)
       select a, u.uuid, 'OWNER', 'ACCEPTED', now()
         from unnest($1::uuid[]) a join users u on u.subject = 'bench-' || a`,
      [accounts],
    );
    await api.db.query('analyze');
    const start = performance.now();
    const renewed = await renewDueSubscriptions(db, invoicing, catalogue, todayIn(invoicing.config.timeZone));
    const seconds = (performance.now() - start) / 1000;
    const followUp = performance.now();
    await api.app.jobs.drain();
    const followUpSeconds = (performance.now() - followUp) / 1000;
    const { rows } = await api.db.query<{ n: number }>(
      `select count(*)::int as n from invoices where reason = 'PERIOD' and account_uuid = any($1::uuid[])`,
      [accounts],
    );
    const sequences = await invoiceSequences(api);
    return {
      accounts: renewed,
      followUpSeconds,
      invoices: rows[0]!.n,
      seconds,
      gapless: sequences.every((year) => year.every((sequence, index) => sequence === index + 1)),
    };
  } finally {
    await api.stop();
  }
}

export function printSchedulerFigures(figures: SchedulerFigures): void {
  console.log(
    `  renewal scheduler on PostgreSQL: ${figures.accounts.toLocaleString('en')} due subscriptions → ${figures.invoices.toLocaleString('en')} invoices in ${figures.seconds.toFixed(1)} s (target ≤ 60 s), numbers ${figures.gapless ? 'without gaps' : 'WITH GAPS'}`,
  );
  console.log(
    `    the jobs they queued (one per invoice, its mail) ran after in ${figures.followUpSeconds.toFixed(1)} s`,
  );
}

// `tsx apps/server/src/bench/subscriptions.bench.ts` runs this scenario alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printSchedulerFigures(await measureScheduler());
  process.exit(0);
}
