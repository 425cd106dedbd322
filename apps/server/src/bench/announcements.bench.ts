/**
 * An announcement to everyone, on PostgreSQL (TEST_DATABASE_URL names an admin connection that may create
 * databases): 10,000 accounts with 5 people each (an owner, an admin, three employees), generated here; portal-admin@
 * publishes a maintenance to all accounts and the jobs runner fans it out in batches. Measures the seconds from the
 * publication until every person has it in their inbox (target ≤ 60 s) and, meanwhile, the p99 of the API as people
 * use it (the person's record and their unread count, one request after the other). The mails to the owners that
 * the maintenance queues run after, timed apart. BENCH_ANNOUNCEMENT_ACCOUNTS sets a smaller size for a quick check.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { TestApi } from '../test/api.ts';
import { DEMO_ACCOUNTS } from '../demo/users.ts';

const ACCOUNTS = Number(process.env.BENCH_ANNOUNCEMENT_ACCOUNTS ?? 10_000);
const PEOPLE_PER_ACCOUNT = 5;

export interface AnnouncementFigures {
  accounts: number;
  recipients: number;
  seconds: number;
  requests: number;
  p50: number;
  p99: number;
  mailSeconds: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

export async function measureAnnouncement(): Promise<AnnouncementFigures> {
  const api = new TestApi('postgres');
  await api.start();
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
    // Warm the token cache and the statements once, as a browser that is already open.
    await api.request('GET', '/api/users/v1/me', { as: 'owner' });

    const start = performance.now();
    await api.request('POST', `/api/announcements/v1/announcements/${uuid}/publication`, {
      as: 'portalAdmin',
    });
    let done = false;
    let seconds = NaN;
    const draining = api.app.jobs.drain();
    const watching = (async () => {
      while (!done) {
        const { rows } = await api.db.query<{ fanned_out_at: Date | null }>(
          'select fanned_out_at from announcements where uuid = $1',
          [uuid],
        );
        if (rows[0]?.fanned_out_at) {
          seconds = (performance.now() - start) / 1000;
          done = true;
        } else await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const latencies: number[] = [];
    const using = (async () => {
      const paths = [
        '/api/users/v1/me',
        `/api/accounts/${DEMO_ACCOUNTS.muster}/notifications/v1/unread-count`,
      ];
      for (let i = 0; !done; i += 1) {
        const t = performance.now();
        const res = await api.request('GET', paths[i % paths.length]!, { as: 'owner' });
        latencies.push(performance.now() - t);
        if (res.statusCode !== 200) throw new Error(`API answered ${res.statusCode}`);
      }
    })();
    await Promise.all([watching, using]);
    const mailStart = performance.now();
    await draining;
    const mailSeconds = (performance.now() - mailStart) / 1000;
    const { rows } = await api.db.query<{ n: number }>(
      `select count(*)::int as n from notifications
        where type = 'announcement.published' and params ->> 'announcementUuid' = $1`,
      [uuid],
    );
    if (rows[0]!.n !== recipients) throw new Error(`${rows[0]!.n} inboxes of ${recipients} have it`);
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      accounts: ACCOUNTS,
      recipients,
      seconds,
      requests: latencies.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      mailSeconds,
    };
  } finally {
    await api.stop();
  }
}

export function printAnnouncementFigures(figures: AnnouncementFigures): void {
  console.log(
    `  announcement to all on PostgreSQL: ${figures.accounts.toLocaleString('en')} accounts, ${figures.recipients.toLocaleString('en')} people → every inbox has it in ${figures.seconds.toFixed(1)} s (target ≤ 60 s)`,
  );
  console.log(
    `    the API meanwhile (${figures.requests} requests, me and unread count): p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms; the owners' mails ran after in ${figures.mailSeconds.toFixed(1)} s`,
  );
}

// `tsx apps/server/src/bench/announcements.bench.ts` runs this scenario alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printAnnouncementFigures(await measureAnnouncement());
  process.exit(0);
}
