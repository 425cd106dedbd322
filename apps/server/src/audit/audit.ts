import type { Queryable } from '../db/client.ts';

export interface AuditEntry {
  accountUuid: string | null;
  actorUuid: string | null;
  /** Dotted verb, e.g. `account.update`, `support.access`. */
  action: string;
  /** What was acted on, e.g. `account:<uuid>` or `GET /api/accounts/v1/accounts/:id`. */
  target: string;
  before?: unknown;
  after?: unknown;
}

/** Appends to the audit log; call it inside the transaction of the change it records. */
export async function writeAudit(q: Queryable, entry: AuditEntry): Promise<void> {
  await q.query(
    `insert into audit_log (account_uuid, actor_uuid, action, target, before, after)
     values ($1, $2, $3, $4, $5::jsonb, $6::jsonb)`,
    [
      entry.accountUuid,
      entry.actorUuid,
      entry.action,
      entry.target,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
    ],
  );
}
