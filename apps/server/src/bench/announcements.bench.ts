/**
 * An announcement to everyone, on PostgreSQL (TEST_DATABASE_URL names an admin connection that may create
 * databases): 10,000 accounts with 5 people each (an owner, an admin, three employees), generated here; portal-admin@
 * publishes a maintenance to all accounts and the jobs runner fans it out in batches. Measures the seconds from the
 * publication until every person has it in their inbox (target ≤ 60 s), then until the owners' mails it queued are
 * out, and all along the API as people use it: a steady read load of the pages they open (their record, accounts,
 * the bar, inbox and its badge, invoices, members, subscription) at BENCH_ANNOUNCEMENT_RPS requests a second (default
 * 40), each timed from when it was due, not when it was sent (a slow answer does not thin out the load it meets).
 * Its p50/p99 are reported for a quiet stretch before, the fan-out and the mails. The whole scenario runs twice on
 * fresh databases, without the runner's per-kind limits and with them (KIND_LIMITS, decision 251), so the two compare
 * in the same conditions. BENCH_ANNOUNCEMENT_ACCOUNTS sets a smaller size for a quick check.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { TestApi } from '../test/api.ts';
import { DEMO_ACCOUNTS } from '../demo/users.ts';

const ACCOUNTS = Number(process.env.BENCH_ANNOUNCEMENT_ACCOUNTS ?? 10_000);
const PEOPLE_PER_ACCOUNT = 5;

/** The API's latencies over one stretch of the scenario. */
export interface Latencies {
  requests: number;
  p50: number;
  p99: number;
}

export interface AnnouncementRun {
  /** Whether the runner's per-kind limits applied. */
  limits: boolean;
  /** Seconds from the publication until every inbox has it. */
  seconds: number;
  /** Seconds from then until the owners' mails are out (the queue is empty). */
  mailSeconds: number;
  /** The 1-minute load average when the publication started. */
  load: number;
  quiet: Latencies;
  fanout: Latencies;
  mails: Latencies;
}

export interface AnnouncementFigures {
  accounts: number;
  recipients: number;
  rps: number;
  runs: AnnouncementRun[];
}

