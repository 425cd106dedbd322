/**
 * `npm run bench`: the performance figures the issues name, measured, not asserted.
 * - server start to ready: the built server (`node apps/server/dist/server.js`, as `npm run start:server`; needs
 *   `npm run build`) from its spawn to /readyz 200, first start on an empty data folder (migrations + demo seed), then
 *   a restart, with the CPU seconds its process used (targets ≤ 5 s and ≤ 2 s; e2e/bench/built-server.ts);
 * - gzipped JS the browser loads for sign-in → dashboard: the app's first load (what index.html names for /, budget
 *   150 KB, which the build gates), the app's later scripts and the sign-in pages' own; the bytes Chromium actually
 *   received for it (compressed as the server sent them, headers included), beside everything received on the way;
 * - route changes with warm data in Chromium (target ≤ 100 ms, no network wait);
 * - the signed-in dashboard's largest contentful paint on the mobile profile, cold and warm (target ≤ 1.2 s cold;
 *   e2e/bench/lcp.ts);
 * - GET /users/v1/me against a bare Fastify + jose + driver server doing the same verify-and-select, in the same run,
 *   on PGlite and PostgreSQL: requests per second and the ratio (targets ≥ 80 % and ≥ 100 %; e2e/bench/me.ts);
 * - the account log with 1,000,000 entries on PostgreSQL: pages and the CSV export (apps/server/src/bench/logs.bench.ts,
 *   which drives the server's own test harness);
 * - live notifications: 1,000 server-sent-event clients on one instance, commit → received p99 (target ≤ 1 s) and
 *   memory per stream (apps/server/src/bench/sse.bench.ts; PostgreSQL with TEST_DATABASE_URL, else PGlite);
 * - one invoice PDF with its QR-bill payment part: median ms over repeated renders (target ≤ 200 ms;
 *   apps/server/src/modules/billing/invoice-pdf.bench.ts, beside the code it measures).
 * - the renewal scheduler: 10,000 due subscriptions → 10,000 invoices on PostgreSQL (target ≤ 60 s;
 *   apps/server/src/bench/subscriptions.bench.ts).
 * - an announcement to all: 10,000 accounts with 5 people each on PostgreSQL, publication → every inbox has it (target
 *   ≤ 60 s) and the API's p99 meanwhile (apps/server/src/bench/announcements.bench.ts).
 * - the account directory: typical searches of an agent among 100,000 accounts on PostgreSQL (target p99 ≤ 20 ms;
 *   apps/server/src/bench/directory.bench.ts, BENCH_DIRECTORY_ACCOUNTS for another size).
 * - the notifications inbox: 100,000 notifications per person on PostgreSQL, its pages, filters and unread count
 *   (target p99 ≤ 20 ms; apps/server/src/bench/inbox.bench.ts, BENCH_INBOX_NOTIFICATIONS for another size).
 * - the support agents' queue: 50,000 tickets on PostgreSQL, its pages and filters (target p99 ≤ 20 ms;
 *   apps/server/src/bench/queue.bench.ts, BENCH_QUEUE_TICKETS for another size).
 * - memory over time: `npm run bench -- soak` alone (30 min per backend, BENCH_SOAK_MINUTES; e2e/bench/soak.ts).
 * - the account data export: an account with 10,000 log entries, 200 invoices and 500 MB of attachments on
 *   PostgreSQL, the job's time, the ZIP's download time and the resident memory meanwhile (streamed, never held;
 *   apps/server/src/bench/account-export.bench.ts, BENCH_EXPORT_MB for another size).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { fillLogin, startServer, watchNetwork } from '../fixtures.ts';
import { startBuilt } from './built-server.ts';
import { describeLcp, measureLcp } from './lcp.ts';
import { describeMe, measureMe } from './me.ts';
import { measureMembers, INVITATIONS, MEMBERS } from './members.ts';
import { describeSoak, measureSoak } from './soak.ts';
import config from '../playwright.config.ts';

/**
 * Runs in the page: clicks the navigation link and resolves when the URL changed and the new page's heading is
 * painted. A string, so that the TypeScript loader's helpers never leak into the page.
 */
