import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { freshDatabase, type Backend } from '../test/api.ts';
import { defineFailedJobPurge, purgeFailedJobs } from './retention.ts';
import { JobRunner } from './runner.ts';

const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

describe.each(BACKENDS)('failed jobs retention on %s', (backend) => {
  let db: Db;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await freshDatabase(backend));
  });
  afterAll(() => drop());

  /** Jobs of kind `kind` in `state`, last changed `days` ago. */
  const insert = (kind: string, state: string, days: number, count = 1) =>
    db.query(
      `insert into jobs (kind, state, max_attempts, last_error, updated_at)
       select $1, $2, 1, 'boom', now() - make_interval(days => $3::int) from generate_series(1, $4::int)`,
      [kind, state, days, count],
    );
  const kinds = async () =>
    (await db.query<{ kind: string }>(`select kind from jobs order by kind`)).rows.map((r) => r.kind);

  it('deletes failed jobs past the retention in small batches, and nothing else', async () => {
    await db.query('delete from jobs');
    await insert('old.failed', 'failed', 31, 5);
    await insert('young.failed', 'failed', 29);
    await insert('old.pending', 'pending', 400);
    let transactions = 0;
    const counting: Db = {
      ...db,
      transaction: (fn) => {
        transactions += 1;
        return db.transaction(fn);
      },
    };
    expect(await purgeFailedJobs(counting, { batchSize: 2 })).toBe(5);
    expect(transactions).toBe(3);
    expect(await kinds()).toEqual(['old.pending', 'young.failed']);
    expect(await purgeFailedJobs(db)).toBe(0);
  });

  it('runs as an hourly recurring job on the runner', async () => {
    await db.query('delete from jobs');
    await insert('old.failed', 'failed', 45);
    const runner = new JobRunner(db, { pollMs: 20 });
    defineFailedJobPurge(runner, db);
    await runner.start();
    try {
      await runner.drain();
      const { rows } = await db.query<{ kind: string; state: string; in_minutes: number }>(
        `select kind, state, round(extract(epoch from run_at - now()) / 60)::int as in_minutes from jobs`,
      );
      // The old failed job is gone; the next run is queued an hour ahead.
      expect(rows).toEqual([{ kind: 'jobs.purge-failed', state: 'pending', in_minutes: 60 }]);
    } finally {
      await runner.stop();
    }
  });
});