const RPS = Number(process.env.BENCH_ANNOUNCEMENT_RPS ?? 40);
/** The quiet stretch before the publication, for comparison, after a warm-up that is not counted. */
const QUIET_MS = 10_000;
const WARM_UP_MS = 3_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  return { requests: values.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/**
 * The reads of the pages a signed-in person opens, one every 1/RPS s in turn, each timed from when it was due; the
 * latencies go to whichever stretch `stretch()` names when the request was due.
 */
function steadyReads(api: TestApi, token: string, stretch: () => string) {
  const account = `/api/accounts/${DEMO_ACCOUNTS.muster}`;
  const paths = [
    '/api/users/v1/me',
    '/api/users/v1/me/accounts',
    '/api/announcements/v1/current',
    `${account}/notifications/v1/unread-count`,
    `${account}/notifications/v1/notifications`,
    `${account}/billing/v1/invoices`,
    `${account}/members/v1/members`,
    `${account}/subscriptions/v1/subscription`,
  ];
  const measured = new Map<string, number[]>();
  const inFlight = new Set<Promise<void>>();
  let failure: Error | undefined;
  let stopped = false;
  const interval = 1000 / RPS;
  const first = performance.now();
  const running = (async () => {
    for (let i = 0; !stopped; i += 1) {
      const due = first + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const into = stretch();
      const path = paths[i % paths.length]!;
      const request = api
        .request('GET', path, { token })
        .then((res) => {
          if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}`);
          const list = measured.get(into) ?? [];
          list.push(performance.now() - due);
          measured.set(into, list);
        })
        .catch((error: unknown) => void (failure ??= error as Error))
        .finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
  })();
  return {
    async stop(): Promise<Map<string, number[]>> {
      stopped = true;
      await running;
      await Promise.all(inFlight);
      if (failure) throw failure;
      return measured;
    },
  };
}

async function runOnce(limits: boolean): Promise<AnnouncementRun & { recipients: number }> {
  const api = new TestApi('postgres');
  await api.start(limits ? {} : { jobs: { kindLimits: {} } });
  try {
    await api.db.query(
      `insert into accounts (uuid, name, country)
       select ('6f1c2b1e-0b00-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'Bench ' || i, 'CH'
         from generate_series(1, $1::int) i`,
      [ACCOUNTS],
    );
    await api.db.query(
      `insert into users (uuid, subject, email, name)
       select ('6f1c2b1e-0b01-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'bench-' || i,
              'person-' || i || '@bench.example', 'Person ' || i
         from generate_series(1, $1::int) i`,
      [ACCOUNTS * PEOPLE_PER_ACCOUNT],
    );
    await api.db.query(
      `insert into account_members (account_uuid, user_uuid, role, invitation_status, accepted_at)
       select ('6f1c2b1e-0b00-4000-8000-' || lpad(to_hex((i - 1) / $2 + 1), 12, '0'))::uuid,
              ('6f1c2b1e-0b01-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid,
              case (i - 1) % $2 when 0 then 'OWNER' when 1 then 'ADMIN' else 'EMPLOYEE' end, 'ACCEPTED', now()
         from generate_series(1, $1::int) i`,
      [ACCOUNTS * PEOPLE_PER_ACCOUNT, PEOPLE_PER_ACCOUNT],
    );
    await api.db.query('analyze');
    const { rows: audience } = await api.db.query<{ n: number }>(
      `select count(distinct user_uuid)::int as n from account_members where invitation_status = 'ACCEPTED'`,
    );
    const recipients = audience[0]!.n;

    const created = await api.request('POST', '/api/announcements/v1/announcements', {
      as: 'portalAdmin',
      body: {
        kind: 'maintenance',
        title: { de: 'Wartung (Bench)' },
        body: { de: 'Bench' },
        audience: 'all',
        audienceValues: [],
        roles: 'everyone',
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: null,
      },
    });
    const uuid = created.json<{ data: { uuid: string } }>().data.uuid;
    // One token for the whole run, as a browser that is signed in: signing one per request would be timed too.
    const token = await api.token('owner', { expiresIn: 3600 });

    let stretch: 'warm-up' | 'quiet' | 'fanout' | 'mails' = 'warm-up';
    const reads = steadyReads(api, token, () => stretch);
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
    stretch = 'quiet';
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));

    const load = loadavg()[0]!;
    const start = performance.now();
    stretch = 'fanout';
    await api.request('POST', `/api/announcements/v1/announcements/${uuid}/publication`, {
      as: 'portalAdmin',
    });
    const draining = api.app.jobs.drain();
    for (;;) {
      const { rows } = await api.db.query<{ fanned_out_at: Date | null }>(
        'select fanned_out_at from announcements where uuid = $1',
        [uuid],
      );
      if (rows[0]?.fanned_out_at) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - start) / 1000;
    stretch = 'mails';
    const mailStart = performance.now();
    await draining;
    const mailSeconds = (performance.now() - mailStart) / 1000;
    const measured = await reads.stop();

    const { rows } = await api.db.query<{ n: number }>(
      `select count(*)::int as n from notifications
        where type = 'announcement.published' and params ->> 'announcementUuid' = $1`,
      [uuid],
    );
    if (rows[0]!.n !== recipients) throw new Error(`${rows[0]!.n} inboxes of ${recipients} have it`);
    const { rows: mails } = await api.db.query<{ n: number }>('select count(*)::int as n from mail_outbox');
    if (mails[0]!.n < ACCOUNTS) throw new Error(`${mails[0]!.n} mails of ${ACCOUNTS} owners are out`);
    return {
      limits,
      recipients,
      seconds,
      mailSeconds,
      load,
      quiet: latencies(measured.get('quiet') ?? []),
      fanout: latencies(measured.get('fanout') ?? []),
      mails: latencies(measured.get('mails') ?? []),
    };
  } finally {
    await api.stop();
  }
}

export async function measureAnnouncement(): Promise<AnnouncementFigures> {
  const runs: AnnouncementRun[] = [];
  let recipients = 0;
  for (const limits of [false, true]) {
    const { recipients: n, ...run } = await runOnce(limits);
    recipients = n;
    runs.push(run);
  }
  return { accounts: ACCOUNTS, recipients, rps: RPS, runs };
}

export function printAnnouncementFigures(figures: AnnouncementFigures): void {
  console.log(
    `  announcement to all on PostgreSQL: ${figures.accounts.toLocaleString('en')} accounts, ${figures.recipients.toLocaleString('en')} people; the API under ${figures.rps} page reads a second meanwhile`,
  );
  const ms = (l: Latencies) => `p50 ${l.p50.toFixed(1)} / p99 ${l.p99.toFixed(1)} ms over ${l.requests}`;
  for (const run of figures.runs) {
    console.log(
      `    ${run.limits ? 'with the per-kind limits' : 'without per-kind limits'} (load ${run.load.toFixed(1)}): every inbox has it in ${run.seconds.toFixed(1)} s (target ≤ 60 s), the owners' mails out ${run.mailSeconds.toFixed(1)} s later`,
    );
    console.log(
      `      API quiet before: ${ms(run.quiet)}; during the fan-out: ${ms(run.fanout)}; during the mails: ${ms(run.mails)}`,
    );
  }
}

// `tsx apps/server/src/bench/announcements.bench.ts` runs this scenario alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printAnnouncementFigures(await measureAnnouncement());
  process.exit(0);
}
