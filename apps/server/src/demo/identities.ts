import type { Db } from '../db/client.ts';
import { hashPassword } from '../idp/identities.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './users.ts';

/** Idempotent: every demo login (users.ts) with the demo password, its verified flag and language. */
export async function seedDemoIdentities(db: Db): Promise<void> {
  const users = Object.values(DEMO_USERS);
  const { rows } = await db.query<{ id: string }>(
    'select id from idp_identities where id = any($1::uuid[])',
    [users.map((user) => user.id)],
  );
  const existing = new Set(rows.map((row) => row.id));
  const missing = users.filter((user) => !existing.has(user.id));
  if (missing.length === 0) return;
  // One hash for all: they share the (public, demo-only) password anyway.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const user of missing) {
    await db.query(
      `insert into idp_identities (id, email, name, password_hash, email_verified, locale)
       values ($1, $2, $3, $4, $5, $6) on conflict do nothing`,
      [user.id, user.email, user.name, passwordHash, user.emailVerified, user.language],
    );
  }
}
