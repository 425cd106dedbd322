import type { Db, Queryable } from '../db/client.ts';
import { allowAuditPurge } from '../db/audit-purge.ts';
import type { RetentionConfig } from '../config.ts';
import type { JobRunner } from './runner.ts';

declare module './runner.ts' {
  interface JobKinds {
    'retention.purge': Record<string, never>;
  }
}

// The one retention job (decision 242): every entry of the configured table (config/retention.ts) is one rule
// here, and every rule is applied the same way — what is older than its days goes, oldest first, in small batches,
// each its own short transaction. Accounts past their deletion date are the accounts area's own job
// (modules/accounts), as they are one account per transaction with the invoices kept.

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface RetentionRule {
  /** The entry of the retention table that gives the days. */
  setting: keyof RetentionConfig;
  table: string;
  /** The row's key (what the batch selects and deletes by). */
  key: string;
  /** The instant the age is counted from. */
  time: string;
  /** Further condition on the rows, in SQL over the table's columns; may be found from the database. */
  where?: string | ((q: Queryable) => Promise<string>);
  /** Runs first in every batch's transaction with the cut-off (the log's purge door, decision 097). */
  prepare?: (tx: Queryable, cutoff: string) => Promise<void>;
}

/**
 * A deleted person's emptied user row (decision 232) stays while anything points at it that the database would
 * refuse to lose (a reference without `on delete`), or whose page would no longer say "Gelöschte Person": the log's
 * actor, the support messages' author, the tickets' creator. Found from the database's own foreign keys, so a new
 * reference to users is covered without touching this list.
 */
const KEPT_WHEN_NULLED = new Set([
  'audit_log.actor_uuid',
  'support_messages.author_uuid',
  'support_tickets.created_by',
]);

async function deletedPersonUnreferenced(q: Queryable): Promise<string> {
  const { rows } = await q.query<{ tbl: string; col: string; on_delete: string }>(
    `select c.conrelid::regclass::text as tbl, a.attname::text as col, c.confdeltype::text as on_delete
       from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
      where c.contype = 'f' and c.confrelid = 'users'::regclass
      order by 1, 2`,
  );
  const blocking = rows.filter(
    (row) =>
      (row.on_delete !== 'c' && row.on_delete !== 'n') || KEPT_WHEN_NULLED.has(`${row.tbl}.${row.col}`),
  );
  return [
    'deleted_at is not null',
    ...blocking.map((row) => `not exists (select 1 from ${row.tbl} r where r."${row.col}" = users.uuid)`),
  ].join(' and ');
}

export const RETENTION_RULES: readonly RetentionRule[] = [
  {
    setting: 'auditLogDays',
    table: 'audit_log',
    key: 'id',
    time: 'created_at',
    prepare: allowAuditPurge,
  },
  { setting: 'signInsDays', table: 'idp_sign_ins', key: 'id', time: 'created_at' },
  { setting: 'notificationsDays', table: 'notifications', key: 'id', time: 'created_at' },
  { setting: 'outboxDays', table: 'mail_outbox', key: 'id', time: 'created_at' },
  // The export's documents are in its row; the files it names belong to their tickets and stay.
  { setting: 'exportsDays', table: 'data_exports', key: 'uuid', time: 'requested_at' },
  {
    setting: 'deletedPersonsDays',
    table: 'users',
    key: 'uuid',
    time: 'deleted_at',
    where: deletedPersonUnreferenced,
  },
  // A job that succeeds is deleted at once by the runner; one that ran out of attempts stays to be looked into.
  { setting: 'failedJobsDays', table: 'jobs', key: 'id', time: 'updated_at', where: `state = 'failed'` },
];

export interface PurgeOptions {
  /** Rows deleted per transaction; small, so no table is locked for long. */
  batchSize?: number;
}

/**
 * Deletes the rule's rows older than `days`, oldest first, in small batches, each in its own short transaction
 * (`for update skip locked`: a row another instance is deleting right now is left to it), until a batch comes
 * back short. The cut-off is the database's clock, taken once. Returns how many went.
 */
export async function purgeExpired(
  db: Db,
  rule: RetentionRule,
  days: number,
  options: PurgeOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 500;
  const { rows } = await db.query<{ cutoff: string }>(
    `select (now() - make_interval(days => $1::int))::text as cutoff`,
    [days],
  );
  const cutoff = rows[0]!.cutoff;
  const where = typeof rule.where === 'function' ? await rule.where(db) : (rule.where ?? 'true');
  const { table, key, time } = rule;
  let total = 0;
  for (;;) {
    const deleted = await db.transaction(async (tx) => {
      await rule.prepare?.(tx, cutoff);
      const result = await tx.query(
        `delete from ${table} where ${key} in (
           select ${key} from ${table} where ${time} < $1::timestamptz and (${where})
            order by ${time}, ${key} limit $2 for update skip locked)`,
        [cutoff, batchSize],
      );
      return result.rowCount;
    });
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** Applies every rule of the table; answers how many rows each removed (only those that removed any). */
export async function applyRetention(
  db: Db,
  retention: RetentionConfig,
  options: PurgeOptions = {},
): Promise<Partial<Record<keyof RetentionConfig, number>>> {
  const removed: Partial<Record<keyof RetentionConfig, number>> = {};
  for (const rule of RETENTION_RULES) {
    const count = await purgeExpired(db, rule, retention[rule.setting], options);
    if (count) removed[rule.setting] = count;
  }
  return removed;
}

/** The retention as a recurring job: one instance applies it every hour (what is gone already is a no-op). */
export function defineRetention(jobs: JobRunner, db: Db, retention: RetentionConfig): void {
  jobs.define('retention.purge', {
    every: PURGE_INTERVAL_MS,
    handler: async ({ log }) => {
      const removed = await applyRetention(db, retention);
      if (Object.keys(removed).length) log.info({ removed, retention }, 'removed what is past the retention');
    },
  });
}