const TIME_ROUTE_CHANGE = `async (target) => {
  const link = document.querySelector('nav a[href="' + target + '"]');
  if (!link) throw new Error('no nav link to ' + target);
  const start = performance.now();
  link.click();
  await new Promise((resolve) => {
    const check = () => {
      if (location.pathname === target && document.querySelector('main h1')) requestAnimationFrame(() => resolve());
      else requestAnimationFrame(check);
    };
    check();
  });
  return performance.now() - start;
}`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function measureStartup(): Promise<{ first: Started; restart: Started }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  try {
    const once = async (): Promise<Started> => {
      const server = await startBuilt({ DATABASE_URL: dataDir });
      const cpu = server.cpuSeconds();
      await server.stop();
      return { ms: server.readyMs, cpu };
    };
    const first = await once();
    return { first, restart: await once() };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Wall milliseconds from the spawn to /readyz 200, and the CPU seconds the server used until then. */
interface Started {
  ms: number;
  cpu: number;
}

const describeStart = (what: string, started: Started) =>
  `  server start → ready, ${what} ${started.ms.toFixed(0)} ms (${started.cpu.toFixed(1)} s CPU)`;

// `npm run bench -- start` measures the built server's first start and restart alone.
if (process.argv[2] === 'start') {
  console.log(`Portal benchmark (server start only; load average ${os.loadavg()[0]!.toFixed(1)})`);
  const startup = await measureStartup();
  console.log(describeStart('first start (empty data folder):', startup.first));
  console.log(describeStart('restart:                        ', startup.restart));
  process.exit(0);
}

// `npm run bench -- soak` measures memory over time under a steady mix alone.
if (process.argv[2] === 'soak') {
  console.log(`Portal benchmark (soak only; load average ${os.loadavg()[0]!.toFixed(1)})`);
  for (const line of describeSoak(await measureSoak())) console.log(line);
  process.exit(0);
}

interface Transferred {
  /**
   * Each script by URL: bytes on the wire (Chromium's encodedDataLength: the body as sent plus headers) and the
   * Content-Encoding it came with. A script counts once, like the gzip figure: its largest transfer is kept, since a
   * repeat load from the cache brings almost nothing.
   */
  scripts: Map<string, { bytes: number; encoding: string }>;
  /** Bytes on the wire of every response from the server: pages, sign-in service, scripts, API, fonts. */
  totalBytes: number;
  responses: number;
}

/** Counts what Chromium receives from `origin`, through the DevTools protocol, as the page loads. */
async function watchTransfers(page: Page, origin: string): Promise<Transferred> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const seen = new Map<string, { url: string; script: boolean; encoding: string }>();
  const transferred: Transferred = { scripts: new Map(), totalBytes: 0, responses: 0 };
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    if (!response.url.startsWith(origin)) return;
    const header = Object.entries(response.headers).find(
      ([name]) => name.toLowerCase() === 'content-encoding',
    );
    // By MIME type, not resource type: Chromium files a module preloaded by <link rel="modulepreload"> as "Other".
    const script = response.mimeType.includes('javascript');
    seen.set(requestId, { url: response.url, script, encoding: header?.[1] ?? 'identity' });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const response = seen.get(requestId);
    if (!response) return;
    transferred.totalBytes += encodedDataLength;
    transferred.responses += 1;
    if (!response.script) return;
    const before = transferred.scripts.get(response.url);
    if (before && before.bytes >= encodedDataLength) return;
    transferred.scripts.set(response.url, { bytes: encodedDataLength, encoding: response.encoding });
  });
  return transferred;
}

/** Gzipped sizes of scripts, summed, with their count. */
interface ScriptSum {
  bytes: number;
  files: number;
}

