import crypto from 'node:crypto';
import {
  OWNERSHIP_TRANSFER_DAYS,
  confirmsAccountName,
  type CandidatesQuery,
  type Ownership,
  type OwnershipPerson,
  type OwnershipTransfer,
  type StartTransferBody,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { pageOf, readPage, sqlParams, type ListPage } from '../../db/paging.ts';
import {
  conflict,
  emailNotVerified,
  forbidden,
  HttpError,
  invalidField,
  notFound,
} from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import { iso } from '../../db/iso.ts';

interface TransferRow {
  uuid: string;
  account_uuid: string;
  account_name: string;
  status: OwnershipTransfer['status'];
  expired: boolean;
  from_uuid: string;
  from_name: string;
  from_email: string;
  to_uuid: string;
  to_name: string;
  to_email: string;
  created_at: Date;
  expires_at: Date;
  decided_at: Date | null;
}

const TRANSFER_SELECT = `select t.uuid, t.account_uuid, a.name as account_name, t.status,
    (t.status = 'PENDING' and t.expires_at <= now()) as expired,
    f.uuid as from_uuid, f.name as from_name, f.email as from_email,
    r.uuid as to_uuid, r.name as to_name, r.email as to_email,
    t.created_at, t.expires_at, t.decided_at
  from ownership_transfers t
  join accounts a on a.uuid = t.account_uuid
  join users f on f.uuid = t.from_user_uuid
  join users r on r.uuid = t.to_user_uuid`;

/** A pending transfer past its date reads as EXPIRED; nothing needs to run for it to expire. */
function toTransfer(row: TransferRow): OwnershipTransfer {
  return {
    uuid: row.uuid,
    accountUuid: row.account_uuid,
    accountName: row.account_name,
    status: row.expired ? 'EXPIRED' : row.status,
    from: { uuid: row.from_uuid, name: row.from_name, email: row.from_email },
    to: { uuid: row.to_uuid, name: row.to_name, email: row.to_email },
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    decidedAt: row.decided_at ? iso(row.decided_at) : null,
  };
}

async function pendingTransferOf(q: Queryable, accountUuid: string): Promise<OwnershipTransfer | null> {
  const { rows } = await q.query<TransferRow>(
    `${TRANSFER_SELECT} where t.account_uuid = $1 and t.status = 'PENDING' and t.expires_at > now()`,
    [accountUuid],
  );
  return rows[0] ? toTransfer(rows[0]) : null;
}

async function transferById(q: Queryable, accountUuid: string, uuid: string): Promise<OwnershipTransfer> {
  const { rows } = await q.query<TransferRow>(
    `${TRANSFER_SELECT} where t.account_uuid = $1 and t.uuid = $2`,
    [accountUuid, uuid],
  );
  if (!rows[0]) throw notFound('No such transfer in this account');
  return toTransfer(rows[0]);
}

export async function getOwnership(db: Db, access: AccountAccess): Promise<Ownership> {
  const { rows } = await db.query<OwnershipPerson & { accepted_at: Date | null; account_name: string }>(
    // Owner since the transfer they accepted last, else since they joined (the account's creator).
    `select u.uuid, u.name, u.email, a.name as account_name,
            coalesce((select max(t.decided_at) from ownership_transfers t where t.account_uuid = m.account_uuid
                         and t.to_user_uuid = m.user_uuid and t.status = 'ACCEPTED'),
                     m.accepted_at, a.created_at) as accepted_at
       from account_members m join users u on u.uuid = m.user_uuid join accounts a on a.uuid = m.account_uuid
      where m.account_uuid = $1 and m.role = 'OWNER'`,
    [access.accountUuid],
  );
  const owner = rows[0];
  if (!owner) throw notFound();
  return {
    accountName: owner.account_name,
    owner: { uuid: owner.uuid, name: owner.name, email: owner.email },
    ownerSince: owner.accepted_at ? iso(owner.accepted_at) : null,
    pendingTransfer: await pendingTransferOf(db, access.accountUuid),
  };
}

const DEFAULT_PAGE_SIZE = 20;

/**
 * The account's admins (accepted members with role ADMIN) with a verified address — an account goes only to a
 * proved address (decision 193) — by name, optionally searched by name or address.
 */
export async function listCandidates(
  db: Db,
  access: AccountAccess,
  query: CandidatesQuery,
): Promise<ListPage<OwnershipPerson>> {
  const p = sqlParams();
  const where = [
    `m.account_uuid = ${p.add(access.accountUuid)} and m.role = 'ADMIN' and m.invitation_status = 'ACCEPTED'`,
    'u.email_verified',
  ];
  const search = query.search?.trim();
  if (search) {
    const pattern = p.contains(search);
    where.push(`(u.name ilike ${pattern} or u.email ilike ${pattern})`);
  }
  const from = `from account_members m join users u on u.uuid = m.user_uuid where ${where.join(' and ')}`;
  return readPage(
    db,
    {
      rows: `select u.uuid, u.name, u.email ${from} order by lower(u.name), lower(u.email), u.uuid`,
      count: `select count(*) as total ${from}`,
    },
    p,
    pageOf(query, DEFAULT_PAGE_SIZE),
    (row: OwnershipPerson) => row,
  );
}

/** The pending transfer the caller takes part in: the owner's (staff see it too) or the one offered to them. */
export async function getMyPendingTransfer(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
): Promise<OwnershipTransfer | null> {
  const pending = await pendingTransferOf(db, access.accountUuid);
  if (!pending) return null;
  const involved = access.viaStaff || access.role === 'OWNER' || pending.to.uuid === user.uuid;
  return involved ? pending : null;
}

/**
 * Every change to the owner or a transfer of one account holds the account's row lock first, so they run one
 * after another: two accepts, or an accept and a cancel, never both succeed.
 */
async function lockAccount(q: Queryable, accountUuid: string): Promise<string> {
  const { rows } = await q.query<{ name: string }>('select name from accounts where uuid = $1 for update', [
    accountUuid,
  ]);
  if (!rows[0]) throw notFound();
  return rows[0].name;
}

const gone = (message: string) => new HttpError(409, 'CONFLICT', message);

export interface StartedTransfer {
  transfer: OwnershipTransfer;
  recipientLanguage: string;
}

/**
 * The owner offers the account to one of its admins after typing its name. One pending transfer per account; a
 * pending one past its date no longer counts (it is marked EXPIRED here).
 */
export async function startTransfer(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
  body: StartTransferBody,
): Promise<StartedTransfer> {
  const { accountUuid } = access;
  return db.transaction(async (tx) => {
    const accountName = await lockAccount(tx, accountUuid);
    if (!confirmsAccountName(body.confirmAccountName, accountName)) {
      throw invalidField('confirmAccountName', 'does not match the name of the account');
    }
    await tx.query(
      `update ownership_transfers set status = 'EXPIRED'
        where account_uuid = $1 and status = 'PENDING' and expires_at <= now()`,
      [accountUuid],
    );
    if (await pendingTransferOf(tx, accountUuid)) {
      throw conflict('A transfer of the ownership is already pending; cancel it first');
    }
    const { rows } = await tx.query<{ language: string; email_verified: boolean }>(
      `select u.language, u.email_verified from account_members m join users u on u.uuid = m.user_uuid
        where m.account_uuid = $1 and m.user_uuid = $2 and m.role = 'ADMIN' and m.invitation_status = 'ACCEPTED'`,
      [accountUuid, body.toUserUuid],
    );
    if (!rows[0]) throw invalidField('toUserUuid', 'is not an admin of this account');
    // The offer is mailed to the admin's address and makes them the owner: it must be a proved one.
    if (!rows[0].email_verified) throw invalidField('toUserUuid', 'emailNotVerified');
    const uuid = crypto.randomUUID();
    await tx.query(
      `insert into ownership_transfers (uuid, account_uuid, from_user_uuid, to_user_uuid, expires_at)
       values ($1, $2, $3, $4, now() + make_interval(days => $5))`,
      [uuid, accountUuid, user.uuid, body.toUserUuid, OWNERSHIP_TRANSFER_DAYS],
    );
    const transfer = await transferById(tx, accountUuid, uuid);
    await writeAudit(tx, {
      accountUuid,
      actor: user,
      action: 'ownership.transfer.start',
      target: `transfer:${uuid}`,
      before: null,
      after: { status: 'PENDING', toUserUuid: body.toUserUuid, expiresAt: transfer.expiresAt },
    });
    await notifier.notify(tx, {
      accountUuid,
      userUuids: [body.toUserUuid],
      type: 'ownership.transfer_requested',
      params: { accountName, requestedBy: user.name },
    });
    return { transfer, recipientLanguage: rows[0].language };
  });
}

/** The transfer, locked, with the checks every answer to it shares: it is this account's and still pending. */
async function lockPending(q: Queryable, accountUuid: string, uuid: string): Promise<OwnershipTransfer> {
  await lockAccount(q, accountUuid);
  await q.query('select uuid from ownership_transfers where uuid = $1 for update', [uuid]);
  const transfer = await transferById(q, accountUuid, uuid);
  if (transfer.status === 'EXPIRED') throw gone('The transfer has expired');
  if (transfer.status !== 'PENDING') throw gone('The transfer is no longer pending');
  return transfer;
}

async function decide(
  q: Queryable,
  user: PortalUser,
  transfer: OwnershipTransfer,
  status: 'ACCEPTED' | 'DECLINED' | 'CANCELLED',
): Promise<OwnershipTransfer> {
  await q.query(`update ownership_transfers set status = $2, decided_at = now() where uuid = $1`, [
    transfer.uuid,
    status,
  ]);
  const action = { ACCEPTED: 'accept', DECLINED: 'decline', CANCELLED: 'cancel' }[status];
  await writeAudit(q, {
    accountUuid: transfer.accountUuid,
    actor: user,
    action: `ownership.transfer.${action}`,
    target: `transfer:${transfer.uuid}`,
    before: { status: 'PENDING' },
    after: { status },
  });
  return transferById(q, transfer.accountUuid, transfer.uuid);
}

function assertRecipient(user: PortalUser, access: AccountAccess, transfer: OwnershipTransfer) {
  if (transfer.to.uuid !== user.uuid) {
    throw forbidden('Only the admin the ownership was offered to can answer the transfer');
  }
}

/**
 * Closes a pending transfer without a change of owner: the owner withdraws it (CANCELLED; the route admits the
 * owner only) or the chosen admin declines it (DECLINED).
 */
export async function closeTransfer(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
  uuid: string,
  status: 'CANCELLED' | 'DECLINED',
): Promise<OwnershipTransfer> {
  return db.transaction(async (tx) => {
    const transfer = await lockPending(tx, access.accountUuid, uuid);
    if (status === 'DECLINED') assertRecipient(user, access, transfer);
    if (status === 'CANCELLED') {
      await notifier.notify(tx, {
        accountUuid: transfer.accountUuid,
        userUuids: [transfer.to.uuid],
        type: 'ownership.transfer_cancelled',
        params: { accountName: transfer.accountName, cancelledBy: user.name },
      });
    }
    return decide(tx, user, transfer, status);
  });
}

/**
 * The chosen admin accepts: in one transaction the owner becomes ADMIN and the admin OWNER — demoted first, so
 * the one-owner index never sees two. Both must still hold their roles, and the admin's address must be verified
 * (an external provider may report a changed address as unverified: 403 `EMAIL_NOT_VERIFIED`); otherwise nothing
 * changes.
 */
export async function acceptTransfer(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
  uuid: string,
): Promise<OwnershipTransfer> {
  const { accountUuid } = access;
  return db.transaction(async (tx) => {
    const transfer = await lockPending(tx, accountUuid, uuid);
    assertRecipient(user, access, transfer);
    if (!user.emailVerified)
      throw emailNotVerified('Verify your email address before you take over the account');
    const { rows } = await tx.query<{ user_uuid: string; role: string; invitation_status: string }>(
      `select user_uuid, role, invitation_status from account_members
        where account_uuid = $1 and user_uuid in ($2, $3) for update`,
      [accountUuid, transfer.from.uuid, transfer.to.uuid],
    );
    const roleOf = (id: string) =>
      rows.find((row) => row.user_uuid === id && row.invitation_status === 'ACCEPTED');
    if (roleOf(transfer.from.uuid)?.role !== 'OWNER') {
      throw gone('The account has another owner now; the transfer no longer applies');
    }
    if (roleOf(transfer.to.uuid)?.role !== 'ADMIN') {
      throw gone('Only an admin of the account can become its owner');
    }
    const setRole = (member: string, role: string) =>
      tx.query('update account_members set role = $3 where account_uuid = $1 and user_uuid = $2', [
        accountUuid,
        member,
        role,
      ]);
    await setRole(transfer.from.uuid, 'ADMIN');
    await setRole(transfer.to.uuid, 'OWNER');
    for (const [member, before, after] of [
      [transfer.from.uuid, 'OWNER', 'ADMIN'],
      [transfer.to.uuid, 'ADMIN', 'OWNER'],
    ] as const) {
      await writeAudit(tx, {
        accountUuid,
        actor: user,
        action: 'member.role.change',
        target: `user:${member}`,
        before: { role: before },
        after: { role: after },
      });
    }
    await notifier.notify(tx, {
      accountUuid,
      userUuids: [transfer.from.uuid],
      type: 'ownership.transfer_accepted',
      params: { accountName: transfer.accountName, acceptedBy: user.name },
    });
    return decide(tx, user, transfer, 'ACCEPTED');
  });
}

/** The interface language of a user, for the mails sent to them. */
export async function languageOfUser(db: Db, userUuid: string): Promise<string> {
  const { rows } = await db.query<{ language: string }>('select language from users where uuid = $1', [
    userUuid,
  ]);
  return rows[0]?.language ?? 'de';
}
