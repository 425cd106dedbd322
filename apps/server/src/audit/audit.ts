import type { Queryable } from '../db/client.ts';

/** The acting person; a `PortalUser` is one (its client address and user agent are set on every request). */
export interface Actor {
  uuid: string;
  clientAddress?: string;
  userAgent?: string;
}

export interface AuditEntry {
  accountUuid: string | null;
  /** Who acted: a signed-in user (with the request's client address), or null for jobs and seeds. */
  actor: Actor | null;
  /** Dotted verb, e.g. `account.update`, `support.access`. */
  action: string;
  /** What was acted on, e.g. `account:<uuid>` or `GET /api/accounts/v1/accounts/:id`. */
  target: string;
  before?: unknown;
  after?: unknown;
  /** When it happened: now unless given (the demo data dates its history). */
  createdAt?: Date;
}

/** Appends to the audit log; call it inside the transaction of the change it records. */
export async function writeAudit(q: Queryable, entry: AuditEntry): Promise<void> {
  await q.query(
    `insert into audit_log (account_uuid, actor_uuid, client_address, user_agent, action, target, before, after, created_at)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, coalesce($9::timestamptz, now()))`,
    [
      entry.accountUuid,
      entry.actor?.uuid ?? null,
      entry.actor?.clientAddress ?? null,
      // Bounded: the header is the client's to choose.
      entry.actor?.userAgent?.slice(0, 512) ?? null,
      entry.action,
      entry.target,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
      entry.createdAt?.toISOString() ?? null,
    ],
  );
}