async function measureBrowser(): Promise<{
  jsGzipBytes: number;
  scripts: number;
  /** The scripts split: what index.html names for / (the build's gate), the app's later ones, the sign-in pages'. */
  scriptParts: { firstLoad: ScriptSum; later: ScriptSum; signIn: ScriptSum };
  transferred: Transferred;
  routeChanges: number[];
  apiCallsDuringWarmNavigation: number;
}> {
  const { server, stop } = await startServer();
  const browser = await chromium.launch(config.use?.launchOptions);
  try {
    const page = await browser.newPage({ locale: 'de-DE' });
    const live = await watchTransfers(page, server.url);
    const network = watchNetwork(page);
    const scriptBodies = new Map<string, number>();
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      if (!response.url().startsWith(server.url)) return;
      const body = await response.body().catch(() => null);
      if (body) scriptBodies.set(response.url(), zlib.gzipSync(body, { level: 9 }).length);
    });
    await page.goto(server.url + '/');
    await page.locator('#username').waitFor();
    await fillLogin(page, 'owner@example.com');
    await page.waitForURL(`${server.url}/`);
    await page.locator('h1').first().waitFor();
    await network.quiet();
    const jsGzipBytes = [...scriptBodies.values()].reduce((sum, size) => sum + size, 0);
    const scripts = scriptBodies.size;
    // The first load is what index.html names for / (its scripts and the server's hints for the dashboard, decision
    // 262): the files the build's budget gates. The sign-in service's pages have scripts of their own (passkeys).
    const index = await (await fetch(`${server.url}/`, { headers: { accept: 'text/html' } })).text();
    const named = new Set(
      [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]),
    );
    const scriptParts = {
      firstLoad: { bytes: 0, files: 0 },
      later: { bytes: 0, files: 0 },
      signIn: { bytes: 0, files: 0 },
    };
    for (const [url, bytes] of scriptBodies) {
      const { pathname } = new URL(url);
      const part = named.has(pathname) ? 'firstLoad' : pathname.startsWith('/realms/') ? 'signIn' : 'later';
      scriptParts[part].bytes += bytes;
      scriptParts[part].files += 1;
    }
    const transferred = { ...live, scripts: new Map(live.scripts) };

    // Warm every route once, then time switches between them.
    const targets = ['/inbox', '/support', '/logs', '/'];
    for (const href of targets) {
      await page.locator(`nav a[href="${href}"]`).first().click();
      await page.waitForURL(server.url + href);
      await network.quiet();
    }
    let apiCalls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/users/')) apiCalls += 1;
    });
    const routeChanges: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      for (const href of targets) {
        const elapsed = await page.evaluate<number>(`(${TIME_ROUTE_CHANGE})(${JSON.stringify(href)})`);
        routeChanges.push(elapsed);
      }
    }
    return {
      jsGzipBytes,
      scripts,
      scriptParts,
      transferred,
      routeChanges,
      apiCallsDuringWarmNavigation: apiCalls,
    };
  } finally {
    await browser.close();
    await stop();
  }
}

/**
 * A scenario of server code on PostgreSQL only (skipped without TEST_DATABASE_URL): its module's `measure` export,
 * printed with its `print` export. Loaded by URL: the scenario is server code (its test harness mints tokens),
 * outside this project's sources.
 */
async function postgresScenario(file: string, measure: string, print: string, what: string): Promise<void> {
  if (!process.env.TEST_DATABASE_URL) {
    console.log(`  ${what}: skipped (set TEST_DATABASE_URL to a PostgreSQL admin connection)`);
    return;
  }
  const scenario = path.resolve(import.meta.dirname, '../../apps/server/src/bench', file);
  const module = (await import(pathToFileURL(scenario).href)) as Record<
    string,
    (figures?: unknown) => unknown
  >;
  module[print]!(await module[measure]!());
}

/** The account log at 1,000,000 entries. */
const logFigures = () =>
  postgresScenario('logs.bench.ts', 'measureLogs', 'printLogFigures', 'account log at 1,000,000 entries');

/** The invoices list of an account with 10,000 invoices. */
const invoiceFigures = () =>
  postgresScenario(
    'invoices.bench.ts',
    'measureInvoices',
    'printInvoiceFigures',
    'invoices list at 10,000 invoices',
  );

// `npm run bench -- invoices` measures the invoices list alone.
if (process.argv[2] === 'invoices') {
  console.log('Portal benchmark (invoices list only)');
  await invoiceFigures();
  process.exit(0);
}

