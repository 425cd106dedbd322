/**
 * `npm run bench -- soak`: memory over time (issue 25 item 6). The built server (`node apps/server/dist/server.js`, as
 * `npm run start:server` starts it) on a data folder of its own (PGlite) and, when TEST_DATABASE_URL names a
 * PostgreSQL user that may create databases, on a database of its own, each for BENCH_SOAK_MINUTES (default 30)
 * under a steady mix: CLIENTS signed-in people, each in a loop of its areas' API reads (dashboard, invoices with an
 * invoice's PDF, members, the account log and its CSV export, company, subscription, support, inbox, lessons,
 * security), some writes (a notification read and unread, the notification preferences saved, a reply on a
 * ticket), a live notification stream open all the time and reopened every minute (a reload), the access token
 * refreshed every 4 minutes and a whole new sign-in (the provider's code flow) every 7. Every SAMPLE_SECONDS the
 * server's resident memory (/proc/<pid>/status) and V8 heap in use (/metrics, loopback) are read.
 *
 * Reported per backend: requests, errors, sign-ins; per minute p50/p99 latency of the API requests, errors, and the
 * memory at the minute's end; resident memory and heap at the start, the end and their maximum; their slope per hour
 * after the warm-up (least squares over the samples after min(5 min, a third of the run)) and the growth after the
 * warm-up along that line, against the issue's target of < 10 %. The verdict: memory grows when either grows by
 * 10 % or more after the warm-up.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { request as playwrightRequest } from '@playwright/test';
import { DEMO, DEMO_ACCOUNTS, signInTokens, withPostgres } from '../fixtures.ts';
import { startBuilt, type BuiltServer } from './built-server.ts';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
const SAMPLE_SECONDS = Number(process.env.BENCH_SOAK_SAMPLE_SECONDS ?? 10);
/** Signed-in people at once, each with one request in flight at a time and a pause between (a person clicking). */
const CLIENTS: { login: keyof typeof DEMO; account: keyof typeof DEMO_ACCOUNTS }[] = [
  { login: 'owner', account: 'muster' },
  { login: 'owner', account: 'muster' },
  { login: 'admin', account: 'muster' },
  { login: 'admin', account: 'muster' },
  { login: 'inhaber', account: 'beispiel' },
  { login: 'employee', account: 'muster' },
];
const THINK_MS = 100;
const REFRESH_MS = 4 * 60_000;
const SIGN_IN_MS = 7 * 60_000;
const STREAM_REOPEN_MS = 60_000;
const TARGET_GROWTH = 0.1;

interface Sample {
  /** Seconds since the load began. */
  at: number;
  rss: number;
  heap: number;
}

interface Minute {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  rss: number;
  heap: number;
}

interface Trend {
  start: number;
  end: number;
  max: number;
  /** Bytes per hour after the warm-up (least squares). */
  slopePerHour: number;
  /** Growth along the fitted line from the warm-up's end to the run's end, as a fraction of its value then. */
  growth: number;
}

