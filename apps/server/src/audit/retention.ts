import type { Db } from '../db/client.ts';
import type { JobRunner } from '../jobs/runner.ts';

declare module '../jobs/runner.ts' {
  interface JobKinds {
    'audit.purge': Record<string, never>;
  }
}

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface PurgeOptions {
  /** Entries older than this many days go (AUDIT_RETENTION_DAYS). */
  retentionDays: number;
  /** Entries deleted per transaction; small, so no lock is held for long. */
  batchSize?: number;
  /** The instant the age is measured from (tests); the database's clock by default. */
  now?: Date;
}

/**
 * The retention purge of the audit log: deletes entries older than the retention, oldest first, in small batches,
 * each in its own short transaction, until none is left. The log's trigger refuses every DELETE except in a
 * transaction that set `portal.audit_purge_before` locally (it ends with the transaction), and even then only
 * entries older than that instant and older than 30 days. Only this function sets it. Returns how many went.
 */
export async function purgeAuditLog(db: Db, options: PurgeOptions): Promise<number> {
  const batchSize = options.batchSize ?? 1_000;
  const { rows } = await db.query<{ cutoff: string }>(
    `select (coalesce($1::timestamptz, now()) - make_interval(days => $2::int))::text as cutoff`,
    [options.now?.toISOString() ?? null, options.retentionDays],
  );
  const cutoff = rows[0]!.cutoff;
  let total = 0;
  for (;;) {
    const deleted = await db.transaction(async (tx) => {
      await tx.query(`select set_config('portal.audit_purge_before', $1, true)`, [cutoff]);
      // skip locked: an entry another purge is deleting right now is left to it.
      const result = await tx.query(
        `delete from audit_log where id in (
           select id from audit_log where created_at < $1::timestamptz
            order by created_at, id limit $2 for update skip locked)`,
        [cutoff, batchSize],
      );
      return result.rowCount;
    });
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** The purge as a recurring job: one instance runs it every hour (deleting what is already gone is a no-op). */
export function defineAuditPurge(jobs: JobRunner, db: Db, retentionDays: number): void {
  jobs.define('audit.purge', {
    every: PURGE_INTERVAL_MS,
    handler: async ({ log }) => {
      const deleted = await purgeAuditLog(db, { retentionDays });
      if (deleted)
        log.info({ entries: deleted, retentionDays }, 'purged audit log entries past the retention');
    },
  });
}