/** The invoice PDF, rendered in this process (no database, no server). */
async function invoicePdfFigures(): Promise<void> {
  // Server code like the log scenario, loaded by URL for the same reason.
  const scenario = path.resolve(
    import.meta.dirname,
    '../../apps/server/src/modules/billing/invoice-pdf.bench.ts',
  );
  const pdf = (await import(pathToFileURL(scenario).href)) as {
    measureInvoicePdf(): Promise<unknown>;
    printInvoicePdfFigures(figures: unknown): void;
  };
  pdf.printInvoicePdfFigures(await pdf.measureInvoicePdf());
}

// `npm run bench -- invoice-pdf` measures the invoice PDF alone.
if (process.argv[2] === 'invoice-pdf') {
  console.log('Portal benchmark (invoice PDF only)');
  await invoicePdfFigures();
  process.exit(0);
}

/** The renewal scheduler with 10,000 due subscriptions. */
const schedulerFigures = () =>
  postgresScenario(
    'subscriptions.bench.ts',
    'measureScheduler',
    'printSchedulerFigures',
    'renewal scheduler at 10,000 subscriptions',
  );

// `npm run bench -- subscriptions` measures the renewal scheduler alone.
if (process.argv[2] === 'subscriptions') {
  console.log('Portal benchmark (renewal scheduler only)');
  await schedulerFigures();
  process.exit(0);
}

/** An announcement to all: 10,000 accounts with 5 people each. */
const announcementFigures = () =>
  postgresScenario(
    'announcements.bench.ts',
    'measureAnnouncement',
    'printAnnouncementFigures',
    'announcement to 10,000 accounts',
  );

// `npm run bench -- announcements` measures the announcement's fan-out alone.
if (process.argv[2] === 'announcements') {
  console.log('Portal benchmark (announcement fan-out only)');
  await announcementFigures();
  process.exit(0);
}

/** The account directory among 100,000 accounts. */
const directoryFigures = () =>
  postgresScenario(
    'directory.bench.ts',
    'measureDirectory',
    'printDirectoryFigures',
    'account directory at 100,000 accounts',
  );

// `npm run bench -- directory` measures the account directory alone.
if (process.argv[2] === 'directory') {
  console.log('Portal benchmark (account directory only)');
  await directoryFigures();
  process.exit(0);
}

/** The notifications inbox with 100,000 notifications per person. */
const inboxFigures = () =>
  postgresScenario(
    'inbox.bench.ts',
    'measureInbox',
    'printInboxFigures',
    'notifications inbox at 100,000 notifications per person',
  );

// `npm run bench -- inbox` measures the notifications inbox alone.
if (process.argv[2] === 'inbox') {
  console.log(`Portal benchmark (notifications inbox only; load average ${os.loadavg()[0]!.toFixed(1)})`);
  await inboxFigures();
  process.exit(0);
}

/** The support agents' queue with 50,000 tickets. */
const queueFigures = () =>
  postgresScenario('queue.bench.ts', 'measureQueue', 'printQueueFigures', 'support queue at 50,000 tickets');

// `npm run bench -- queue` measures the support agents' queue alone.
if (process.argv[2] === 'queue') {
  console.log(`Portal benchmark (support queue only; load average ${os.loadavg()[0]!.toFixed(1)})`);
  await queueFigures();
  process.exit(0);
}

/** The account data export with 10,000 log entries, 200 invoices and 500 MB of attachments. */
const accountExportFigures = () =>
  postgresScenario(
    'account-export.bench.ts',
    'measureAccountExport',
    'printAccountExportFigures',
    'account data export with 500 MB of attachments',
  );

// `npm run bench -- account-export` measures the account data export alone.
if (process.argv[2] === 'account-export') {
  console.log('Portal benchmark (account data export only)');
  await accountExportFigures();
  process.exit(0);
}

// `npm run bench -- me` measures GET /users/v1/me against the bare stack alone.
if (process.argv[2] === 'me') {
  console.log('Portal benchmark (GET /users/v1/me against the bare stack only)');
  for (const line of describeMe(await measureMe())) console.log(line);
  process.exit(0);
}

