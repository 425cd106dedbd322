import { DEFAULT_LANGUAGE, isLanguage, type Account, type UpdateMeBody, type User } from '@portal/contract';
import { listAccountsOf } from '../../access/accounts.ts';
import { answerInvitation as answerInvitationOf } from '../../access/invitations.ts';
import { USER_COLUMNS, toPortalUser, type UserRow } from '../../access/users.ts';
import { writeAudit } from '../../audit/audit.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import { cleanName } from '../../http/validation.ts';
import { setIdentityName } from '../../idp/identities.ts';

/**
 * The name the user chose in the portal, stored. With the embedded sign-in service the user's identity there takes
 * it too, so its next token, its account endpoint and the portal agree; that makes it the provider's name as of
 * now (this process's clock, which issues the tokens), so tokens issued before carry no change. An external
 * provider keeps its own name.
 */
async function setOwnName(
  q: Queryable,
  user: PortalUser,
  name: string,
  options: { embeddedSignIn: boolean },
): Promise<PortalUser> {
  const { rows } = options.embeddedSignIn
    ? await q.query<UserRow>(
        `update users set name = $2, provider_name = $2, provider_name_at = $3, updated_at = now()
          where uuid = $1 returning ${USER_COLUMNS}`,
        [user.uuid, name, new Date()],
      )
    : await q.query<UserRow>(
        `update users set name = $2, updated_at = now() where uuid = $1 returning ${USER_COLUMNS}`,
        [user.uuid, name],
      );
  if (options.embeddedSignIn) await setIdentityName(q, user.subject, name);
  return toPortalUser(rows[0]!);
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

/**
 * Changes the signed-in user's name and language. The name is the user's own from now on: later tokens keep it
 * until the identity provider changes the name there (see provisionUser); with the embedded sign-in service its
 * identity takes the name too.
 */
export async function updateMe(
  db: Db,
  user: PortalUser,
  body: UpdateMeBody,
  options: { embeddedSignIn: boolean },
): Promise<User> {
  return db.transaction(async (tx) => {
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    // The form refuses a blank name; so does the API.
    const name = body.name === undefined ? undefined : cleanName(body.name);
    if (name !== undefined && name !== user.name) [before.name, after.name] = [user.name, name];
    if (body.language !== undefined && body.language !== user.language) {
      [before.language, after.language] = [user.language, body.language];
    }
    if (!Object.keys(after).length) return toUser(user);
    let updated = user;
    if (name !== undefined && 'name' in after) updated = await setOwnName(tx, updated, name, options);
    if ('language' in after) {
      const { rows } = await tx.query<UserRow>(
        `update users set language = $2, updated_at = now() where uuid = $1 returning ${USER_COLUMNS}`,
        [user.uuid, after.language],
      );
      updated = toPortalUser(rows[0]!);
    }
    await writeAudit(tx, {
      accountUuid: null,
      actor: user,
      action: 'user.update',
      target: `user:${user.uuid}`,
      before,
      after,
    });
    return toUser(updated);
  });
}

export function listMyAccounts(db: Db, user: PortalUser): Promise<Account[]> {
  return listAccountsOf(db, user);
}

/** Accepts or declines the caller's own open invitation to an account (the invitation model is in access/). */
export async function answerInvitation(
  db: Db,
  user: PortalUser,
  accountUuid: string,
  answer: 'ACCEPTED' | 'DECLINED',
  notifier: Notifier,
): Promise<Account | null> {
  return db.transaction(async (tx) => {
    await answerInvitationOf(tx, user, { accountUuid }, answer, notifier);
    if (answer === 'DECLINED') return null;
    return (await listAccountsOf(tx, user)).find((account) => account.uuid === accountUuid) ?? null;
  });
}

/**
 * The caller leaves an account they are a member of. The owner cannot: an account always has one, so they transfer
 * the ownership first. An open invitation is no membership (it is declined, not left).
 */
export async function leaveAccount(db: Db, user: PortalUser, accountUuid: string): Promise<void> {
  await db.transaction(async (tx) => {
    // The account's row lock orders leaving after a transfer of ownership that is being accepted.
    await tx.query('select uuid from accounts where uuid = $1 for update', [accountUuid]);
    const { rows } = await tx.query<{ role: string }>(
      'select role from account_members where account_uuid = $1 and user_uuid = $2 for update',
      [accountUuid, user.uuid],
    );
    const member = rows[0];
    if (!member) throw notFound('You are not a member of this account');
    if (member.role === 'OWNER') {
      throw conflict('The owner cannot leave the account; transfer the ownership to an admin first');
    }
    await tx.query('delete from account_members where account_uuid = $1 and user_uuid = $2', [
      accountUuid,
      user.uuid,
    ]);
    await writeAudit(tx, {
      accountUuid,
      actor: user,
      action: 'member.leave',
      target: `user:${user.uuid}`,
      before: { role: member.role },
      after: null,
    });
  });
}
