import crypto from 'node:crypto';
import {
  ACCOUNT_DELETION_DAYS,
  COUNTRY_CODES,
  TERMS_VERSION,
  allowsRole,
  type Account,
  type CreateAccountBody,
  type Migration,
  type Plan,
  type UpdateAccountBody,
} from '@portal/contract';
import { assertNameFree, loadAccount, lockUser } from '../../access/accounts.ts';
import { writeAudit } from '../../audit/audit.ts';
import { todayIn } from '../../invoicing/money.ts';
import { startTrial } from '../../invoicing/subscription-start.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import type { Db, Queryable } from '../../db/client.ts';
import type { FileStore } from '../../files/files.ts';
import { sqlParams } from '../../db/paging.ts';
import { conflict, forbidden, invalidField, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { cleanName } from '../../http/validation.ts';
import { iso } from '../../db/iso.ts';

/** The schema checks the shape (two capitals); the code must also be one the form offers. */
function checkCountry(country: string | undefined): void {
  if (country !== undefined && !COUNTRY_CODES.includes(country)) {
    throw invalidField('country', 'is not a known country code');
  }
}

export function getAccount(db: Db, user: PortalUser, access: AccountAccess): Promise<Account> {
  return loadAccount(db, user, access);
}

export async function createAccount(
  db: Db,
  user: PortalUser,
  body: CreateAccountBody,
  billing: { plans: readonly Plan[]; timeZone: string },
): Promise<Account> {
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
    // Every account has a subscription: a new one starts its trial.
    await startTrial(tx, billing.plans, uuid, todayIn(billing.timeZone));
    await writeAudit(tx, {
      accountUuid: uuid,
      actor: user,
      action: 'account.create',
      target: `account:${uuid}`,
      after: { name, country: body.country, preferredLanguage: body.preferredLanguage },
    });
    return loadAccount(tx, user, { accountUuid: uuid, role: 'OWNER', viaStaff: false });
  });
}

const PROFILE_FIELDS = { name: 'name', country: 'country', preferredLanguage: 'preferred_language' } as const;
type ProfileField = keyof typeof PROFILE_FIELDS;

/**
 * Name, country and language need the ADMIN level; accepting the terms and cancelling a scheduled deletion are
 * the exact OWNER's (staff acting as SUPPORT never pass that).
 */
export async function updateAccount(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
  body: UpdateAccountBody,
): Promise<Account> {
  const { accountUuid } = access;
  const profile = (Object.keys(PROFILE_FIELDS) as ProfileField[]).filter((key) => body[key] !== undefined);
  const ownerOnly = body.acceptedAgb || body.acceptedPrivacyPolicy || body.availableUntil === null;
  if (profile.length && !allowsRole({ min: 'ADMIN' }, access.role)) {
    throw forbidden('Changing the company profile needs the ADMIN role');
  }
  if (ownerOnly && !allowsRole({ exactly: 'OWNER' }, access.role)) {
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
        const p = sqlParams(accountUuid);
        const sets = Object.entries(after).map(
          ([key, value]) => `${PROFILE_FIELDS[key as ProfileField]} = ${p.add(value)}`,
        );
        await tx.query(
          `update accounts set ${sets.join(', ')}, updated_at = now() where uuid = $1`,
          p.values,
        );
        await writeAudit(tx, {
          accountUuid,
          actor: user,
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
          actor: user,
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
        actor: user,
        action: 'account.deletion.cancel',
        target: `account:${accountUuid}`,
        before: { availableUntil: iso(current.available_until) },
        after: { availableUntil: null },
      });
      await notifier.notify(tx, {
        accountUuid,
        userUuids: await memberUuids(tx, accountUuid),
        type: 'account.deletion_cancelled',
        params: { accountName: name ?? current.name, cancelledBy: user.name },
      });
    }
    return loadAccount(tx, user, access);
  });
}

/** The account's members (every accepted one), whom a deletion or its cancellation concerns. */
async function memberUuids(q: Queryable, accountUuid: string): Promise<string[]> {
  const { rows } = await q.query<{ user_uuid: string }>(
    `select user_uuid from account_members where account_uuid = $1 and invitation_status = 'ACCEPTED'`,
    [accountUuid],
  );
  return rows.map((row) => row.user_uuid);
}

