import type { Db } from '../db/client.ts';
import type { JobRunner } from './runner.ts';

declare module './runner.ts' {
  interface JobKinds {
    'jobs.purge-failed': Record<string, never>;
  }
}

/**
 * A job that ran out of attempts stays in the queue as failed, with its last error, so that it can be looked
 * into; after this many days it is deleted. (A job that succeeds is deleted at once by the runner.)
 */
export const FAILED_JOB_RETENTION_DAYS = 30;

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface FailedJobPurgeOptions {
  /** Failed jobs whose last attempt is older than this many days go (default FAILED_JOB_RETENTION_DAYS). */
  olderThanDays?: number;
  /** Jobs deleted per transaction; small, so the queue is never locked for long. */
  batchSize?: number;
}

/**
 * Deletes failed jobs past the retention, oldest first, in small batches, each in its own short transaction,
 * until none is left. Pending and running jobs are never touched. Returns how many went.
 */
export async function purgeFailedJobs(db: Db, options: FailedJobPurgeOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? 500;
  const days = options.olderThanDays ?? FAILED_JOB_RETENTION_DAYS;
  let total = 0;
  for (;;) {
    const deleted = await db.transaction(async (tx) => {
      // skip locked: a row another instance's purge is deleting right now is left to it.
      const result = await tx.query(
        `delete from jobs where id in (
           select id from jobs where state = 'failed' and updated_at < now() - make_interval(days => $1::int)
            order by updated_at, id limit $2 for update skip locked)`,
        [days, batchSize],
      );
      return result.rowCount;
    });
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** The purge as a recurring job: one instance runs it every hour. */
export function defineFailedJobPurge(jobs: JobRunner, db: Db): void {
  jobs.define('jobs.purge-failed', {
    every: PURGE_INTERVAL_MS,
    handler: async ({ log }) => {
      const deleted = await purgeFailedJobs(db);
      if (deleted)
        log.info({ jobs: deleted, days: FAILED_JOB_RETENTION_DAYS }, 'purged failed jobs past the retention');
    },
  });
}
