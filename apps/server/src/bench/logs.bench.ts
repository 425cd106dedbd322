/**
 * The account log at scale, on PostgreSQL (TEST_DATABASE_URL names an admin connection that may create databases):
 * one account with 1,000,000 entries, generated here with generate_series. Measures, through the real app
 * (authentication, access check, SQL, serialisation):
 * - first page and filtered pages (by action, by actor, by a date range): p50 and p99 over 200 requests each
 *   (target p99 ≤ 20 ms);
 * - the CSV export of all 1,000,000 rows over HTTP, read as a stream: rows per second (target ≥ 50,000) and the
 *   peak growth of the process's resident memory while it runs (target ≤ 50 MB).
 */
import { performance } from 'node:perf_hooks';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../db/demo-users.ts';
import { TestApi } from '../test/api.ts';

const ROWS = 1_000_000;
const MUSTER = DEMO_ACCOUNTS.muster;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function timed(
  api: TestApi,
  url: string,
  as: 'admin' | 'employee' = 'admin',
  runs = 200,
): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  const token = await api.token(as);
  for (let i = 0; i < runs + 20; i += 1) {
    const start = performance.now();
    const res = await api.request('GET', url, { token });
    const elapsed = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    if (i >= 20) times.push(elapsed); // the first requests warm caches and the JIT
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

export interface LogFigures {
  pages: Record<string, { p50: number; p99: number }>;
  csv: { rows: number; seconds: number; rowsPerSecond: number; peakRssGrowthMb: number };
}

export async function measureLogs(): Promise<LogFigures> {
  const api = new TestApi('postgres');
  await api.start();
  try {
    // Actors and actions as a busy account has them; one entry every 30 s back from now (about a year).
    await api.db.query(
      `insert into audit_log (account_uuid, actor_uuid, client_address, user_agent, action, target, before, after, created_at)
       select $1::uuid, (array[$2, $3, $4, $5]::uuid[])[1 + g % 4], '203.0.113.' || (g % 250),
              'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
              (array['account.update', 'member.role.change', 'company.update', 'invitation.accept', 'member.invite',
                     'support.access', 'account.terms.accept'])[1 + g % 7],
              'user:' || $4, jsonb_build_object('name', 'Before ' || g), jsonb_build_object('name', 'After ' || g),
              now() - make_interval(secs => g * 30)
         from generate_series(1, ${ROWS}) g`,
      [MUSTER, DEMO_USERS.owner.id, DEMO_USERS.admin.id, DEMO_USERS.employee.id, DEMO_USERS.coach.id],
    );
    await api.db.query('analyze audit_log');
    const base = `/api/accounts/${MUSTER}/logs/v1/entries`;
    const from = new Date(Date.now() - 200 * 86_400_000).toISOString();
    const to = new Date(Date.now() - 100 * 86_400_000).toISOString();
    const firstPage = await api.request('GET', `${base}?pageSize=50`, { as: 'admin' });
    const cursor = firstPage.json<{ meta: { nextCursor: string } }>().meta.nextCursor;
    const pages = {
      'first page': await timed(api, `${base}`),
      'next page (cursor)': await timed(api, `${base}?cursor=${cursor}`),
      'filter: action': await timed(api, `${base}?action=support.access`),
      'filter: actor': await timed(api, `${base}?actor=${DEMO_USERS.coach.id}`),
      'filter: date range': await timed(api, `${base}?from=${from}&to=${to}`),
      'filter: actor + action + range': await timed(
        api,
        `${base}?actor=${DEMO_USERS.admin.id}&action=member.role.change&from=${from}&to=${to}`,
      ),
      'employee (own entries)': await timed(api, base, 'employee'),
    };

    // The export over real HTTP, read as a stream and thrown away.
    const address = await api.app.listen({ port: 0, host: '127.0.0.1' });
    const token = await api.token('admin');
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const start = performance.now();
    const response = await fetch(`${address}${base.replace('/entries', '/entries.csv')}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    let newlines = 0;
    for await (const chunk of response.body!) {
      const bytes = Buffer.from(chunk as Uint8Array);
      for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) newlines += 1;
    }
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const rows = newlines - 1;
    return {
      pages,
      csv: {
        rows,
        seconds,
        rowsPerSecond: rows / seconds,
        peakRssGrowthMb: (peak - rssBefore) / 1024 / 1024,
      },
    };
  } finally {
    await api.stop();
  }
}

export function printLogFigures(figures: LogFigures): void {
  console.log(`  account log, ${ROWS.toLocaleString('en')} entries on PostgreSQL (target p99 ≤ 20 ms):`);
  for (const [name, { p50, p99 }] of Object.entries(figures.pages)) {
    console.log(`    ${name.padEnd(32)} p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
  }
  const { csv } = figures;
  console.log(
    `  log CSV export: ${csv.rows.toLocaleString('en')} rows in ${csv.seconds.toFixed(1)} s = ${Math.round(csv.rowsPerSecond).toLocaleString('en')} rows/s (target ≥ 50,000), peak RSS growth ${csv.peakRssGrowthMb.toFixed(1)} MB (target ≤ 50 MB)`,
  );
}
