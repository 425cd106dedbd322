import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_REPLAY_MAX, LIVE_STREAMS_PER_USER } from '@portal/contract';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { createNotifier, NOTIFICATIONS_CHANNEL } from '../../notifications/notifier.ts';
import { describeApi, TestApi } from '../../test/api.ts';
import { openStream, type ReceivedEvent, type TestStream } from '../../test/sse.ts';
import { SSE_RECONNECT_MS } from '../../notifications/sse.ts';

const notifier = createNotifier();
const OWNER = DEMO_USERS.owner.id;
const ADMIN = DEMO_USERS.admin.id;

/** Listens on a free port of the loopback interface: the stream is read over real HTTP. */
async function baseOf(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Writes one notification per recipient in a transaction of its own, as a change would; returns the row ids. */
async function notify(api: TestApi, userUuids: string[], subject = 'Live'): Promise<string[]> {
  return api.db.transaction(async (tx) => {
    const { rows: before } = await tx.query<{ id: string }>(
      'select coalesce(max(id), 0)::text as id from notifications',
    );
    await notifier.notify(tx, {
      accountUuid: DEMO_ACCOUNTS.muster,
      userUuids,
      type: 'ticket.answered',
      params: { ticketUuid: DEMO_ACCOUNTS.muster, ticketNumber: 1, subject },
    });
    const { rows } = await tx.query<{ id: string }>(
      'select id::text from notifications where id > $1::bigint order by id',
      [before[0]!.id],
    );
    return rows.map((row) => row.id);
  });
}

const subjectOf = (event: ReceivedEvent) => (event.data as { params: { subject: string } }).params.subject;
const notificationIds = (stream: TestStream) => stream.named('notification').map((event) => event.id);

describeApi('notification stream', (api) => {
  let base: string;
  const open: TestStream[] = [];
  const connect = async (as: 'owner' | 'admin' = 'owner', lastEventId?: string) => {
    const stream = await openStream(base, await api.token(as), { lastEventId });
    open.push(stream);
    return stream;
  };
  beforeAll(async () => {
    base = await baseOf(api.app);
  });
  afterAll(() => {
    for (const stream of open) stream.close();
  });

  it('refuses a request without a token in the Authorization header (401), and any token in the URL', async () => {
    const anonymous = await openStream(base, null);
    expect(anonymous.status).toBe(401);
    const url = `/api/notifications/v1/stream?access_token=${await api.token()}`;
    expect((await api.request('GET', url)).statusCode).toBe(401);
    // Not even beside a valid header: a token in the URL would end up in access logs.
    expect((await api.request('GET', url, { as: 'owner' })).statusCode).toBe(422);
  });

  it('opens with `ready`, whose id is the newest notification of the user', async () => {
    const stream = await connect();
    expect(stream.status).toBe(200);
    const ready = await stream.waitFor('ready');
    const { rows } = await api.db.query<{ id: string }>(
      'select coalesce(max(id), 0)::text as id from notifications where user_uuid = $1',
      [OWNER],
    );
    expect(ready.id).toBe(rows[0]!.id);
    // Operators see the open streams and whether the instance hears the signals.
    const metrics = (await api.request('GET', '/metrics')).body;
    expect(metrics).toMatch(/^portal_live_streams [1-9]\d*$/m);
    expect(metrics).toMatch(/^portal_live_listening 1$/m);
    stream.close();
  });

  it('delivers a committed notification to its recipient only, with its id and fields', async () => {
    const owner = await connect('owner');
    const admin = await connect('admin');
    await Promise.all([owner.waitFor('ready'), admin.waitFor('ready')]);
    const [ownerId] = await notify(api, [OWNER], 'For the owner');
    const received = await owner.waitFor('notification', ownerId);
    expect(received.data).toMatchObject({
      accountUuid: DEMO_ACCOUNTS.muster,
      type: 'ticket.answered',
      params: { subject: 'For the owner' },
      readAt: null,
    });
    expect(Object.keys(received.data as object).sort()).toEqual(
      ['accountUuid', 'createdAt', 'params', 'readAt', 'type', 'uuid'].sort(),
    );
    // Signals arrive in commit order: once the admin has their own, the owner's would have come before it.
    const [adminId] = await notify(api, [ADMIN], 'For the admin');
    await admin.waitFor('notification', adminId);
    expect(notificationIds(admin)).toEqual([adminId]);
    expect(notificationIds(owner)).toEqual([ownerId]);
    owner.close();
    admin.close();
  });

  it('delivers nothing for a transaction that rolls back', async () => {
    const stream = await connect();
    await stream.waitFor('ready');
    await expect(
      api.db.transaction(async (tx) => {
        await notifier.notify(tx, {
          accountUuid: DEMO_ACCOUNTS.muster,
          userUuids: [OWNER],
          type: 'ticket.solved',
          params: { ticketUuid: DEMO_ACCOUNTS.muster, ticketNumber: 2, subject: 'Rolled back' },
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const [committed] = await notify(api, [OWNER], 'Committed');
    await stream.waitFor('notification', committed);
    expect(stream.named('notification').map(subjectOf)).toEqual(['Committed']);
    stream.close();
  });

  it('sends `changed` when the state of the user’s notifications changes', async () => {
    const stream = await connect();
    await stream.waitFor('ready');
    await api.db.transaction((tx) => notifier.changed(tx, OWNER));
    const changed = await stream.waitFor('changed');
    expect(changed.id).toBeUndefined();
  });

  it('sends `changed` when an archived notification is restored to the inbox', async () => {
    const [id] = await notify(api, [OWNER], 'Restored');
    const { rows } = await api.db.query<{ uuid: string }>('select uuid from notifications where id = $1', [
      id,
    ]);
    const url = `/api/accounts/${DEMO_ACCOUNTS.muster}/notifications/v1/notifications/${rows[0]!.uuid}`;
    expect((await api.request('POST', `${url}/archive`, { as: 'owner' })).statusCode).toBe(204);
    const stream = await connect();
    await stream.waitFor('ready');
    expect((await api.request('POST', `${url}/restore`, { as: 'owner' })).statusCode).toBe(204);
    expect((await stream.waitFor('changed')).id).toBeUndefined();
    stream.close();
  });

  it('replays exactly what was missed after Last-Event-ID, then resumes from the newest', async () => {
    const first = await connect();
    const ready = await first.waitFor('ready');
    first.close();
    await first.ended;
    const missed = [...(await notify(api, [OWNER], 'Missed 1')), ...(await notify(api, [OWNER], 'Missed 2'))];
    await notify(api, [ADMIN], 'Not for the owner');
    const again = await connect('owner', ready.id);
    const resumed = await again.waitFor('ready');
    const beforeReady = again.events.slice(0, again.events.indexOf(resumed));
    expect(beforeReady.map((event) => [event.event, event.id])).toEqual(
      missed.map((id) => ['notification', id]),
    );
    expect(resumed.id).toBe(missed.at(-1));
    // A signal of a replayed one that comes late (from another instance, after the catch-up was sent): not again.
    await api.db.query('select pg_notify($1, $2)', [
      NOTIFICATIONS_CHANNEL,
      JSON.stringify({ userUuid: OWNER, id: missed[0] }),
    ]);
    // Live again: the next one arrives once, not replayed twice.
    const [next] = await notify(api, [OWNER], 'Live again');
    await again.waitFor('notification', next);
    expect(notificationIds(again)).toEqual([...missed, next]);
    again.close();
  });

  it(`asks the client to read everything again when more than ${LIVE_REPLAY_MAX} were missed`, async () => {
    const first = await connect();
    const ready = await first.waitFor('ready');
    first.close();
    await api.db.query(
      `insert into notifications (account_uuid, user_uuid, type, params)
       select $1, $2, 'ticket.answered', '{}'::jsonb from generate_series(1, $3::int)`,
      [DEMO_ACCOUNTS.muster, OWNER, LIVE_REPLAY_MAX + 1],
    );
    const again = await connect('owner', ready.id);
    const resumed = await again.waitFor('ready');
    expect(again.events.map((event) => event.event)).toEqual(['resync', 'ready']);
    const { rows } = await api.db.query<{ id: string }>(
      'select max(id)::text as id from notifications where user_uuid = $1',
      [OWNER],
    );
    expect(resumed.id).toBe(rows[0]!.id);
    again.close();
  });

  it(`refuses more than ${LIVE_STREAMS_PER_USER} streams of one user on one instance (429)`, async () => {
    const streams = await Promise.all(Array.from({ length: LIVE_STREAMS_PER_USER }, () => connect('admin')));
    await Promise.all(streams.map((stream) => stream.waitFor('ready')));
    const refused = await connect('admin');
    expect(refused.status).toBe(429);
    // Another user is not affected, and a closed stream frees its place.
    expect((await connect('owner')).status).toBe(200);
    streams[0]!.close();
    await expect.poll(async () => (await connect('admin')).status).toBe(200);
    for (const stream of open) stream.close();
  });

  it('ends the stream when its access token expires', async () => {
    const stream = await openStream(base, await api.token('owner', { expiresIn: 2 }));
    open.push(stream);
    await stream.waitFor('ready');
    await stream.ended;
    expect(stream.named('ready')).toHaveLength(1);
  });
});

describe('notification stream while the app closes', () => {
  it('ends open streams with a reconnect hint, so close() returns at once', async () => {
    const api = new TestApi('pglite');
    await api.start();
    const base = await baseOf(api.app);
    const streams = await Promise.all([
      openStream(base, await api.token()),
      openStream(base, await api.token()),
    ]);
    await Promise.all(streams.map((stream) => stream.waitFor('ready')));
    const started = performance.now();
    await api.app.close();
    await Promise.all(streams.map((stream) => stream.ended));
    expect(performance.now() - started).toBeLessThan(2_000);
    // `retry:` tells a client when to come back (to another instance, through the proxy).
    expect(streams.map((stream) => stream.retryMs)).toEqual([SSE_RECONNECT_MS, SSE_RECONNECT_MS]);
    await api.stop();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('notification stream across instances [postgres]', () => {
  const api = new TestApi('postgres');
  let a: string;
  let b: string;
  const open: TestStream[] = [];
  beforeAll(async () => {
    await api.start();
    a = await baseOf(api.app);
    b = await baseOf(await api.secondInstance());
  }, 60_000);
  afterAll(async () => {
    for (const stream of open) stream.close();
    await api.stop();
  });
  const connect = async (base: string, lastEventId?: string) => {
    const stream = await openStream(base, await api.token('owner'), { lastEventId });
    open.push(stream);
    return stream;
  };
  it('delivers a notification written on instance A to a stream on instance B', async () => {
    const stream = await connect(b);
    await stream.waitFor('ready');
    const [id] = await notify(api, [OWNER], 'Across instances');
    const received = await stream.waitFor('notification', id);
    expect(subjectOf(received)).toBe('Across instances');
  });

  it('replays on instance A what a stream on instance B missed', async () => {
    const onB = await connect(b);
    const ready = await onB.waitFor('ready');
    onB.close();
    const missed = await notify(api, [OWNER, OWNER], 'While away');
    const onA = await connect(a, ready.id);
    await onA.waitFor('ready');
    expect(notificationIds(onA)).toEqual(missed);
  });

  it('listens again after losing its connection, and tells its streams to resync', async () => {
    const stream = await connect(b);
    await stream.waitFor('ready');
    // The database ends every listening connection (a restart, a failover, an idle-session kill).
    await api.db.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen %'`,
    );
    await stream.waitFor('resync', undefined, 15_000);
    const [id] = await notify(api, [OWNER], 'After the reconnect');
    await stream.waitFor('notification', id);
  });
});
