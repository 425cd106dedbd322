import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/client.ts';
import { freshDatabase, type Backend } from '../test/api.ts';
import { JobRunner, type RunnerOptions } from './runner.ts';

declare module './runner.ts' {
  interface JobKinds {
    'test.record': { n: number };
    'test.flaky': { failures: number };
    'test.tick': Record<string, never>;
    'test.block': Record<string, never>;
    'test.bulk': { n: number };
    'test.other-bulk': { n: number };
  }
}

const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** Resolves when `check` holds (polled on the event loop), or fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe.each(BACKENDS)('jobs runner on %s', (backend) => {
  let db: Db;
  let second: Db;
  let url: string | undefined;
  let drop: () => Promise<void>;
  const runners: JobRunner[] = [];

  const runner = (options: Partial<RunnerOptions> = {}, on: Db = db) => {
    const created = new JobRunner(on, { pollMs: 20, backoffMs: 50, ...options });
    runners.push(created);
    return created;
  };
  const rows = async () =>
    (
      await db.query<{ kind: string; state: string; attempts: number; last_error: string | null }>(
        'select kind, state, attempts, last_error from jobs order by id',
      )
    ).rows;

  beforeAll(async () => {
    ({ db, drop, url } = await freshDatabase(backend));
    // A second instance has connections of its own on PostgreSQL; PGlite is one process's database.
    second = url ? await openDb(url) : db;
  });
  afterEach(async () => {
    for (const created of runners.splice(0)) await created.stop();
    await db.query('delete from jobs');
  });
  afterAll(async () => {
    if (second !== db) await second.close();
    await drop();
  });

  it('runs a queued job once and removes it; an unknown kind cannot be queued or defined twice', async () => {
    const jobs = runner();
    const seen: number[] = [];
    jobs.define('test.record', { handler: async ({ payload }) => void seen.push(payload.n) });
    expect(() => jobs.define('test.record', { handler: async () => undefined })).toThrow(/defined twice/);
    await expect(jobs.enqueue('test.tick', {})).rejects.toThrow(/not defined/);

    await jobs.enqueue('test.record', { n: 1 });
    await jobs.drain();
    expect(seen).toEqual([1]);
    expect(await rows()).toEqual([]);
  });

  it('queues many jobs in one statement, each open unique key once', async () => {
    const jobs = runner();
    const seen: number[] = [];
    jobs.define('test.record', { handler: async ({ payload }) => void seen.push(payload.n) });
    await expect(jobs.enqueueMany('test.tick', [{ payload: {} }])).rejects.toThrow(/not defined/);
    expect(await jobs.enqueueMany('test.record', [])).toBe(0);
    await jobs.enqueue('test.record', { n: 0 }, { uniqueKey: 'open' });
    await db
      .transaction(async (tx) => {
        await jobs.enqueueMany('test.record', [{ payload: { n: 9 } }], { tx });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const queued = await jobs.enqueueMany('test.record', [
      { payload: { n: 1 } },
      { payload: { n: 2 }, uniqueKey: 'a' },
      { payload: { n: 3 }, uniqueKey: 'a' },
      { payload: { n: 4 }, uniqueKey: 'open' },
    ]);
    expect(queued).toBe(2);
    await jobs.drain();
    expect(seen.sort()).toEqual([0, 1, 2]);
  });

  it('queues inside a transaction only when it commits, and once per unique key', async () => {
    const jobs = runner();
    const seen: number[] = [];
    jobs.define('test.record', { handler: async ({ payload }) => void seen.push(payload.n) });
    await db
      .transaction(async (tx) => {
        await jobs.enqueue('test.record', { n: 1 }, { tx });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await db.transaction((tx) => jobs.enqueue('test.record', { n: 2 }, { tx }));
    expect(await jobs.enqueue('test.record', { n: 3 }, { uniqueKey: 'k' })).not.toBeNull();
    expect(await jobs.enqueue('test.record', { n: 4 }, { uniqueKey: 'k' })).toBeNull();
    await jobs.drain();
    expect(seen.sort()).toEqual([2, 3]);
  });

  it('retries a failing job with doubling backoff and keeps it as failed with its last error', async () => {
    const jobs = runner({ backoffMs: 5000 });
    let calls = 0;
    jobs.define('test.flaky', {
      maxAttempts: 3,
      handler: async ({ payload, attempt }) => {
        calls += 1;
        expect(attempt).toBe(calls);
        if (calls <= payload.failures) throw new Error(`failure ${calls}`);
      },
    });
    const delay = async () =>
      Number(
        (
          await db.query<{ s: number }>(
            `select extract(epoch from run_at - updated_at)::float8 as s from jobs where state = 'pending'`,
          )
        ).rows[0]!.s,
      );

    await jobs.enqueue('test.flaky', { failures: 5 });
    await jobs.drain();
    expect(calls).toBe(1);
    expect(await delay()).toBeCloseTo(5, 2);
    await db.query(`update jobs set run_at = now()`);
    await jobs.drain();
    expect(calls).toBe(2);
    expect(await delay()).toBeCloseTo(10, 2);
    await db.query(`update jobs set run_at = now()`);
    await jobs.drain();
    expect(calls).toBe(3);
    expect(await rows()).toEqual([
      { kind: 'test.flaky', state: 'failed', attempts: 3, last_error: expect.stringContaining('failure 3') },
    ]);
    expect(jobs.attemptFailures.get('test.flaky')).toBe(3);
    expect(await jobs.counts()).toEqual([{ kind: 'test.flaky', state: 'failed', count: 1 }]);

    // A job that fails once and then succeeds is gone.
    await db.query('delete from jobs');
    calls = 0;
    await jobs.enqueue('test.flaky', { failures: 1 });
    await jobs.drain();
    await db.query(`update jobs set run_at = now()`);
    await jobs.drain();
    expect(calls).toBe(2);
    expect(await rows()).toEqual([]);
  });

  it('keeps exactly one pending occurrence of a recurring job across instances', async () => {
    const a = runner();
    const b = runner({}, second);
    let ticks = 0;
    for (const jobs of [a, b]) {
      jobs.define('test.tick', { every: 60_000, handler: async () => void (ticks += 1) });
    }
    await Promise.all([a.start(), b.start(), a.start()]);
    await until(() => ticks === 1);
    await Promise.all([a.drain(), b.drain()]);
    const pending = await db.query<{ in_future: boolean }>(
      `select run_at > now() + interval '50 seconds' as in_future from jobs where kind = 'test.tick'`,
    );
    expect(pending.rows).toEqual([{ in_future: true }]);
    // Starting again (a restart, a third instance) adds no second occurrence.
    await a.stop();
    await a.start();
    expect((await rows()).filter((row) => row.kind === 'test.tick')).toHaveLength(1);
    expect(ticks).toBe(1);
  });

  it('never runs a job twice when two instances claim at once', async () => {
    const seen: number[] = [];
    const byInstance = [0, 0];
    const instances = [runner({ concurrency: 6 }), runner({ concurrency: 6 }, second)];
    instances.forEach((jobs, index) =>
      jobs.define('test.record', {
        handler: async ({ payload }) => {
          seen.push(payload.n);
          byInstance[index]! += 1;
          await new Promise((resolve) => setImmediate(resolve));
        },
      }),
    );
    const count = 150;
    for (let n = 0; n < count; n += 1) await instances[0]!.enqueue('test.record', { n });
    await Promise.all(instances.map((jobs) => jobs.drain()));
    expect(seen.sort((x, y) => x - y)).toEqual([...Array(count).keys()]);
    expect(byInstance[0]! + byInstance[1]!).toBe(count);
    expect(await rows()).toEqual([]);
  });

  it('wakes at once when this instance queues a job, without waiting for the next poll', async () => {
    const jobs = runner({ pollMs: 60_000 });
    const seen: number[] = [];
    jobs.define('test.record', { handler: async ({ payload }) => void seen.push(payload.n) });
    await jobs.start();
    await jobs.enqueue('test.record', { n: 7 });
    await until(() => seen.length === 1, 2000);
  });

  it('on stop lets a running job finish, or hands it back to the queue after the stop timeout', async () => {
    let release: () => void = () => undefined;
    let started = 0;
    let finished = 0;
    const define = (jobs: JobRunner) =>
      jobs.define('test.block', {
        handler: async () => {
          started += 1;
          await new Promise<void>((resolve) => (release = resolve));
          finished += 1;
        },
      });

    const patient = runner({ stopTimeoutMs: 5000 });
    define(patient);
    await patient.start();
    await patient.enqueue('test.block', {});
    await until(() => started === 1);
    const stopping = patient.stop();
    release();
    await stopping;
    expect(finished).toBe(1);
    expect(await rows()).toEqual([]);

    const hasty = runner({ stopTimeoutMs: 50 });
    define(hasty);
    await hasty.start();
    await hasty.enqueue('test.block', {});
    await until(() => started === 2);
    await hasty.stop();
    expect(await rows()).toEqual([{ kind: 'test.block', state: 'pending', attempts: 0, last_error: null }]);
    // The abandoned run finishing late changes nothing; another instance takes the job.
    release();
    await until(() => finished === 2);
    const next = runner({}, second);
    define(next);
    const draining = next.drain();
    await until(() => started === 3);
    release();
    await draining;
    expect(await rows()).toEqual([]);
  });

  it('runs at most its limit of a limited kind at once, and leaves a slot to the kinds without a limit', async () => {
    const jobs = runner({ concurrency: 3, kindLimits: { 'test.bulk': 1, 'test.other-bulk': 2 } });
    const now = { 'test.bulk': 0, 'test.other-bulk': 0 };
    const most = { 'test.bulk': 0, 'test.other-bulk': 0, together: 0 };
    const done: string[] = [];
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    for (const kind of ['test.bulk', 'test.other-bulk'] as const) {
      jobs.define(kind, {
        handler: async ({ payload }) => {
          now[kind] += 1;
          most[kind] = Math.max(most[kind], now[kind]);
          most.together = Math.max(most.together, now['test.bulk'] + now['test.other-bulk']);
          await gate;
          await new Promise((resolve) => setTimeout(resolve, 5));
          now[kind] -= 1;
          done.push(`${kind}:${payload.n}`);
        },
      });
    }
    jobs.define('test.record', { handler: async ({ payload }) => void done.push(`record:${payload.n}`) });
    // Queued first, the bulk jobs would take every slot without their limits.
    await jobs.enqueueMany(
      'test.bulk',
      [0, 1, 2].map((n) => ({ payload: { n } })),
    );
    await jobs.enqueueMany(
      'test.other-bulk',
      [0, 1, 2].map((n) => ({ payload: { n } })),
    );
    await jobs.enqueue('test.record', { n: 0 });
    const draining = jobs.drain();
    // One bulk job (its limit), one other (the limited kinds' two slots of three), and the record in the third.
    await until(() => done.includes('record:0'));
    expect(now).toEqual({ 'test.bulk': 1, 'test.other-bulk': 1 });
    open();
    await draining;
    expect(done).toHaveLength(7);
    expect(most).toMatchObject({ 'test.bulk': 1, together: 2 });
    expect(await rows()).toEqual([]);
  });

  it('takes a job again when the instance running it died (its lease ran out)', async () => {
    const jobs = runner();
    const seen: number[] = [];
    jobs.define('test.record', { handler: async ({ payload }) => void seen.push(payload.n) });
    await jobs.enqueue('test.record', { n: 9 });
    await db.query(
      `update jobs set state = 'running', attempts = 1, locked_by = 'gone', locked_until = now() - interval '1 second'`,
    );
    await jobs.drain();
    expect(seen).toEqual([9]);
    expect(await rows()).toEqual([]);
  });
});
