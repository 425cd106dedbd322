/**
 * The account log at scale, on PostgreSQL (TEST_DATABASE_URL names an admin connection that may create databases):
 * one account with 1,000,000 entries, generated here with generate_series. Measures, through the real app
 * (authentication, access check, SQL, serialisation):
 * - first page and filtered pages (by action, by actor, by a date range): p50 and p99 over 200 requests each
 *   (target p99 ≤ 20 ms);
 * - the CSV export of all 1,000,000 rows over HTTP, read as a stream by another process as a browser would
 *   (compressed): rows per second (target ≥ 50,000) and the peak growth of the server process's resident memory
 *   while it runs, from after a garbage collection, the data generation not included (target ≤ 50 MB).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../demo/users.ts';
import { TestApi, type DemoLogin } from '../test/api.ts';

const ROWS = 1_000_000;
const MUSTER = DEMO_ACCOUNTS.muster;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Brings generated data to the state a database that grew over time is in before a bench measures it: `maintenance`
 * (an analyze, or a vacuum too) and then a checkpoint, so that the pages just written are on disk. Without it, most
 * of the buffer pool was still dirty when the first requests ran (a checkpoint after the directory's 100,000
 * accounts wrote 87 % of it): a read that needs a buffer first writes a dirty one out (and the log up to it), and
 * the checkpoint the generated log started ran through the measurement. The directory's first page, measured first:
 * p99 27 ms, against 9 ms with this, at the same load (decision 260). The checkpoint needs a superuser or the
 * pg_checkpoint role (PostgreSQL 15); without either the bench says so and measures anyway.
 */
export async function settle(api: TestApi, maintenance: string): Promise<void> {
  await api.db.query(maintenance);
  try {
    await api.db.query('checkpoint');
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
    console.log('    (no checkpoint before measuring: the connection may not run CHECKPOINT)');
  }
}

export async function timed(
  api: TestApi,
  url: string,
  as: DemoLogin = 'admin',
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

/** A full garbage collection, so that the memory before a measurement holds no leftovers of the previous one. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * The process's peak resident memory from now on, read when the returned function is called. On Linux the
 * kernel's own high-water mark (VmHWM, reset through /proc/self/clear_refs), which sees every peak; elsewhere
 * samples every 10 ms.
 */
function watchPeakRss(): () => number {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return () => {
      const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
      if (!kb) throw new Error('no VmHWM in /proc/self/status');
      return Number(kb[1]) * 1024;
    };
  } catch {
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    return () => {
      clearInterval(sampler);
      return Math.max(peak, process.memoryUsage().rss);
    };
  }
}

/**
 * CPU seconds the database's server processes for this database spend from now on, read when the returned
 * function is called (Linux /proc, database on this machine; null elsewhere). Processes are listed at both ends:
 * a connection opened in between counts from its start.
 */
async function watchDatabaseCpu(api: TestApi): Promise<() => Promise<number | null>> {
  const ticks = async () => {
    const { rows } = await api.db.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database()',
    );
    const byPid = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (after the name in parentheses).
        const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        byPid.set(pid, Number(fields[11]) + Number(fields[12]));
      } catch {
        return null;
      }
    }
    return byPid;
  };
  const before = await ticks();
  return async () => {
    const after = await ticks();
    if (!before || !after) return null;
    let sum = 0;
    for (const [pid, value] of after) sum += value - (before.get(pid) ?? 0);
    return sum / 100; // USER_HZ is 100 on Linux
  };
}

/** The reading side of the export, run in a child process: counts the CSV rows a browser-like client receives. */
const READER = `
const response = await fetch(process.env.EXPORT_URL, {
  headers: { authorization: 'Bearer ' + process.env.EXPORT_TOKEN, 'accept-encoding': 'gzip, deflate, br' },
});
if (response.status !== 200) throw new Error('export answered ' + response.status);
let newlines = 0;
for await (const chunk of response.body) {
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) newlines += 1;
}
console.log(JSON.stringify({ rows: newlines - 1, encoding: response.headers.get('content-encoding') ?? 'identity' }));
`;

async function readInChild(url: string, token: string): Promise<{ rows: number; encoding: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', READER], {
    env: { ...process.env, EXPORT_URL: url, EXPORT_TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the export reader failed (${code})`);
  return JSON.parse(output) as { rows: number; encoding: string };
}

export interface LogFigures {
  pages: Record<string, { p50: number; p99: number }>;
  csv: {
    rows: number;
    seconds: number;
    rowsPerSecond: number;
    peakRssGrowthMb: number;
    /** How the file came over the wire (Content-Encoding). */
    encoding: string;
    /**
     * The work behind it, which the machine's other load does not change: CPU seconds of the server process and
     * of the database's server processes (null where /proc cannot tell), and the 1-minute load average at the end.
     */
    serverCpuSeconds: number;
    databaseCpuSeconds: number | null;
    loadAverage: number;
  };
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
    await settle(api, 'analyze audit_log');
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

    // The export over real HTTP, read by another process (its memory and work are not the server's) and thrown
    // away. Measured from here on: the server's resident memory, from after a garbage collection to its peak.
    const address = await api.app.listen({ port: 0, host: '127.0.0.1' });
    const token = await api.token('admin');
    collectGarbage();
    const rssBefore = process.memoryUsage().rss;
    const peakRss = watchPeakRss();
    const databaseCpu = await watchDatabaseCpu(api);
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const read = await readInChild(`${address}${base.replace('/entries', '/entries.csv')}`, token);
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const peak = peakRss();
    return {
      pages,
      csv: {
        rows: read.rows,
        seconds,
        rowsPerSecond: read.rows / seconds,
        peakRssGrowthMb: (peak - rssBefore) / 1024 / 1024,
        encoding: read.encoding,
        serverCpuSeconds: (cpu.user + cpu.system) / 1e6,
        databaseCpuSeconds: await databaseCpu(),
        loadAverage: os.loadavg()[0]!,
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
  const perMillion = (cpuSeconds: number) => ((cpuSeconds / csv.rows) * 1e6).toFixed(1);
  console.log(
    `  log CSV export: ${csv.rows.toLocaleString('en')} rows in ${csv.seconds.toFixed(1)} s = ${Math.round(csv.rowsPerSecond).toLocaleString('en')} rows/s (target ≥ 50,000), sent as ${csv.encoding}; the server's peak RSS growth ${csv.peakRssGrowthMb.toFixed(1)} MB (target ≤ 50 MB)`,
  );
  console.log(
    `    CPU per 1,000,000 rows: server ${perMillion(csv.serverCpuSeconds)} s, database ${csv.databaseCpuSeconds === null ? 'n/a' : `${perMillion(csv.databaseCpuSeconds)} s`}; load average ${csv.loadAverage.toFixed(1)} on ${os.availableParallelism()} CPUs`,
  );
}