// `npm run bench -- lcp` measures the dashboard's paint on the mobile profile alone.
if (process.argv[2] === 'lcp') {
  console.log('Portal benchmark (dashboard paint on the mobile profile only)');
  for (const line of describeLcp(await measureLcp())) console.log(line);
  process.exit(0);
}

// `npm run bench -- logs` measures the account log alone.
if (process.argv[2] === 'logs') {
  console.log('Portal benchmark (account log only)');
  await logFigures();
  process.exit(0);
}

const startup = await measureStartup();
const browserFigures = await measureBrowser();
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
console.log('Portal benchmark');
console.log(describeStart('first start (empty data folder):', startup.first));
console.log(describeStart('restart:                        ', startup.restart));
const { firstLoad, later, signIn } = browserFigures.scriptParts;
console.log(
  `  JS for sign-in → dashboard: ${kb(browserFigures.jsGzipBytes)} KB gzip in ${browserFigures.scripts} files:`,
);
console.log(
  `    the app's first load (what index.html names for /): ${kb(firstLoad.bytes)} KB in ${firstLoad.files} files (budget 150 KB)`,
);
console.log(
  `    the app after its first paint (live notifications …): ${kb(later.bytes)} KB in ${later.files} files`,
);
console.log(`    the sign-in service's pages (passkeys): ${kb(signIn.bytes)} KB in ${signIn.files} files`);
const { transferred } = browserFigures;
const byEncoding = new Map<string, number>();
let scriptBytes = 0;
for (const { bytes, encoding } of transferred.scripts.values()) {
  scriptBytes += bytes;
  byEncoding.set(encoding, (byEncoding.get(encoding) ?? 0) + 1);
}
const encodings = [...byEncoding].map(([encoding, count]) => `${count} ${encoding}`).join(', ');
console.log(
  `  JS for sign-in → dashboard as Chromium received it: ${kb(scriptBytes)} KB transferred, headers included, in ${transferred.scripts.size} files (${encodings})`,
);
console.log(
  `  everything received for sign-in → dashboard: ${kb(transferred.totalBytes)} KB transferred in ${transferred.responses} responses`,
);
console.log(
  `  route change with warm data: median ${median(browserFigures.routeChanges).toFixed(1)} ms, max ${Math.max(...browserFigures.routeChanges).toFixed(1)} ms over ${browserFigures.routeChanges.length} changes (target ≤ 100 ms)`,
);
console.log(`  me/accounts requests during warm navigation: ${browserFigures.apiCallsDuringWarmNavigation}`);
for (const line of describeLcp(await measureLcp())) console.log(line);
for (const line of describeMe(await measureMe())) console.log(line);
const members = await measureMembers();
if (members) {
  const ms = (t: { p50: number; p99: number }) => `p50 ${t.p50.toFixed(1)} ms, p99 ${t.p99.toFixed(1)} ms`;
  console.log(
    `  members list on PostgreSQL, ${MEMBERS} members + ${INVITATIONS} invitations (${members.total} rows; target p99 ≤ 20 ms):`,
  );
  console.log(`    first page: ${ms(members.firstPage)}`);
  console.log(`    search (${members.searchTotal} hits): ${ms(members.search)}`);
  console.log(`    GET /users/v1/me on the same server, for comparison: ${ms(members.baseline)}`);
} else {
  console.log('  members list on PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
}
await logFigures();
await invoiceFigures();
{
  // Server code like the log scenario, loaded by URL for the same reason.
  const scenario = path.resolve(import.meta.dirname, '../../apps/server/src/bench/sse.bench.ts');
  const live = (await import(pathToFileURL(scenario).href)) as {
    measureSse(): Promise<unknown>;
    printSseFigures(figures: unknown): void;
  };
  live.printSseFigures(await live.measureSse());
}
await invoicePdfFigures();
await schedulerFigures();
await announcementFigures();
await directoryFigures();
await inboxFigures();
await queueFigures();
await accountExportFigures();
