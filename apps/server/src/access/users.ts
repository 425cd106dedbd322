// The portal user behind an access token: provisioned on first sight by the authenticate hook, read by areas.
import crypto from 'node:crypto';
import { DEFAULT_LANGUAGE, isLanguage, type Language, type UserRole } from '@portal/contract';
import type { Queryable } from '../db/client.ts';
import type { PortalUser } from '../http/types.ts';

export interface UserRow {
  uuid: string;
  subject: string;
  email: string;
  name: string;
  user_role: UserRole;
  language: string;
  email_verified: boolean;
  created_at: Date;
}

/** The columns of a `UserRow`, for `select` and `returning`. */
export const USER_COLUMNS = 'uuid, subject, email, name, user_role, language, email_verified, created_at';

export function toPortalUser(row: UserRow): PortalUser {
  return {
    uuid: row.uuid,
    subject: row.subject,
    email: row.email,
    name: row.name,
    userRole: row.user_role,
    language: row.language,
    emailVerified: row.email_verified,
    createdAt: new Date(row.created_at),
  };
}

/** The identity facts a verified access token carries about its subject. */
export interface TokenIdentity {
  subject: string;
  email?: string;
  name?: string;
  emailVerified?: boolean;
  locale?: string;
}

/** `de-CH` → `de`; a locale in none of the interface languages falls back to the default language, German. */
function languageOf(locale: string | undefined): Language {
  const base = locale?.toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : DEFAULT_LANGUAGE;
}

/**
 * Finds the portal user of a token subject, creating it on first sight; email, name and verification follow the
 * identity provider (the language is the user's own choice after creation).
 */
export async function provisionUser(q: Queryable, identity: TokenIdentity): Promise<PortalUser> {
  const found = await q.query<UserRow>(`select ${USER_COLUMNS} from users where subject = $1`, [
    identity.subject,
  ]);
  let row = found.rows[0];
  if (!row) {
    const inserted = await q.query<UserRow>(
      `insert into users (uuid, subject, email, name, language, email_verified) values ($1, $2, $3, $4, $5, $6)
       on conflict (subject) do nothing returning ${USER_COLUMNS}`,
      [
        crypto.randomUUID(),
        identity.subject,
        identity.email ?? '',
        identity.name ?? '',
        languageOf(identity.locale),
        identity.emailVerified ?? false,
      ],
    );
    // A concurrent first request may have inserted it.
    row =
      inserted.rows[0] ??
      (await q.query<UserRow>(`select ${USER_COLUMNS} from users where subject = $1`, [identity.subject]))
        .rows[0]!;
    return toPortalUser(row);
  }
  const email = identity.email ?? row.email;
  const name = identity.name ?? row.name;
  const emailVerified = identity.emailVerified ?? row.email_verified;
  if (email !== row.email || name !== row.name || emailVerified !== row.email_verified) {
    const updated = await q.query<UserRow>(
      `update users set email = $2, name = $3, email_verified = $4, updated_at = now() where uuid = $1
       returning ${USER_COLUMNS}`,
      [row.uuid, email, name, emailVerified],
    );
    row = updated.rows[0] ?? row;
  }
  return toPortalUser(row);
}
