import { SOLE_OWNER, type LoginDeletionBody, type LoginDeletionPreview } from '@portal/contract';
import type { Config } from '../../config.ts';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { HttpError, invalidField } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import { endIdentitySessions } from '../../idp/adapter.ts';
import { accountConsoleUrl, confirmCurrentPassword, ownIdentity } from './security.service.ts';

/**
 * The deletion of a person's login (decision 232). What goes: the memberships, pending invitations and transfers,
 * notifications and preferences, exports, the identity in the embedded sign-in service with its sessions, second
 * factors and sign-in history. What stays, with the person's name and address replaced by nothing (the pages then
 * say "Gelöschte Person"): the user row as the author of support messages and tickets and as the actor of the
 * accounts' logs, terms they accepted for an account, and the invoices (the law keeps them 10 years, OR art. 958f),
 * whose recorded mail recipients lose the address.
 */

interface AccountRef {
  uuid: string;
  name: string;
  role: string;
}

async function membershipsOf(q: Queryable, userUuid: string): Promise<AccountRef[]> {
  const { rows } = await q.query<AccountRef>(
    `select a.uuid, a.name, m.role from account_members m join accounts a on a.uuid = m.account_uuid
      where m.user_uuid = $1 and m.invitation_status = 'ACCEPTED' order by a.name, a.uuid`,
    [userUuid],
  );
  return rows;
}

export async function deletionPreview(
  config: Config,
  db: Db,
  user: PortalUser,
): Promise<LoginDeletionPreview> {
  const memberships = await membershipsOf(db, user.uuid);
  return {
    provider: config.oidc.embedded ? 'embedded' : 'external',
    accountConsoleUrl: config.oidc.embedded ? null : accountConsoleUrl(config),
    soleOwnerOf: memberships.filter((m) => m.role === 'OWNER').map(({ uuid, name }) => ({ uuid, name })),
    memberships,
    email: user.email,
  };
}

/** Replaces every string equal to one of `needles` (case-insensitive) with '' in a JSON value; arrays drop them. */
function scrub(value: unknown, needles: string[]): unknown {
  if (typeof value === 'string') return needles.includes(value.toLowerCase()) ? '' : value;
  if (Array.isArray(value)) {
    return value
      .filter((item) => !(typeof item === 'string' && needles.includes(item.toLowerCase())))
      .map((item) => scrub(item, needles));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrub(item, needles)]));
  }
  return value;
}

/** Rewrites the JSON column of the rows `select` finds (by `key`), scrubbed of the needles. */
async function scrubColumn(
  tx: Queryable,
  table: string,
  key: string,
  column: string,
  select: string,
  params: unknown[],
  needles: string[],
): Promise<void> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `select ${key} as key, ${column} as value from ${table} where ${select}`,
    params,
  );
  for (const row of rows) {
    if (row.value === null) continue;
    await tx.query(`update ${table} set ${column} = $2::jsonb where ${key} = $1`, [
      row.key,
      JSON.stringify(scrub(row.value, needles)),
    ]);
  }
}

/**
 * Erases a person from the portal (see the header). Refused while they are the only owner of an account (409
 * SOLE_OWNER). `identityId`: the embedded sign-in service's identity, deleted with it (null with an external
 * Keycloak, which keeps its own). Idempotent.
 */
