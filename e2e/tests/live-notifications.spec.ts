import crypto from 'node:crypto';
import { test, type Page } from '@playwright/test';
import {
  DEMO,
  LIVE_STREAM_PATH,
  expect,
  signIn,
  startServer,
  withPostgres,
  type PortalServer,
} from '../fixtures.ts';

// The live notification stream in a real browser: one open stream per tab at most, events written on the server
// reach it, and it goes on across token refreshes (the server ends a stream when its token expires; the app
// reconnects with the refreshed token and Last-Event-ID). The notifications are written into the database the way
// the server's notify function does (row and NOTIFY in one transaction), so the server runs on PostgreSQL here, a
// server of this journey's own (not the worker's shared one).

const ADMIN_URL = process.env.TEST_DATABASE_URL;
/** Short-lived access tokens, so that the first stream's token expires during the journey. */
const TOKEN_TTL_S = 10;

test.skip(
  !ADMIN_URL,
  'needs PostgreSQL: set TEST_DATABASE_URL to an admin connection that may create databases',
);

let server: PortalServer;
let stop: () => Promise<void>;
let databaseUrl: string;
const database = `portal_live_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;

test.beforeAll(async () => {
  await withPostgres(ADMIN_URL!, (client) => client.query(`create database ${database}`));
  const url = new URL(ADMIN_URL!);
  url.pathname = `/${database}`;
  databaseUrl = url.toString();
  ({ server, stop } = await startServer({
    DATABASE_URL: databaseUrl,
    ACCESS_TOKEN_TTL: String(TOKEN_TTL_S),
  }));
});

test.afterAll(async () => {
  await stop?.();
  if (ADMIN_URL)
    await withPostgres(ADMIN_URL, (client) =>
      client.query(`drop database if exists ${database} with (force)`),
    );
});

/** A notification for the owner, committed with its signal as the server's notify function writes it. */
async function notifyOwner(subject: string): Promise<string> {
  return withPostgres(databaseUrl, async (client) => {
    await client.query('begin');
    const { rows } = await client.query<{ id: string }>(
      `insert into notifications (account_uuid, user_uuid, type, params)
       values (null, $1, 'ticket.answered', $2::jsonb) returning id::text`,
      [DEMO.owner.id, JSON.stringify({ ticketUuid: crypto.randomUUID(), ticketNumber: 1, subject })],
    );
    await client.query(`select pg_notify('portal_notifications', $1)`, [
      JSON.stringify({ userUuid: DEMO.owner.id, id: rows[0]!.id }),
    ]);
    await client.query('commit');
    return rows[0]!.id;
  });
}

interface WatchedStream {
  requestId: string;
  headers: Record<string, string>;
  status?: number;
  /** What the tab received on it, as the network delivered it. */
  text: string;
  done: boolean;
}

/**
 * Every stream request of the tab, seen through the DevTools protocol: request headers, status, the bytes as they
 * arrive (Network.streamResourceContent), and the most that were open at once.
 */
async function watchStreams(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const watch = { streams: [] as WatchedStream[], mostOpen: 0 };
  const byId = (requestId: string) => watch.streams.find((stream) => stream.requestId === requestId);
  const finish = ({ requestId }: { requestId: string }) => {
    const stream = byId(requestId);
    if (stream) stream.done = true;
  };
  cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
    if (new URL(request.url).pathname !== LIVE_STREAM_PATH) return;
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
    watch.streams.push({ requestId, headers, text: '', done: false });
    watch.mostOpen = Math.max(watch.mostOpen, watch.streams.filter((stream) => !stream.done).length);
  });
  cdp.on('Network.responseReceived', async ({ requestId, response }) => {
    const stream = byId(requestId);
    if (!stream) return;
    stream.status = response.status;
    const { bufferedData } = await cdp.send('Network.streamResourceContent', { requestId });
    stream.text = Buffer.from(bufferedData, 'base64').toString() + stream.text;
  });
  cdp.on('Network.dataReceived', ({ requestId, data }) => {
    const stream = byId(requestId);
    if (stream && data) stream.text += Buffer.from(data, 'base64').toString();
  });
  cdp.on('Network.loadingFinished', finish);
  cdp.on('Network.loadingFailed', finish);
  return watch;
}

/** Requests of the notification queries (everything of the area but the stream). */
function watchNotificationQueries(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.includes('/notifications/') && pathname !== LIVE_STREAM_PATH) urls.push(pathname);
  });
  return urls;
}

test('one stream per tab carries notifications written on the server, across token refreshes', async ({
  page,
}) => {
  const watch = await watchStreams(page);
  const queries = watchNotificationQueries(page);
  await signIn(page, server, DEMO.owner.email);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The stream is open (its answer's headers came) before anything is written.
  await expect.poll(() => watch.streams.length).toBe(1);
  const first = watch.streams[0]!;
  await expect.poll(() => first.status).toBe(200);
  await expect.poll(() => first.text).toContain('event: ready');
  const firstToken = first.headers.authorization;
  expect(firstToken).toMatch(/^Bearer /);

  // Moving through the app keeps the one stream.
  await page.getByRole('navigation').getByRole('link').nth(1).click();
  await page.getByRole('navigation').getByRole('link').first().click();
  expect(watch.streams).toHaveLength(1);

  const queriesBefore = queries.length;
  const firstId = await notifyOwner('Live 1');
  // The notification arrives on the open stream.
  await expect.poll(() => first.text).toContain(`id: ${firstId}\nevent: notification\ndata: {"uuid":`);
  expect(first.text).toContain('"subject":"Live 1"');
  // Whatever notification query the page holds (list, badge) is read again after the event.
  if (queriesBefore > 0) await expect.poll(() => queries.length).toBeGreaterThan(queriesBefore);

  // Its token expires: the server ends the stream, and the app reconnects with the refreshed token, resuming after
  // the notification it received.
  await expect.poll(() => first.done, { timeout: (TOKEN_TTL_S + 5) * 1000 }).toBe(true);
  await expect.poll(() => watch.streams.length).toBeGreaterThanOrEqual(2);
  const second = watch.streams[1]!;
  await expect.poll(() => second.text).toContain('event: ready');
  expect(second.status).toBe(200);
  expect(second.headers.authorization).not.toBe(firstToken);
  expect(second.headers['last-event-id']).toBe(firstId);
  const secondId = await notifyOwner('Live 2');
  await expect.poll(() => second.text).toContain(`id: ${secondId}\nevent: notification`);
  expect(second.text).not.toContain(`id: ${firstId}\nevent: notification`);

  // Never two at once in this tab.
  expect(watch.mostOpen).toBe(1);
});
