import crypto from 'node:crypto';
import type { Db, Queryable } from '../db/client.ts';

export type ActionKind = 'verify-email' | 'reset-password' | 'email-change';

/** Lifetimes of mailed links, in seconds. */
export const ACTION_TTL: Record<ActionKind, number> = {
  'verify-email': 12 * 60 * 60,
  'reset-password': 30 * 60,
  'email-change': 24 * 60 * 60,
};

const digest = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export interface ActionTokenUse {
  identityId: string;
  email: string;
  /** Email-change links: the address the identity had when the change was asked for. */
  previousEmail?: string;
}

/** Ends every link of `kind` the identity was sent so far: only the newest link may work. */
export async function revokeActionTokens(db: Queryable, kind: ActionKind, identityId: string): Promise<void> {
  await db.query(
    `update idp_action_tokens set expires_at = now()
     where identity_id = $1 and kind = $2 and used_at is null and expires_at > now()`,
    [identityId, kind],
  );
}

/** Creates a one-time token for a mailed link, ending the earlier ones of its kind; only its hash is stored. */
export async function createActionToken(
  db: Db,
  kind: ActionKind,
  identity: { id: string; email: string },
  /** An email change: the address the identity has now (the link goes to the new one, `identity.email`). */
  previousEmail?: string,
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await revokeActionTokens(db, kind, identity.id);
  await db.query(
    `insert into idp_action_tokens (token_hash, kind, identity_id, email, expires_at, previous_email)
     values ($1, $2, $3, $4, now() + make_interval(secs => $5::float8), $6)`,
    [digest(token), kind, identity.id, identity.email, ACTION_TTL[kind], previousEmail ?? null],
  );
  return token;
}

/** Whether a link of this kind was sent to the identity within the last `seconds` (mail flood guard). */
export async function sentRecently(db: Db, kind: ActionKind, identityId: string, seconds: number) {
  const { rows } = await db.query(
    `select 1 from idp_action_tokens where identity_id = $1 and kind = $2
     and created_at > now() - make_interval(secs => $3::float8) limit 1`,
    [identityId, kind, seconds],
  );
  return rows.length > 0;
}

/** A token that still works: unused and unexpired. */
const LIVE_TOKEN = 'token_hash = $1 and kind = $2 and used_at is null and expires_at > now()';

/** The owner of the token that `sql` (on {@link LIVE_TOKEN}) finds. */
async function tokenOwner(
  db: Queryable,
  sql: string,
  kind: ActionKind,
  token: string,
): Promise<ActionTokenUse | undefined> {
  const { rows } = await db.query<{ identity_id: string; email: string; previous_email: string | null }>(
    sql,
    [digest(token), kind],
  );
  const row = rows[0];
  return (
    row && { identityId: row.identity_id, email: row.email, previousEmail: row.previous_email ?? undefined }
  );
}

/** The token's owner when it is unused and unexpired, without using it up. */
export const peekActionToken = (db: Queryable, kind: ActionKind, token: string) =>
  tokenOwner(
    db,
    `select identity_id, email, previous_email from idp_action_tokens where ${LIVE_TOKEN}`,
    kind,
    token,
  );

/** Uses the token up (atomically: a second use finds nothing). */
export const consumeActionToken = (db: Queryable, kind: ActionKind, token: string) =>
  tokenOwner(
    db,
    `update idp_action_tokens set used_at = now() where ${LIVE_TOKEN} returning identity_id, email, previous_email`,
    kind,
    token,
  );