export async function erasePerson(
  tx: Queryable,
  user: Pick<PortalUser, 'uuid' | 'email' | 'name'> &
    Partial<Pick<PortalUser, 'clientAddress' | 'userAgent'>>,
  identityId: string | null,
): Promise<void> {
  // The row lock orders the deletion after a transfer of ownership or an invitation being accepted.
  await tx.query('select uuid from users where uuid = $1 for update', [user.uuid]);
  const memberships = await membershipsOf(tx, user.uuid);
  const owned = memberships.filter((m) => m.role === 'OWNER');
  if (owned.length) {
    throw new HttpError(
      409,
      SOLE_OWNER,
      'You are the only owner of an account: transfer its ownership first',
      {
        accounts: owned.map((m) => m.uuid).join(','),
      },
    );
  }
  for (const membership of memberships) {
    await writeAudit(tx, {
      accountUuid: membership.uuid,
      actor: { uuid: user.uuid, clientAddress: user.clientAddress, userAgent: user.userAgent },
      action: 'member.leave',
      target: `user:${user.uuid}`,
      before: { role: membership.role },
      after: { reason: 'login deleted' },
    });
  }
  const needles = [user.email, user.name].map((s) => s.trim().toLowerCase()).filter((s) => s.length > 0);
  // The accounts' records keep what happened, without the person's name and address: this transaction alone may
  // change an entry's before and after (migration 034; nothing else of an entry, and no other transaction).
  if (needles.length) {
    await tx.query(`select set_config('portal.audit_erasure', 'on', true)`);
    await scrubColumn(
      tx,
      'audit_log',
      'id',
      'before',
      'lower(before::text) like any($1::text[])',
      [needles.map((n) => `%${n}%`)],
      needles,
    );
    await scrubColumn(
      tx,
      'audit_log',
      'id',
      'after',
      'lower(after::text) like any($1::text[])',
      [needles.map((n) => `%${n}%`)],
      needles,
    );
    await scrubColumn(
      tx,
      'invoices',
      'uuid',
      'billed_to',
      'lower(billed_to::text) like $1',
      [`%${needles[0]}%`],
      needles,
    );
    await scrubColumn(
      tx,
      'billing_details',
      'account_uuid',
      'recipients',
      'lower(recipients::text) like $1',
      [`%${needles[0]}%`],
      needles,
    );
  }
  const byUser = [
    'delete from account_members where user_uuid = $1',
    "delete from ownership_transfers where (from_user_uuid = $1 or to_user_uuid = $1) and status = 'PENDING'",
    'delete from notifications where user_uuid = $1',
    'delete from notification_preferences where user_uuid = $1',
    'delete from data_exports where user_uuid = $1',
    'delete from idempotency_keys where user_uuid = $1',
    'delete from abaclik_devices where user_uuid = $1',
    'delete from abaclik_codes where user_uuid = $1',
    'delete from lesson_progress where user_uuid = $1',
    'delete from two_factor_reminders where user_uuid = $1',
  ];
  for (const sql of byUser) await tx.query(sql, [user.uuid]);
  if (user.email) {
    await tx.query("delete from invitations where lower(email) = lower($1) and status = 'PENDING'", [
      user.email,
    ]);
    await tx.query("update invitations set email = '', note = null where lower(email) = lower($1)", [
      user.email,
    ]);
  }
  await tx.query(
    `update users set name = '', email = '', provider_name = null, email_verified = false, deleted_at = now(),
            updated_at = now()
      where uuid = $1`,
    [user.uuid],
  );
  if (identityId) {
    // Every session and grant ends; the identity's second factors, passkeys and sign-ins go with it (cascade).
    await endIdentitySessions(tx, identityId);
    await tx.query('delete from idp_identities where id = $1', [identityId]);
  }
}

/**
 * The person deletes their own login: the current password and their address typed again; refused while they are
 * the only owner of an account. With an external Keycloak the login is deleted in its account console
 * (409 SIGN_IN_MANAGED_EXTERNALLY from ownIdentity).
 */
export async function deleteOwnLogin(
  deps: { db: Db; config: Config },
  user: PortalUser,
  body: LoginDeletionBody,
): Promise<void> {
  const identity = await ownIdentity(deps, user);
  if (body.confirmation.trim().toLowerCase() !== user.email.trim().toLowerCase()) {
    throw invalidField('confirmation', 'mismatch');
  }
  await confirmCurrentPassword(deps, user, identity, body.password, 'password');
  await deps.db.transaction((tx) => erasePerson(tx, user, identity.id));
}