interface SoakFigures {
  backend: 'PGlite' | 'PostgreSQL';
  minutes: number;
  warmUpMinutes: number;
  readyMs: number;
  requests: number;
  errors: number;
  firstErrors: string[];
  signIns: { count: number; p50: number; p99: number };
  streams: { opened: number; failed: number; events: number };
  perMinute: Minute[];
  rss: Trend;
  heap: Trend;
  samples: number;
  /** Operations a client dropped at the start because its role may not use them (403), by client. */
  dropped: string[];
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function trend(samples: Sample[], pick: (sample: Sample) => number, warmUpSeconds: number): Trend {
  const values = samples.map(pick);
  const after = samples.filter((sample) => sample.at >= warmUpSeconds);
  const n = after.length;
  const meanX = after.reduce((sum, s) => sum + s.at, 0) / n;
  const meanY = after.reduce((sum, s) => sum + pick(s), 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const sample of after) {
    sxy += (sample.at - meanX) * (pick(sample) - meanY);
    sxx += (sample.at - meanX) ** 2;
  }
  const slope = sxx > 0 ? sxy / sxx : 0; // bytes per second
  const first = after[0]?.at ?? 0;
  const last = after.at(-1)?.at ?? 0;
  const fittedFirst = meanY + slope * (first - meanX);
  return {
    start: values[0] ?? NaN,
    end: values.at(-1) ?? NaN,
    max: Math.max(...values),
    slopePerHour: slope * 3600,
    growth: (slope * (last - first)) / fittedFirst,
  };
}

/**
 * A request of a client, as its browser tab makes it: its keep-alive connections, its bearer token, and on unsafe
 * methods the XSRF-TOKEN cookie the server set echoed in X-XSRF-TOKEN (double submit).
 */
function call(
  client: Client,
  url: string,
  method = 'GET',
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const unsafe = method !== 'GET' && client.xsrf;
    const request = http.request(
      url,
      {
        method,
        agent: client.agent,
        headers: {
          authorization: `Bearer ${client.token}`,
          accept: 'application/json',
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(unsafe ? { cookie: `XSRF-TOKEN=${client.xsrf}`, 'x-xsrf-token': client.xsrf } : {}),
        },
      },
      (response) => {
        for (const cookie of response.headers['set-cookie'] ?? []) {
          const xsrf = /^XSRF-TOKEN=([^;]*)/.exec(cookie)?.[1];
          if (xsrf) client.xsrf = decodeURIComponent(xsrf);
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

interface Operation {
  name: string;
  weight: number;
  method?: string;
  /** The path below /api, or null when the client has nothing to call it on (no invoice, no ticket). */
  path: (client: Client) => string | null;
  body?: (client: Client) => unknown;
}

interface Client {
  index: number;
  email: string;
  account: string;
  agent: http.Agent;
  token: string;
  refreshToken: string;
  clientId: string;
  /** The XSRF-TOKEN cookie's value, once the server set it. */
  xsrf?: string;
  invoice?: string;
  ticket?: string;
  notification?: string;
  notificationRead: boolean;
  preferences?: unknown;
  operations: Operation[];
}

const scoped = (client: Client, rest: string) => `/accounts/${client.account}${rest}`;

/** The mix: weights are relative frequencies; reads of the areas' pages, a few downloads, about 5 % writes. */
const OPERATIONS: Operation[] = [
  { name: 'me', weight: 10, path: () => '/users/v1/me' },
  { name: 'my accounts', weight: 10, path: () => '/users/v1/me/accounts' },
  { name: 'account', weight: 5, path: (c) => `/accounts/v1/accounts/${c.account}` },
  { name: 'current announcements', weight: 8, path: () => '/announcements/v1/current' },
  { name: 'unread count', weight: 10, path: (c) => scoped(c, '/notifications/v1/unread-count') },
  { name: 'inbox', weight: 6, path: (c) => scoped(c, '/notifications/v1/notifications') },
  { name: 'invoices', weight: 5, path: (c) => scoped(c, '/billing/v1/invoices') },
  {
    name: 'invoice',
    weight: 3,
    path: (c) => (c.invoice ? scoped(c, `/billing/v1/invoices/${c.invoice}`) : null),
  },
  {
    name: 'invoice PDF',
    weight: 1,
    path: (c) => (c.invoice ? scoped(c, `/billing/v1/invoices/${c.invoice}/pdf`) : null),
  },
  { name: 'billing status', weight: 4, path: (c) => scoped(c, '/billing/v1/status') },
  { name: 'members', weight: 4, path: (c) => scoped(c, '/members/v1/members') },
  { name: 'account log', weight: 4, path: (c) => scoped(c, '/logs/v1/entries') },
  { name: 'account log CSV', weight: 0.5, path: (c) => scoped(c, '/logs/v1/entries.csv') },
  { name: 'company profile', weight: 3, path: (c) => scoped(c, '/company/v1/profile') },
  { name: 'subscription', weight: 3, path: (c) => scoped(c, '/subscriptions/v1/subscription') },
  { name: 'plans', weight: 2, path: (c) => scoped(c, '/subscriptions/v1/plans') },
  { name: 'tickets', weight: 4, path: (c) => scoped(c, '/support/v1/tickets') },
  {
    name: 'ticket',
    weight: 3,
    path: (c) => (c.ticket ? scoped(c, `/support/v1/tickets/${c.ticket}`) : null),
  },
  { name: 'course', weight: 3, path: (c) => scoped(c, '/lessons/v1/course') },
  { name: 'security', weight: 2, path: () => '/users/v1/me/security' },
  { name: 'sessions', weight: 1, path: () => '/users/v1/me/security/sessions' },
  { name: 'preferences', weight: 1, path: () => '/notifications/v1/preferences' },
  {
    name: 'notification read/unread',
    weight: 3,
    method: 'PATCH',
    path: (c) => (c.notification ? scoped(c, `/notifications/v1/notifications/${c.notification}`) : null),
    body: (c) => ({ read: (c.notificationRead = !c.notificationRead) }),
  },
  {
    name: 'preferences saved',
    weight: 1,
    method: 'PUT',
    path: (c) => (c.preferences ? '/notifications/v1/preferences' : null),
    body: (c) => c.preferences,
  },
  {
    name: 'ticket reply',
    weight: 0.3,
    method: 'POST',
    path: (c) => (c.ticket ? scoped(c, `/support/v1/tickets/${c.ticket}/messages`) : null),
    body: () => ({ body: `Soak bench reply ${new Date().toISOString()}`, attachments: [] }),
  },
];

function pick(operations: Operation[]): Operation {
  const total = operations.reduce((sum, op) => sum + op.weight, 0);
  let roll = Math.random() * total;
  for (const op of operations) {
    roll -= op.weight;
    if (roll <= 0) return op;
  }
  return operations.at(-1)!;
}

function claims(token: string): { azp?: string; client_id?: string } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    azp?: string;
    client_id?: string;
  };
}

async function soakOn(backend: SoakFigures['backend'], databaseUrl: string): Promise<SoakFigures> {
  let server: BuiltServer | undefined;
  const streams: http.ClientRequest[] = [];
  try {
    server = await startBuilt({ DATABASE_URL: databaseUrl });
    const { url } = server;
    const figures: SoakFigures = {
      backend,
      minutes: MINUTES,
      warmUpMinutes: Math.min(5, MINUTES / 3),
      readyMs: server.readyMs,
      requests: 0,
      errors: 0,
      firstErrors: [],
      signIns: { count: 0, p50: NaN, p99: NaN },
      streams: { opened: 0, failed: 0, events: 0 },
      perMinute: [],
      rss: trend([], () => 0, 0),
      heap: trend([], () => 0, 0),
      samples: 0,
      dropped: [],
    };
    const error = (what: string) => {
      figures.errors += 1;
      if (figures.firstErrors.length < 5) figures.firstErrors.push(what);
    };
    const signInTimes: number[] = [];
    const signIn = async (client: Client) => {
      const started = performance.now();
      // A context of its own each time: a new browser, without the provider's session cookie of the last sign-in.
      const api = await playwrightRequest.newContext();
      try {
        const tokens = await signInTokens(api, { url, port: 0 }, client.email);
        client.token = tokens.access_token;
        client.refreshToken = tokens.refresh_token;
      } finally {
        await api.dispose();
      }
      signInTimes.push(performance.now() - started);
    };
    const refresh = async (client: Client) => {
      const response = await fetch(`${url}/realms/portal/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: client.refreshToken,
          client_id: client.clientId,
        }),
      });
      if (response.status !== 200) {
        error(`token refresh: ${response.status}`);
        await signIn(client);
        return;
      }
      const tokens = (await response.json()) as { access_token: string; refresh_token?: string };
      client.token = tokens.access_token;
      if (tokens.refresh_token) client.refreshToken = tokens.refresh_token;
    };

    // Sign in and find what each client works on; drop what its role may not call (once, printed).
    const clients: Client[] = [];
    for (const [index, { login, account }] of CLIENTS.entries()) {
      const client: Client = {
        index,
        email: DEMO[login].email,
        account: DEMO_ACCOUNTS[account].uuid,
        agent: new http.Agent({ keepAlive: true, maxSockets: 4 }),
        token: '',
        refreshToken: '',
        clientId: '',
        notificationRead: false,
        operations: [],
      };
      await signIn(client);
      const { azp, client_id } = claims(client.token);
      client.clientId = azp ?? client_id ?? '';
      const list = async (rest: string) => {
        const response = await call(client, `${url}/api${scoped(client, rest)}`);
        return response.status === 200
          ? (JSON.parse(response.text) as { data: { uuid?: string; id?: string }[] }).data
          : [];
      };
      client.invoice = (await list('/billing/v1/invoices'))[0]?.uuid;
      client.ticket = (await list('/support/v1/tickets'))[0]?.uuid;
      const notification = (await list('/notifications/v1/notifications'))[0];
      client.notification = notification?.uuid ?? notification?.id;
      const preferences = await call(client, `${url}/api/notifications/v1/preferences`);
      if (preferences.status === 200) {
        const all = (
          JSON.parse(preferences.text) as {
            data?: { preferences: { type: string; email: boolean; fixed?: boolean }[] };
          }
        ).data?.preferences;
        const choosable = all?.filter((preference) => !preference.fixed).slice(0, 1);
        if (choosable?.length)
          client.preferences = { preferences: choosable.map(({ type, email }) => ({ type, email })) };
      }
      for (const op of OPERATIONS) {
        const target = op.path(client);
        if (target === null || op.method) {
          if (target !== null) client.operations.push(op);
          continue;
        }
        const probe = await call(client, `${url}/api${target}`);
        if (probe.status === 403 || probe.status === 404)
          figures.dropped.push(`${login}: ${op.name} (${probe.status})`);
        else client.operations.push(op);
      }
      clients.push(client);
    }

    const started = performance.now();
    const end = started + MINUTES * 60_000;
    const seconds = () => (performance.now() - started) / 1000;
    const latencies: number[][] = [];
    const errorsPerMinute: number[] = [];
    const minuteOf = () => Math.floor(seconds() / 60);

    // Memory: /proc for resident memory, /metrics (loopback) for the heap.
    const samples: Sample[] = [];
    const sample = async () => {
      const metrics = await fetch(`${url}/metrics`).then((response) => response.text());
      const heap = Number(/^nodejs_heap_used_bytes (\S+)$/m.exec(metrics)?.[1]);
      samples.push({ at: seconds(), rss: server!.rssBytes(), heap });
    };
    await sample();
    const sampler = setInterval(
      () => void sample().catch((e: Error) => error(`metrics: ${e.message}`)),
      SAMPLE_SECONDS * 1000,
    );

    // The live streams: one per client, reopened every minute.
    const openStream = (client: Client): Promise<void> =>
      new Promise((resolve) => {
        const request = http.get(
          `${url}/api/notifications/v1/stream`,
          { headers: { authorization: `Bearer ${client.token}`, accept: 'text/event-stream' } },
          (response) => {
            if (response.statusCode !== 200) {
              figures.streams.failed += 1;
              error(`stream: ${response.statusCode}`);
              response.resume();
              resolve();
              return;
            }
            figures.streams.opened += 1;
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              figures.streams.events += chunk.match(/^event: (notification|changed)$/gm)?.length ?? 0;
            });
            response.on('error', () => undefined);
            response.on('close', resolve);
          },
        );
        request.on('error', (e) => {
          if (performance.now() < end && !request.destroyed) error(`stream: ${e.message}`);
          resolve();
        });
        streams.push(request);
        setTimeout(() => request.destroy(), Math.min(STREAM_REOPEN_MS, Math.max(0, end - performance.now())));
      });
    const streamLoop = async (client: Client) => {
      while (performance.now() < end) await openStream(client);
    };

    const clientLoop = async (client: Client) => {
      // Staggered, so the clients do not refresh and sign in all at once.
      let nextRefresh = performance.now() + REFRESH_MS * (1 - client.index / clients.length / 2);
      let nextSignIn = performance.now() + SIGN_IN_MS * (1 - client.index / clients.length / 2);
      while (performance.now() < end) {
        try {
          if (performance.now() >= nextSignIn) {
            await signIn(client);
            nextSignIn = performance.now() + SIGN_IN_MS;
            nextRefresh = performance.now() + REFRESH_MS;
          } else if (performance.now() >= nextRefresh) {
            await refresh(client);
            nextRefresh = performance.now() + REFRESH_MS;
          }
          const op = pick(client.operations);
          const target = op.path(client);
          if (target !== null) {
            const minute = minuteOf();
            const at = performance.now();
            const response = await call(client, `${url}/api${target}`, op.method, op.body?.(client));
            (latencies[minute] ??= []).push(performance.now() - at);
            figures.requests += 1;
            if (response.status >= 400) {
              errorsPerMinute[minute] = (errorsPerMinute[minute] ?? 0) + 1;
              error(`${op.name}: ${response.status} ${response.text.slice(0, 120)}`);
            }
          }
        } catch (e) {
          errorsPerMinute[minuteOf()] = (errorsPerMinute[minuteOf()] ?? 0) + 1;
          error(`${client.email}: ${(e as Error).message}`);
        }
        await new Promise((resolve) => setTimeout(resolve, THINK_MS));
      }
    };

    await Promise.all(clients.flatMap((client) => [clientLoop(client), streamLoop(client)]));
    clearInterval(sampler);
    await sample();
    for (const client of clients) client.agent.destroy();

    const warmUpSeconds = figures.warmUpMinutes * 60;
    figures.samples = samples.length;
    figures.rss = trend(samples, (s) => s.rss, warmUpSeconds);
    figures.heap = trend(samples, (s) => s.heap, warmUpSeconds);
    figures.signIns = {
      count: signInTimes.length,
      p50: percentile(signInTimes, 50),
      p99: percentile(signInTimes, 99),
    };
    for (let minute = 0; minute < Math.ceil(MINUTES); minute += 1) {
      const times = latencies[minute] ?? [];
      const last = samples.filter((s) => s.at <= (minute + 1) * 60).at(-1);
      figures.perMinute.push({
        requests: times.length,
        errors: errorsPerMinute[minute] ?? 0,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        rss: last?.rss ?? NaN,
        heap: last?.heap ?? NaN,
      });
    }
    return figures;
  } finally {
    for (const stream of streams) stream.destroy();
    await server?.stop();
  }
}

export async function measureSoak(): Promise<SoakFigures[]> {
  const results: SoakFigures[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-soak-'));
  try {
    results.push(await soakOn('PGlite', dataDir));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `portal_soak_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await withPostgres(adminUrl, (client) => client.query(`create database ${name}`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      results.push(await soakOn('PostgreSQL', url.toString()));
    } finally {
      await withPostgres(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    }
  }
  return results;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pct = (fraction: number) => `${fraction >= 0 ? '+' : ''}${(100 * fraction).toFixed(1)} %`;

/** The lines `npm run bench -- soak` prints. */
export function describeSoak(results: SoakFigures[]): string[] {
  const lines: string[] = [];
  for (const f of results) {
    const seconds = f.minutes * 60;
    lines.push(
      `  soak on ${f.backend}: built server, ${f.minutes} min, ${CLIENTS.length} signed-in clients (${THINK_MS} ms pause), ready after ${f.readyMs.toFixed(0)} ms`,
      `    requests: ${f.requests} (${(f.requests / seconds).toFixed(1)}/s), errors: ${f.errors}; sign-ins: ${f.signIns.count} (p50 ${f.signIns.p50.toFixed(0)} ms, p99 ${f.signIns.p99.toFixed(0)} ms); live streams: ${f.streams.opened} opened, ${f.streams.failed} refused, ${f.streams.events} events received (notification, changed)`,
    );
    if (f.dropped.length) lines.push(`    not in the mix (the role may not): ${f.dropped.join(', ')}`);
    for (const message of f.firstErrors) lines.push(`    error: ${message}`);
    lines.push('    minute   requests   p50 ms   p99 ms   errors   RSS        heap');
    f.perMinute.forEach((m, minute) =>
      lines.push(
        `    ${String(minute + 1).padStart(6)}   ${String(m.requests).padStart(8)}   ${m.p50.toFixed(1).padStart(6)}   ${m.p99.toFixed(1).padStart(6)}   ${String(m.errors).padStart(6)}   ${mb(m.rss).padStart(9)}  ${mb(m.heap).padStart(9)}`,
      ),
    );
    const line = (what: string, t: Trend) =>
      `    ${what}: start ${mb(t.start)}, end ${mb(t.end)}, max ${mb(t.max)}; after the warm-up ${mb(t.slopePerHour)} per hour, ${pct(t.growth)} over the run`;
    lines.push(
      line('RSS ', f.rss),
      line('heap', f.heap),
      `    (${f.samples} samples every ${SAMPLE_SECONDS} s, warm-up ${f.warmUpMinutes.toFixed(1)} min)`,
    );
    const grows = f.rss.growth >= TARGET_GROWTH || f.heap.growth >= TARGET_GROWTH;
    lines.push(
      grows
        ? `    verdict: memory GROWS (target < ${100 * TARGET_GROWTH} % after the warm-up)`
        : `    verdict: memory does not grow beyond the target (< ${100 * TARGET_GROWTH} % after the warm-up)${f.minutes < 30 ? `; a short run of ${f.minutes} min: the issue's figure is 30 min` : ''}`,
    );
  }
  return lines;
}