/** DELETE schedules the deletion in 30 days (the route admits the owner only); repeating it keeps the first date. */
export async function scheduleDeletion(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
): Promise<{ account: Account; message: string }> {
  const { accountUuid } = access;
  const account = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ available_until: Date; name: string }>(
      `update accounts set available_until = now() + make_interval(days => $2), updated_at = now()
        where uuid = $1 and available_until is null returning available_until, name`,
      [accountUuid, ACCOUNT_DELETION_DAYS],
    );
    if (rows[0]) {
      await writeAudit(tx, {
        accountUuid,
        actor: user,
        action: 'account.deletion.schedule',
        target: `account:${accountUuid}`,
        before: { availableUntil: null },
        after: { availableUntil: iso(rows[0].available_until) },
      });
      await notifier.notify(tx, {
        accountUuid,
        userUuids: await memberUuids(tx, accountUuid),
        type: 'account.deletion_scheduled',
        params: {
          accountName: rows[0].name,
          availableUntil: iso(rows[0].available_until),
          scheduledBy: user.name,
        },
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

/** Records a migration request (the route admits the owner only); one open request per account. */
export async function beginMigration(db: Db, user: PortalUser, access: AccountAccess): Promise<Migration> {
  const { accountUuid } = access;
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
      actor: user,
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

/** Files of an account removed per transaction before the account itself goes. */
const FILES_BATCH = 200;

/**
 * The accounts whose deletion date has passed, each really deleted in its own short transactions (decision 243):
 * first its stored files in small batches (their bytes leave the folder once each batch has committed), then in one
 * transaction the invoices and payments lose the name, address, VAT number, order number, mail recipients and
 * notes of the account (the rows stay: the provider keeps its bookkeeping 10 years, OR art. 958f) and their stored
 * PDFs, the account row goes and with it everything else of the account (members, profile, logo, tickets,
 * subscription, billing details, connections…), and the provider's log (entries of no account) records it. The
 * account's own log is evidence and stays for its retention (AUDIT_RETENTION_DAYS). Answers the deleted uuids.
 */
export async function purgeDeletedAccounts(db: Db, files: FileStore): Promise<string[]> {
  const deleted: string[] = [];
  // Each due account is looked at once per run; one another instance holds (or one cancelled meanwhile) is skipped.
  const seen: string[] = [];
  for (;;) {
    const { rows } = await db.query<{ uuid: string }>(
      `select uuid from accounts where available_until is not null and available_until <= now()
          and uuid <> all ($1::uuid[]) order by available_until, uuid limit 1`,
      [seen],
    );
    const uuid = rows[0]?.uuid;
    if (!uuid) return deleted;
    seen.push(uuid);
    if (await deleteAccount(db, files, uuid)) deleted.push(uuid);
  }
}

async function deleteAccount(db: Db, files: FileStore, accountUuid: string): Promise<boolean> {
  for (;;) {
    const cleanups = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ uuid: string }>(
        `select f.uuid from files f join accounts a on a.uuid = f.account_uuid
          where a.uuid = $1 and a.available_until <= now() limit $2`,
        [accountUuid, FILES_BATCH],
      );
      const done: (() => Promise<void>)[] = [];
      for (const row of rows) done.push(await files.remove(tx, accountUuid, row.uuid));
      return done;
    });
    for (const cleanup of cleanups) await cleanup();
    if (cleanups.length < FILES_BATCH) break;
  }
  return db.transaction(async (tx) => {
    // Locked, and still due: a deletion cancelled meanwhile leaves the account as it is.
    const due = await tx.query(
      'select 1 from accounts where uuid = $1 and available_until <= now() for update skip locked',
      [accountUuid],
    );
    if (!due.rows.length) return false;
    const invoices = await tx.query(
      `update invoices
          set billed_to = jsonb_build_object('name', '', 'address', null, 'vatNumber', null, 'purchaseOrder', null,
                                             'recipients', '[]'::jsonb, 'language', billed_to -> 'language'),
              pdf_file_uuid = null
        where account_uuid = $1`,
      [accountUuid],
    );
    await tx.query('update invoice_payments set note = null where account_uuid = $1', [accountUuid]);
    await tx.query(
      `update bank_payments set debtor_name = null, note = null
        where invoice_uuid in (select uuid from invoices where account_uuid = $1)`,
      [accountUuid],
    );
    await tx.query('delete from accounts where uuid = $1', [accountUuid]);
    await writeAudit(tx, {
      accountUuid: null,
      actor: null,
      action: 'account.delete',
      target: `account:${accountUuid}`,
      after: { invoicesKept: invoices.rowCount },
    });
    return true;
  });
}
