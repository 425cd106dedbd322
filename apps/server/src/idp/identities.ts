import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@portal/contract';
import type { Db, Queryable } from '../db/client.ts';
import { revokeActionTokens } from './action-tokens.ts';

export interface Identity {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  locale: Language;
  createdAt: Date;
}

interface IdentityRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  email_verified: boolean;
  locale: string;
  created_at: Date | string;
}

// Argon2id with the library's defaults (OWASP: m=19 MiB, t=2, p=1).
export const hashPassword = (password: string) => hash(password);

/** A hash to verify against when the email is unknown, so both cases cost the same time. */
let dummyHash: Promise<string> | undefined;

function toIdentity(row: IdentityRow): Identity {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    emailVerified: row.email_verified,
    locale: isLanguage(row.locale) ? row.locale : DEFAULT_LANGUAGE,
    createdAt: new Date(row.created_at),
  };
}

function normaliseEmail(email: string): string {
  return email.trim();
}

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

/** Identity ids are UUIDs: any other subject (an external provider's) names none. */
const UUID = /^[0-9a-f-]{36}$/i;

export async function findIdentityById(db: Queryable, id: string): Promise<Identity | undefined> {
  if (!UUID.test(id)) return undefined;
  const { rows } = await db.query<IdentityRow>('select * from idp_identities where id = $1', [id]);
  return rows[0] && toIdentity(rows[0]);
}

async function findRowByEmail(db: Queryable, email: string): Promise<IdentityRow | undefined> {
  const { rows } = await db.query<IdentityRow>(
    'select * from idp_identities where lower(email) = lower($1)',
    [normaliseEmail(email)],
  );
  return rows[0];
}

export async function findIdentityByEmail(db: Queryable, email: string): Promise<Identity | undefined> {
  const row = await findRowByEmail(db, email);
  return row && toIdentity(row);
}

/** Checks a password; returns the identity when it matches. Costs one argon2 verification either way. */
export async function verifyPassword(
  db: Queryable,
  email: string,
  password: string,
): Promise<{ identity: Identity | undefined; valid: boolean }> {
  const row = await findRowByEmail(db, email);
  if (!row) {
    dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
    await verify(await dummyHash, password).catch(() => false);
    return { identity: undefined, valid: false };
  }
  const valid = await verify(row.password_hash, password).catch(() => false);
  return { identity: toIdentity(row), valid };
}

/** Whether `password` is the identity's current password (one argon2 verification). */
export async function isCurrentPassword(db: Queryable, id: string, password: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const { rows } = await db.query<{ password_hash: string }>(
    'select password_hash from idp_identities where id = $1',
    [id],
  );
  return rows[0] ? verify(rows[0].password_hash, password).catch(() => false) : false;
}

export class EmailTakenError extends Error {
  constructor() {
    super('email already registered');
  }
}

export async function createIdentity(
  db: Db,
  input: { email: string; name: string; password: string; locale: Language; emailVerified?: boolean },
): Promise<Identity> {
  const passwordHash = await hashPassword(input.password);
  const { rows } = await db.query<IdentityRow>(
    `insert into idp_identities (id, email, name, password_hash, email_verified, locale)
     values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning *`,
    [
      crypto.randomUUID(),
      normaliseEmail(input.email),
      input.name.trim(),
      passwordHash,
      input.emailVerified ?? false,
      input.locale,
    ],
  );
  if (!rows[0]) throw new EmailTakenError();
  return toIdentity(rows[0]);
}

/** The identity's name, as the user renamed themselves in the portal; its next tokens carry it. */
export async function setIdentityName(db: Queryable, id: string, name: string): Promise<void> {
  if (!UUID.test(id)) return;
  await db.query('update idp_identities set name = $2, updated_at = now() where id = $1', [id, name]);
}

/** Sets a new password; a reset link sent before it stops working. */
export async function setPassword(db: Queryable, id: string, password: string): Promise<void> {
  await revokeActionTokens(db, 'reset-password', id);
  await db.query('update idp_identities set password_hash = $2, updated_at = now() where id = $1', [
    id,
    await hashPassword(password),
  ]);
}

/** Marks the address verified, only if the identity still has the address the link was sent to. */
export async function markEmailVerified(db: Queryable, id: string, email: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `update idp_identities set email_verified = true, updated_at = now()
     where id = $1 and lower(email) = lower($2)`,
    [id, email],
  );
  return rowCount > 0;
}
