import crypto from 'node:crypto';
import {
  ACCOUNT_DELETION_DAYS,
  ACCOUNT_ROLES,
  COUNTRY_CODES,
  STAFF_USER_ROLES,
  TERMS_VERSION,
  hasLevel,
  type Account,
  type AccountRole,
  type CreateAccountBody,
  type InvitationStatus,
  type Language,
  type Migration,
  type UpdateAccountBody,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/client.ts';
import { conflict, forbidden, HttpError, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { writeAudit } from '../audit/audit.service.ts';

interface AccountRow {
  uuid: string;
  name: string;
  country: string;
  preferred_language: Language;
  available_until: Date | null;
  created_at: Date;
  role: AccountRole;
  invitation_status: InvitationStatus;
  accepted_agb: boolean;
  accepted_privacy: boolean;
}

const iso = (value: Date | string) => new Date(value).toISOString();

export function toAccount(row: AccountRow): Account {
  return {
    uuid: row.uuid,
    name: row.name,
    country: row.country,
    preferredLanguage: row.preferred_language,
    accountRole: row.role,
    isOwner: row.role === 'OWNER',
    invitationStatus: row.invitation_status,
    availableUntil: row.available_until ? iso(row.available_until) : null,
    acceptedAgb: row.accepted_agb,
    acceptedPrivacyPolicy: row.accepted_privacy,
    createdAt: iso(row.created_at),
  };
}

/** Columns of an account as seen by one user ($1 = user uuid, $2 = terms version); joins membership as `m`. */
const ACCOUNT_COLUMNS = `a.uuid, a.name, a.country, a.preferred_language, a.available_until, a.created_at,
  exists (select 1 from terms_acceptances t where t.account_uuid = a.uuid and t.kind = 'agb' and t.version = $2)
    as accepted_agb,
  exists (select 1 from terms_acceptances t where t.account_uuid = a.uuid and t.kind = 'privacy' and t.version = $2)
    as accepted_privacy`;

/** An account past its scheduled deletion is gone, even before the purge removes it. */
const NOT_EXPIRED = '(a.available_until is null or a.available_until > now())';

/** Every membership of the user, pending invitations included, sorted by name. */
export async function listAccountsOf(q: Queryable, user: PortalUser): Promise<Account[]> {
  const { rows } = await q.query<AccountRow>(
    `select ${ACCOUNT_COLUMNS}, m.role, m.invitation_status
       from accounts a join account_members m on m.account_uuid = a.uuid and m.user_uuid = $1
      where m.invitation_status <> 'DECLINED' and ${NOT_EXPIRED}
      order by lower(a.name), a.uuid`,
    [user.uuid, TERMS_VERSION],
  );
  return rows.map(toAccount);
}

export const isStaff = (user: PortalUser) => STAFF_USER_ROLES.includes(user.userRole);

/**
 * The caller's access to an account: an ACCEPTED membership, or staff acting as SUPPORT. Null when the account
 * does not exist or the caller may not see it — callers answer 404 either way, never revealing existence.
 */
export async function accessFor(
  q: Queryable,
  user: PortalUser,
  accountUuid: string,
): Promise<AccountAccess | null> {
  const { rows } = await q.query<{ role: AccountRole | null; invitation_status: InvitationStatus | null }>(
    `select m.role, m.invitation_status
       from accounts a left join account_members m on m.account_uuid = a.uuid and m.user_uuid = $2
      where a.uuid = $1 and ${NOT_EXPIRED}`,
    [accountUuid, user.uuid],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.role && row.invitation_status === 'ACCEPTED')
    return { accountUuid, role: row.role, viaStaff: false };
  if (isStaff(user)) return { accountUuid, role: 'SUPPORT', viaStaff: true };
  return null;
}

/** Records a staff member's access to an account they do not belong to (SPEC-DECISIONS 10). */
export async function auditStaffAccess(q: Queryable, user: PortalUser, access: AccountAccess, what: string) {
  if (!access.viaStaff) return;
  await writeAudit(q, {
    accountUuid: access.accountUuid,
    actorUuid: user.uuid,
    action: 'support.access',
    target: what,
  });
}

async function loadAccount(q: Queryable, user: PortalUser, access: AccountAccess): Promise<Account> {
  const { rows } = await q.query<AccountRow>(
    `select ${ACCOUNT_COLUMNS}, coalesce(m.role, 'SUPPORT') as role,
            coalesce(m.invitation_status, 'ACCEPTED') as invitation_status
       from accounts a left join account_members m on m.account_uuid = a.uuid and m.user_uuid = $1
      where a.uuid = $3`,
    [user.uuid, TERMS_VERSION, access.accountUuid],
  );
  if (!rows[0]) throw notFound();
  const account = toAccount(rows[0]);
  // Staff see the account as SUPPORT even if they also hold a pending invitation.
  return access.viaStaff
    ? { ...account, accountRole: 'SUPPORT', isOwner: false, invitationStatus: 'ACCEPTED' }
    : account;
}

/** A name people see (an account's or a user's): trimmed, required. */
export function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new HttpError(422, 'VALIDATION_FAILED', 'name is required', { name: 'is required' });
  return trimmed;
}

/** The schema checks the shape (two capitals); the code must also be one the form offers. */
function checkCountry(country: string | undefined): void {
  if (country !== undefined && !COUNTRY_CODES.includes(country)) {
    throw new HttpError(422, 'VALIDATION_FAILED', 'country is not a known country code', {
      country: 'is not a known country code',
    });
  }
}

/** Names are unique among one user's accounts, case-insensitively (pending invitations count). */
async function assertNameFree(q: Queryable, userUuid: string, name: string, except: string | null) {
  const { rows } = await q.query(
    `select 1 from accounts a join account_members m on m.account_uuid = a.uuid and m.user_uuid = $1
      where m.invitation_status <> 'DECLINED' and lower(a.name) = lower($2) and a.uuid is distinct from $3`,
    [userUuid, name, except],
  );
  if (rows.length) {
    throw conflict('You already have an account with this name', {
      name: 'is already used by one of your accounts',
    });
  }
}

/** Serialises name checks of one user across instances (two tabs creating "ACME" at once). */
async function lockUser(q: Queryable, userUuid: string) {
  await q.query('select pg_advisory_xact_lock(hashtext($1))', [`user:${userUuid}`]);
}

export async function getAccount(db: Db, user: PortalUser, accountUuid: string): Promise<Account> {
  const access = await accessFor(db, user, accountUuid);
  if (!access) throw notFound();
  await auditStaffAccess(db, user, access, `GET account:${accountUuid}`);
  return loadAccount(db, user, access);
}

export async function createAccount(db: Db, user: PortalUser, body: CreateAccountBody): Promise<Account> {
  const name = cleanName(body.name);
  checkCountry(body.country);
  return db.transaction(async (tx) => {
    await lockUser(tx, user.uuid);
    await assertNameFree(tx, user.uuid, name, null);
    const uuid = crypto.randomUUID();
    await tx.query(
      `insert into accounts (uuid, name, country, preferred_language, created_by) values ($1, $2, $3, $4, $5)`,
      [uuid, name, body.country, body.preferredLanguage, user.uuid],
    );
    await tx.query(
      `insert into account_members (account_uuid, user_uuid, role, invitation_status, accepted_at)
       values ($1, $2, 'OWNER', 'ACCEPTED', now())`,
      [uuid, user.uuid],
    );
    await writeAudit(tx, {
      accountUuid: uuid,
      actorUuid: user.uuid,
      action: 'account.create',
      target: `account:${uuid}`,
      after: { name, country: body.country, preferredLanguage: body.preferredLanguage },
    });
    return loadAccount(tx, user, { accountUuid: uuid, role: 'OWNER', viaStaff: false });
  });
}

const PROFILE_FIELDS = { name: 'name', country: 'country', preferredLanguage: 'preferred_language' } as const;
type ProfileField = keyof typeof PROFILE_FIELDS;

export async function updateAccount(
  db: Db,
  user: PortalUser,
  accountUuid: string,
  body: UpdateAccountBody,
): Promise<Account> {
  const access = await accessFor(db, user, accountUuid);
  if (!access) throw notFound();
  const profile = (Object.keys(PROFILE_FIELDS) as ProfileField[]).filter((key) => body[key] !== undefined);
  const ownerOnly = body.acceptedAgb || body.acceptedPrivacyPolicy || body.availableUntil === null;
  if (profile.length && !hasLevel(ACCOUNT_ROLES, access.role, 'ADMIN')) {
    throw forbidden('Changing the company profile needs the ADMIN role');
  }
  if (ownerOnly && access.role !== 'OWNER') {
    throw forbidden('Only the owner can accept the terms or cancel the deletion');
  }
  const name = body.name === undefined ? undefined : cleanName(body.name);
  checkCountry(body.country);

  return db.transaction(async (tx) => {
    await lockUser(tx, user.uuid);
    const { rows } = await tx.query<{
      name: string;
      country: string;
      preferred_language: string;
      available_until: Date | null;
    }>('select name, country, preferred_language, available_until from accounts where uuid = $1 for update', [
      accountUuid,
    ]);
    const current = rows[0];
    if (!current) throw notFound();
    await auditStaffAccess(tx, user, access, `PATCH account:${accountUuid}`);

    if (profile.length) {
      if (name !== undefined) await assertNameFree(tx, user.uuid, name, accountUuid);
      const next = { ...body, ...(name !== undefined ? { name } : {}) };
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      for (const key of profile) {
        const old = current[PROFILE_FIELDS[key]];
        if (old !== next[key]) {
          before[key] = old;
          after[key] = next[key];
        }
      }
      if (Object.keys(after).length) {
        const sets = Object.keys(after).map((key, i) => `${PROFILE_FIELDS[key as ProfileField]} = $${i + 2}`);
        await tx.query(`update accounts set ${sets.join(', ')}, updated_at = now() where uuid = $1`, [
          accountUuid,
          ...Object.values(after),
        ]);
        await writeAudit(tx, {
          accountUuid,
          actorUuid: user.uuid,
          action: 'account.update',
          target: `account:${accountUuid}`,
          before,
          after,
        });
      }
    }

    for (const [flag, kind] of [
      [body.acceptedAgb, 'agb'],
      [body.acceptedPrivacyPolicy, 'privacy'],
    ] as const) {
      if (!flag) continue;
      const inserted = await tx.query(
        `insert into terms_acceptances (account_uuid, kind, version, accepted_by) values ($1, $2, $3, $4)
         on conflict do nothing returning kind`,
        [accountUuid, kind, TERMS_VERSION, user.uuid],
      );
      if (inserted.rows.length) {
        await writeAudit(tx, {
          accountUuid,
          actorUuid: user.uuid,
          action: 'account.terms.accept',
          target: `terms:${kind}`,
          after: { kind, version: TERMS_VERSION },
        });
      }
    }

    if (body.availableUntil === null && current.available_until) {
      await tx.query('update accounts set available_until = null, updated_at = now() where uuid = $1', [
        accountUuid,
      ]);
      await writeAudit(tx, {
        accountUuid,
        actorUuid: user.uuid,
        action: 'account.deletion.cancel',
        target: `account:${accountUuid}`,
        before: { availableUntil: iso(current.available_until) },
        after: { availableUntil: null },
      });
    }
    return loadAccount(tx, user, access);
  });
}

/** DELETE schedules the deletion in 30 days (owner only); repeating it keeps the first date. */
export async function scheduleDeletion(
  db: Db,
  user: PortalUser,
  accountUuid: string,
): Promise<{ account: Account; message: string }> {
  const access = await accessFor(db, user, accountUuid);
  if (!access) throw notFound();
  if (access.role !== 'OWNER') throw forbidden('Only the owner can delete the account');
  const account = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ available_until: Date }>(
      `update accounts set available_until = now() + make_interval(days => $2), updated_at = now()
        where uuid = $1 and available_until is null returning available_until`,
      [accountUuid, ACCOUNT_DELETION_DAYS],
    );
    if (rows[0]) {
      await writeAudit(tx, {
        accountUuid,
        actorUuid: user.uuid,
        action: 'account.deletion.schedule',
        target: `account:${accountUuid}`,
        before: { availableUntil: null },
        after: { availableUntil: iso(rows[0].available_until) },
      });
    }
    return loadAccount(tx, user, access);
  });
  const date = account.availableUntil!.slice(0, 10);
  return {
    account,
    message: `The account will be deleted on ${date}. Until then the owner can cancel the deletion.`,
  };
}

