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

/**
 * A user row with the last name the identity provider gave (and when) and the last sign-in, which provisioning
 * compares against.
 */
interface ProvisionRow extends UserRow {
  provider_name: string | null;
  provider_name_at: Date | null;
  last_sign_in_at: Date | null;
  deleted_at: Date | null;
}
const PROVISION_COLUMNS = `${USER_COLUMNS}, provider_name, provider_name_at, last_sign_in_at, deleted_at`;

/** The token's subject is a login its person deleted (decision 232): a token issued before is refused. */
export class DeletedLoginError extends Error {
  constructor() {
    super('This login was deleted');
    this.name = 'DeletedLoginError';
  }
}

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
  /** When the token was issued (its `iat`). */
  issuedAt?: Date;
  /** When the user signed in (its `auth_time`), if the token says. */
  signedInAt?: Date;
}

/** `de-CH` → `de`; a locale in none of the interface languages falls back to the default language, German. */
function languageOf(locale: string | undefined): Language {
  const base = locale?.toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : DEFAULT_LANGUAGE;
}

/**
 * Whether a token's name replaces the portal's: the user's own choice stays until the provider changes the name
 * (the token's name differs from the provider's name seen last), and a token issued before that sighting (another
 * tab's older token) changes nothing. The newer change wins.
 */
function takesProviderName(row: ProvisionRow, identity: TokenIdentity): boolean {
  if (identity.name === undefined || identity.name === row.provider_name) return false;
  const seenAt = row.provider_name_at;
  return !seenAt || !identity.issuedAt || identity.issuedAt >= new Date(seenAt);
}

/**
 * Finds the portal user of a token subject, creating it on first sight. The identity provider owns the email
 * address and its verification: they follow every token. The name is the user's own (see `takesProviderName`);
 * the language is the user's own choice after creation. The last sign-in (shown in the members list) is the
 * token's sign-in time, or without one its issue time (a sign-in or a refresh, so at most one token lifetime off);
 * it only moves forward. A request whose token brings nothing new writes nothing.
 */
export async function provisionUser(q: Queryable, identity: TokenIdentity): Promise<PortalUser> {
  const signedInAt = identity.signedInAt ?? identity.issuedAt ?? null;
  // Every authenticated request reads this row: the database keeps the statement prepared (decisions 254, 257).
  const found = await q.query<ProvisionRow>(
    `select ${PROVISION_COLUMNS} from users where subject = $1`,
    [identity.subject],
    { prepare: 'portal_user_by_subject' },
  );
  let row = found.rows[0];
  if (row?.deleted_at) throw new DeletedLoginError();
  if (!row) {
    const inserted = await q.query<UserRow>(
      `insert into users (uuid, subject, email, name, language, email_verified, provider_name, provider_name_at,
                          last_sign_in_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (subject) do nothing returning ${USER_COLUMNS}`,
      [
        crypto.randomUUID(),
        identity.subject,
        identity.email ?? '',
        identity.name ?? '',
        languageOf(identity.locale),
        identity.emailVerified ?? false,
        identity.name ?? null,
        identity.name === undefined ? null : (identity.issuedAt ?? null),
        signedInAt,
      ],
    );
    // A concurrent first request may have inserted it.
    return toPortalUser(
      inserted.rows[0] ??
        (await q.query<UserRow>(`select ${USER_COLUMNS} from users where subject = $1`, [identity.subject]))
          .rows[0]!,
    );
  }
  const email = identity.email ?? row.email;
  const emailVerified = identity.emailVerified ?? row.email_verified;
  const newName = takesProviderName(row, identity);
  const newSignIn = signedInAt !== null && (!row.last_sign_in_at || row.last_sign_in_at < signedInAt);
  if (email !== row.email || emailVerified !== row.email_verified || newName || newSignIn) {
    const updated = await q.query<ProvisionRow>(
      `update users set email = $2, email_verified = $3, updated_at = now(),
              name = coalesce($4, name), provider_name = coalesce($4, provider_name),
              provider_name_at = case when $4::text is null then provider_name_at else $5::timestamptz end,
              last_sign_in_at = greatest(last_sign_in_at, $6::timestamptz)
        where uuid = $1 returning ${PROVISION_COLUMNS}`,
      [
        row.uuid,
        email,
        emailVerified,
        newName ? identity.name! : null,
        identity.issuedAt ?? null,
        signedInAt,
      ],
    );
    row = updated.rows[0] ?? row;
  }
  return toPortalUser(row);
}
