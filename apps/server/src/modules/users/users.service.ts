import crypto from 'node:crypto';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  type Account,
  type Language,
  type UpdateMeBody,
  type User,
  type UserRole,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/client.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { cleanName, listAccountsOf } from '../accounts/accounts.service.ts';

interface UserRow {
  uuid: string;
  subject: string;
  email: string;
  name: string;
  user_role: UserRole;
  language: string;
  email_verified: boolean;
  created_at: Date;
}

const USER_COLUMNS = 'uuid, subject, email, name, user_role, language, email_verified, created_at';

function toPortalUser(row: UserRow): PortalUser {
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

export function toUser(user: PortalUser): User {
  return {
    uuid: user.uuid,
    email: user.email,
    name: user.name,
    userRole: user.userRole,
    language: isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt.toISOString(),
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

/** `de-CH` → `de`; unknown locales fall back to German (SPEC §9). */
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

export async function updateMe(db: Db, user: PortalUser, body: UpdateMeBody): Promise<User> {
  return db.transaction(async (tx) => {
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    // The form refuses a blank name; so does the API (the schema only sees the untrimmed length).
    const name = body.name === undefined ? undefined : cleanName(body.name);
    if (name !== undefined && name !== user.name) [before.name, after.name] = [user.name, name];
    if (body.language !== undefined && body.language !== user.language) {
      [before.language, after.language] = [user.language, body.language];
    }
    if (!Object.keys(after).length) return toUser(user);
    const { rows } = await tx.query<UserRow>(
      `update users set name = coalesce($2, name), language = coalesce($3, language), updated_at = now()
        where uuid = $1 returning ${USER_COLUMNS}`,
      [user.uuid, after.name ?? null, after.language ?? null],
    );
    await writeAudit(tx, {
      accountUuid: null,
      actorUuid: user.uuid,
      action: 'user.update',
      target: `user:${user.uuid}`,
      before,
      after,
    });
    return toUser(toPortalUser(rows[0]!));
  });
}

export function listMyAccounts(db: Db, user: PortalUser): Promise<Account[]> {
  return listAccountsOf(db, user);
}

/** Accepts or declines the caller's own pending invitation. */
export async function answerInvitation(
  db: Db,
  user: PortalUser,
  accountUuid: string,
  answer: 'ACCEPTED' | 'DECLINED',
): Promise<Account | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ invitation_status: string }>(
      'select invitation_status from account_members where account_uuid = $1 and user_uuid = $2 for update',
      [accountUuid, user.uuid],
    );
    const status = rows[0]?.invitation_status;
    if (!status || status === 'DECLINED') throw notFound('No invitation to this account');
    if (status !== 'PENDING') throw conflict('The invitation has already been accepted');
    await tx.query(
      `update account_members set invitation_status = $3, accepted_at = case when $3 = 'ACCEPTED' then now() end
        where account_uuid = $1 and user_uuid = $2`,
      [accountUuid, user.uuid, answer],
    );
    await writeAudit(tx, {
      accountUuid,
      actorUuid: user.uuid,
      action: answer === 'ACCEPTED' ? 'invitation.accept' : 'invitation.decline',
      target: `user:${user.uuid}`,
      before: { invitationStatus: 'PENDING' },
      after: { invitationStatus: answer },
    });
    if (answer === 'DECLINED') return null;
    return (await listAccountsOf(tx, user)).find((account) => account.uuid === accountUuid) ?? null;
  });
}