interface MigrationRow {
  uuid: string;
  account_uuid: string;
  state: Migration['state'];
  requested_at: Date;
}

/** Records a migration request (owner only); one open request per account. */
export async function beginMigration(db: Db, user: PortalUser, accountUuid: string): Promise<Migration> {
  const access = await accessFor(db, user, accountUuid);
  if (!access) throw notFound();
  if (access.role !== 'OWNER') throw forbidden('Only the owner can migrate the account');
  return db.transaction(async (tx) => {
    await tx.query('select uuid from accounts where uuid = $1 for update', [accountUuid]);
    const open = await tx.query(
      `select 1 from account_migrations where account_uuid = $1 and state in ('REQUESTED', 'RUNNING')`,
      [accountUuid],
    );
    if (open.rows.length) throw conflict('A migration of this account is already in progress');
    const { rows } = await tx.query<MigrationRow>(
      `insert into account_migrations (uuid, account_uuid, requested_by) values ($1, $2, $3)
       returning uuid, account_uuid, state, requested_at`,
      [crypto.randomUUID(), accountUuid, user.uuid],
    );
    const row = rows[0]!;
    await writeAudit(tx, {
      accountUuid,
      actorUuid: user.uuid,
      action: 'account.migration.begin',
      target: `migration:${row.uuid}`,
      after: { state: row.state },
    });
    return {
      uuid: row.uuid,
      accountUuid: row.account_uuid,
      state: row.state,
      requestedAt: iso(row.requested_at),
    };
  });
}

/** Deletes the accounts whose scheduled deletion date has passed; their audit history stays. */
export async function purgeDeletedAccounts(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ uuid: string; name: string }>(
      'delete from accounts where available_until is not null and available_until <= now() returning uuid, name',
    );
    for (const row of rows) {
      await writeAudit(tx, {
        accountUuid: row.uuid,
        actorUuid: null,
        action: 'account.delete',
        target: `account:${row.uuid}`,
        before: { name: row.name },
      });
    }
    return rows.map((row) => row.uuid);
  });
}
