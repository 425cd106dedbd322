import {
  INVITATION_NOTE_MAX,
  INVITATION_VALID_DAYS,
  isEmailAddress,
  isLanguage,
  normalizeEmail,
  type AccountRole,
  type InvitationLink,
  type InviteBody,
  type Language,
  type Member,
  type MembersQuery,
  type UpdateMemberBody,
} from '@portal/contract';
import { auditStaffAccess } from '../../access/accounts.ts';
import { enrolledSecondFactorSql, identityOfUserSql } from '../../access/two-factor.ts';
import {
  addressOf,
  closedReason,
  hashInvitationToken,
  newInvitationToken,
} from '../../access/invitations.ts';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { listPage, pageOf, sqlParams, type ListPage } from '../../db/paging.ts';
import { checkLimit } from '../../limits/limits.ts';
import { conflict, forbidden, HttpError, invalidField, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { mailPassage } from '../../mail/user-text.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import type { InvitationMail } from './invitation-mail.ts';
import { iso } from '../../db/iso.ts';

interface MemberRow {
  id: string;
  kind: 'MEMBER' | 'INVITATION';
  name: string;
  email: string;
  role: AccountRole;
  status: Member['status'];
  invited_by: string | null;
  invited_at: Date;
  expires_at: Date | null;
  last_sign_in_at: Date | null;
  has_two_factor?: boolean | null;
  total?: string;
}

const isoOrNull = (value: Date | string | null) => (value ? iso(value) : null);

function toMember(row: MemberRow, user: PortalUser): Member {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.status,
    invitedBy: row.invited_by,
    invitedAt: iso(row.invited_at),
    expiresAt: isoOrNull(row.expires_at),
    lastSignInAt: isoOrNull(row.last_sign_in_at),
    isSelf: row.kind === 'MEMBER' && row.id === user.uuid,
    hasTwoFactor: row.kind === 'MEMBER' ? (row.has_two_factor ?? null) : null,
  };
}

/** Members of account $1 as list rows (accepted memberships only). */
const MEMBER_ROWS = `
  select m.user_uuid as id, 'MEMBER' as kind, u.name, u.email, m.role, 'ACCEPTED' as status,
         inv.name as invited_by, m.invited_at, null::timestamptz as expires_at, u.last_sign_in_at,
         lower(case when u.name = '' then u.email else u.name end) as sort_key
    from account_members m
    join users u on u.uuid = m.user_uuid
    left join users inv on inv.uuid = m.invited_by
   where m.account_uuid = $1 and m.invitation_status = 'ACCEPTED'`;

/**
 * A member's sort key: the name, or the address while the name is empty (invitations sort by address); the same
 * expression as the index users_sort_key_idx, so a page can walk it.
 */
const MEMBER_SORT_KEY = `lower(case when u.name = '' then u.email else u.name end)`;

/**
 * One page of the members list: members and open or expired invitations, sorted by name (or address), filtered
 * by section (coaches or everyone else), role, status and a search in name and address.
 *
 * Built for accounts with thousands of rows: each of the two sources yields only its first `offset + pageSize`
 * rows in sort order (a top-N sort, no full sort), the page is cut from their union, and the inviters' names are
 * joined to those rows alone. The total is counted separately, without sorting or joins it does not need.
 */
export async function listMembers(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  query: MembersQuery,
  /** The embedded sign-in service keeps the second factors: the page shows who has one (else unknown). */
  embeddedIdp = false,
): Promise<ListPage<Member>> {
  const paging = pageOf(query);
  const p = sqlParams();
  const account = p.add(access.accountUuid);
  const members = [`m.account_uuid = ${account}`, `m.invitation_status = 'ACCEPTED'`];
  const invitations = [`i.account_uuid = ${account}`, `i.status = 'PENDING'`];
  const section = query.section === 'coaches' ? `= 'DC'` : `<> 'DC'`;
  members.push(`m.role ${section}`);
  invitations.push(`i.role ${section}`);
  if (query.role) {
    const role = p.add(query.role);
    members.push(`m.role = ${role}`);
    invitations.push(`i.role = ${role}`);
  }
  if (query.status === 'PENDING') invitations.push('i.expires_at > now()');
  if (query.status === 'EXPIRED') invitations.push('i.expires_at <= now()');
  const search = query.search?.trim();
  if (search) {
    const pattern = p.contains(search.toLowerCase());
    members.push(`(lower(u.name) like ${pattern} or lower(u.email) like ${pattern})`);
    invitations.push(`i.email like ${pattern}`);
  }
  const withMembers = !query.status || query.status === 'ACCEPTED';
  const withInvitations = query.status !== 'ACCEPTED';
  const memberFrom = `from account_members m join users u on u.uuid = m.user_uuid where ${members.join(' and ')}`;
  const invitationFrom = `from invitations i where ${invitations.join(' and ')}`;

  // Without a search the members' count needs no join.
  const memberCount = search ? memberFrom : `from account_members m where ${members.join(' and ')}`;
  const countSql = `select ${withMembers ? `(select count(*) ${memberCount})` : '0'}
      + ${withInvitations ? `(select count(*) ${invitationFrom})` : '0'}`;
  const filter = p.copy();

  // A search matches few rows: one query filters, sorts and counts them all. Without one, each source gives only
  // its first rows in index order, and the count rides along as a subquery that needs neither join nor sort.
  const limitEach = search ? '' : ` limit ${p.add(paging.offset + paging.limit)}`;
  const sources = [
    withMembers &&
      `(select m.user_uuid as id, 'MEMBER' as kind, u.name, u.email, m.role, 'ACCEPTED' as status, m.invited_by,
               m.invited_at, null::timestamptz as expires_at, u.last_sign_in_at, ${MEMBER_SORT_KEY} as sort_key
          ${memberFrom} order by sort_key, u.uuid${limitEach})`,
    withInvitations &&
      `(select i.uuid as id, 'INVITATION' as kind, '' as name, i.email, i.role,
               case when i.expires_at > now() then 'PENDING' else 'EXPIRED' end as status, i.invited_by,
               i.invited_at, i.expires_at, null::timestamptz as last_sign_in_at, i.email as sort_key
          ${invitationFrom} order by sort_key, id${limitEach})`,
  ].filter(Boolean);
  const { rows } = await db.query<MemberRow>(
    `select r.id, r.kind, r.name, r.email, r.role, r.status, inv.name as invited_by, r.invited_at, r.expires_at,
            r.last_sign_in_at, ${search ? 'count(*) over ()' : `(${countSql})`} as total,
            ${embeddedIdp ? `case when r.kind = 'MEMBER' then ${enrolledSecondFactorSql(identityOfUserSql('mu'))} end` : 'null'}
              as has_two_factor
       from (${sources.join(' union all ')}) r left join users inv on inv.uuid = r.invited_by
       left join users mu on mu.uuid = r.id and r.kind = 'MEMBER'
      order by r.sort_key, r.id
      limit ${p.add(paging.limit)} offset ${p.add(paging.offset)}`,
    p.values,
  );
  // A page past the end still tells how many there are.
  const total = rows[0]
    ? (rows[0].total ?? 0)
    : paging.page > 1
      ? ((await db.query<{ total: string }>(`${countSql} as total`, filter.values)).rows[0]?.total ?? 0)
      : 0;
  await auditStaffAccess(db, user, access, 'GET members');
  return listPage(
    rows.map((row) => toMember(row, user)),
    total,
    paging,
  );
}

/** The account's name, for the notifications that carry it. */
async function accountName(q: Queryable, accountUuid: string): Promise<string> {
  const { rows } = await q.query<{ name: string }>('select name from accounts where uuid = $1', [
    accountUuid,
  ]);
  return rows[0]?.name ?? '';
}

async function lockedMember(q: Queryable, access: AccountAccess, id: string): Promise<MemberRow> {
  // The membership row is locked first, for the rest of the transaction: changes to one member run one after
  // another, and each reads what the previous one left.
  await q.query('select 1 from account_members where account_uuid = $1 and user_uuid = $2 for update', [
    access.accountUuid,
    id,
  ]);
  const { rows } = await q.query<MemberRow>(`select r.* from (${MEMBER_ROWS} and m.user_uuid = $2) r`, [
    access.accountUuid,
    id,
  ]);
  if (!rows[0]) throw notFound('No such member');
  return rows[0];
}

export async function getMember(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  id: string,
): Promise<Member> {
  const { rows } = await db.query<MemberRow>(`select r.* from (${MEMBER_ROWS} and m.user_uuid = $2) r`, [
    access.accountUuid,
    id,
  ]);
  if (!rows[0]) throw notFound('No such member');
  await auditStaffAccess(db, user, access, `GET member:${id}`);
  return toMember(rows[0], user);
}

/**
 * The rules every change to a member passes: nobody changes or removes the owner (ownership moves only by
 * transfer), and nobody changes or removes themselves here (members leave from their own settings).
 */
function checkChangeable(member: MemberRow, user: PortalUser, what: 'change' | 'remove') {
  if (member.role === 'OWNER') {
    throw forbidden(what === 'change' ? "The owner's role cannot be changed" : 'The owner cannot be removed');
  }
  if (member.id === user.uuid) {
    throw forbidden(what === 'change' ? 'You cannot change your own role' : 'You cannot remove yourself');
  }
}

/**
 * Changes a member's role between EMPLOYEE and ADMIN (the schema allows no other: nobody is raised above ADMIN
 * here). A digital coach stays a coach. The member's row is locked, so concurrent changes apply one after the
 * other and each audit entry's "before" is what the previous one left.
 */
export async function updateMember(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
  id: string,
  body: UpdateMemberBody,
): Promise<Member> {
  return db.transaction(async (tx) => {
    const member = await lockedMember(tx, access, id);
    checkChangeable(member, user, 'change');
    if (member.role === 'DC') throw forbidden("A digital coach's role cannot be changed");
    if (member.role === body.role) return toMember(member, user);
    await tx.query('update account_members set role = $3 where account_uuid = $1 and user_uuid = $2', [
      access.accountUuid,
      id,
      body.role,
    ]);
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'member.role.change',
      target: `user:${id}`,
      before: { role: member.role },
      after: { role: body.role },
    });
    await notifier.notify(tx, {
      accountUuid: access.accountUuid,
      userUuids: [id],
      type: 'member.role_changed',
      params: {
        accountName: await accountName(tx, access.accountUuid),
        role: body.role,
        previousRole: member.role,
        changedBy: user.name,
      },
    });
    return toMember({ ...member, role: body.role }, user);
  });
}

/** Removes a member (not the owner, not oneself); their access ends with the next request. */
export async function removeMember(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
  id: string,
) {
  await db.transaction(async (tx) => {
    const member = await lockedMember(tx, access, id);
    checkChangeable(member, user, 'remove');
    await tx.query('delete from account_members where account_uuid = $1 and user_uuid = $2', [
      access.accountUuid,
      id,
    ]);
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'member.remove',
      target: `user:${id}`,
      before: { email: member.email, role: member.role },
    });
    // Personal: the removed person no longer reaches the account, so it shows in the inbox of their others.
    await notifier.notify(tx, {
      accountUuid: null,
      userUuids: [id],
      type: 'member.removed',
      params: { accountName: await accountName(tx, access.accountUuid), removedBy: user.name },
    });
  });
}

interface AccountFacts {
  name: string;
  preferred_language: string;
}

/** Locks the account row (invitations of one account are counted and checked one request at a time). */
async function lockAccount(tx: Queryable, accountUuid: string): Promise<AccountFacts> {
  const { rows } = await tx.query<AccountFacts>(
    'select name, preferred_language from accounts where uuid = $1 for update',
    [accountUuid],
  );
  if (!rows[0]) throw notFound();
  return rows[0];
}

/** The language of the invitation mail: the recipient's own if the portal knows them, else the account's. */
async function mailLanguage(tx: Queryable, email: string, account: AccountFacts): Promise<Language> {
  const { rows } = await tx.query<{ language: string }>(
    'select language from users where lower(email) = $1 order by created_at limit 1',
    [email],
  );
  const language = rows[0]?.language ?? account.preferred_language;
  return isLanguage(language) ? language : 'de';
}

/** A mail to send once the transaction that made its invitation has committed. */
export type PendingMail = Omit<InvitationMail, 'link' | 'product'> & { token: string };

const EXPIRY = `now() + make_interval(days => ${INVITATION_VALID_DAYS})`;

async function insertInvitation(
  tx: Queryable,
  user: PortalUser,
  accountUuid: string,
  invitation: { email: string; role: AccountRole; note: string | null; invitedAt?: Date },
): Promise<{ row: MemberRow; token: string }> {
  const { token, hash } = newInvitationToken();
  const { rows } = await tx.query<MemberRow>(
    `insert into invitations (uuid, account_uuid, email, role, note, token_hash, expires_at, invited_by, invited_at)
     values (gen_random_uuid(), $1, $2, $3, $4, $5, ${EXPIRY}, $6, coalesce($7, now()))
     returning uuid as id, 'INVITATION' as kind, '' as name, email, role, 'PENDING' as status, $8::text as invited_by,
               invited_at, expires_at, null::timestamptz as last_sign_in_at`,
    [
      accountUuid,
      invitation.email,
      invitation.role,
      invitation.note,
      hash,
      user.uuid,
      invitation.invitedAt ?? null,
      user.name,
    ],
  );
  return { row: rows[0]!, token };
}

/**
 * Invites each address with the role: all or nothing. An address that is malformed (422), already a member or
 * already invited and still open (409) is named in the answer, field `emails.<index>`, and nobody is invited. An
 * expired invitation to the same address is replaced. The account's hourly limit counts every mail (429).
 */
export async function invite(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  access: AccountAccess,
  body: InviteBody,
): Promise<{ members: Member[]; mails: PendingMail[] }> {
  const emails = body.emails.map(normalizeEmail);
  const invalid = emails.flatMap((email, index) => (isEmailAddress(email) ? [] : [index]));
  if (invalid.length) {
    throw new HttpError(
      422,
      'VALIDATION_FAILED',
      `Not an email address: ${invalid.map((i) => body.emails[i]).join(', ')}`,
      Object.fromEntries(invalid.map((i) => [`emails.${i}`, 'email'])),
    );
  }
  const twice = emails.findIndex((email, index) => emails.indexOf(email) !== index);
  if (twice >= 0) throw invalidField(`emails.${twice}`, 'duplicate');
  let note: string | null = null;
  if (body.note?.trim()) {
    // The note goes into a mail: it is the person's own text, and may carry nothing a mail program makes a link.
    if (mailPassage(body.note, INVITATION_NOTE_MAX) === undefined) throw invalidField('note', 'noLinks');
    note = body.note.trim();
  }

  const result = await db.transaction(async (tx) => {
    const account = await lockAccount(tx, access.accountUuid);
    const members = await tx.query<{ email: string }>(
      `select lower(u.email) as email from account_members m join users u on u.uuid = m.user_uuid
        where m.account_uuid = $1 and lower(u.email) = any($2::text[])`,
      [access.accountUuid, emails],
    );
    const open = await tx.query<{ email: string }>(
      `select email from invitations
        where account_uuid = $1 and status = 'PENDING' and expires_at > now() and email = any($2::text[])`,
      [access.accountUuid, emails],
    );
    const isMember = new Set(members.rows.map((r) => r.email));
    const isInvited = new Set(open.rows.map((r) => r.email));
    const taken: Record<string, string> = {};
    const named: string[] = [];
    for (const [index, email] of emails.entries()) {
      if (isMember.has(email)) {
        taken[`emails.${index}`] = 'alreadyMember';
        named.push(`${email} is already a member`);
      } else if (isInvited.has(email)) {
        taken[`emails.${index}`] = 'alreadyInvited';
        named.push(`${email} is already invited`);
      }
    }
    if (named.length) throw conflict(`${named.join('; ')}. Nobody was invited.`, taken);
    await checkLimit(tx, 'invitations', access.accountUuid, { hits: emails.length });
    // An expired invitation to the same address gives way to the new one.
    await tx.query(
      `update invitations set status = 'EXPIRED'
        where account_uuid = $1 and status = 'PENDING' and expires_at <= now() and email = any($2::text[])`,
      [access.accountUuid, emails],
    );
    const created: Member[] = [];
    const mails: PendingMail[] = [];
    for (const email of emails) {
      const { row, token } = await insertInvitation(tx, user, access.accountUuid, {
        email,
        role: body.role,
        note,
      });
      created.push(toMember(row, user));
      mails.push({
        to: email,
        token,
        language: await mailLanguage(tx, email, account),
        accountName: account.name,
        inviterName: user.name,
        role: body.role,
        ...(note ? { note } : {}),
      });
      await writeAudit(tx, {
        accountUuid: access.accountUuid,
        actor: user,
        action: 'member.invite',
        target: `invitation:${row.id}`,
        after: { email, role: body.role, invitationStatus: 'PENDING', ...(note ? { note: true } : {}) },
      });
    }
    // Invited people the portal already knows find the invitation in their inbox too (personal: they are not
    // members of the account yet) — only with a verified address, like the accounts list (decision 193).
    const known = await tx.query<{ uuid: string }>(
      'select uuid from users where lower(email) = any($1::text[]) and email_verified',
      [emails],
    );
    await notifier.notify(tx, {
      accountUuid: null,
      userUuids: known.rows.map((row) => row.uuid),
      type: 'invitation.received',
      params: { accountName: account.name, invitedBy: user.name, role: body.role },
    });
    return { members: created, mails };
  });
  return result;
}

interface OpenInvitation {
  uuid: string;
  email: string;
  role: AccountRole;
  note: string | null;
  invited_at: Date;
}

async function lockedInvitation(tx: Queryable, access: AccountAccess, id: string): Promise<OpenInvitation> {
  const { rows } = await tx.query<OpenInvitation>(
    `select uuid, email, role, note, invited_at from invitations
      where uuid = $1 and account_uuid = $2 and status = 'PENDING' for update`,
    [id, access.accountUuid],
  );
  if (!rows[0]) throw notFound('No open invitation with this id');
  return rows[0];
}

/**
 * Sends an open or expired invitation again: a new invitation with a new link and a new validity period replaces
 * it, and the old link stops working (it shows as withdrawn).
 */
export async function resendInvitation(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  id: string,
): Promise<{ member: Member; mail: PendingMail }> {
  return db.transaction(async (tx) => {
    const account = await lockAccount(tx, access.accountUuid);
    const old = await lockedInvitation(tx, access, id);
    await checkLimit(tx, 'invitations', access.accountUuid);
    await tx.query(`update invitations set status = 'REVOKED' where uuid = $1`, [old.uuid]);
    const { row, token } = await insertInvitation(tx, user, access.accountUuid, {
      email: old.email,
      role: old.role,
      note: old.note,
      invitedAt: old.invited_at,
    });
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'invitation.resend',
      target: `invitation:${row.id}`,
      before: { invitation: old.uuid },
      after: { invitation: row.id, email: old.email, role: old.role },
    });
    return {
      member: toMember(row, user),
      mail: {
        to: old.email,
        token,
        language: await mailLanguage(tx, old.email, account),
        accountName: account.name,
        inviterName: user.name,
        role: old.role,
        ...(old.note ? { note: old.note } : {}),
      },
    };
  });
}

/** Withdraws an open (or expired) invitation; its link then explains that it was withdrawn. */
export async function revokeInvitation(db: Db, user: PortalUser, access: AccountAccess, id: string) {
  await db.transaction(async (tx) => {
    const old = await lockedInvitation(tx, access, id);
    await tx.query(`update invitations set status = 'REVOKED' where uuid = $1`, [old.uuid]);
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'invitation.revoke',
      target: `invitation:${old.uuid}`,
      before: { email: old.email, role: old.role, invitationStatus: 'PENDING' },
      after: { invitationStatus: 'REVOKED' },
    });
  });
}

/**
 * The invitation behind a link, for whoever holds the link and is signed in: account, role, who invited, and
 * whether it can still be answered; 404 for a token that names no invitation.
 */
export async function readInvitationLink(db: Db, user: PortalUser, token: string): Promise<InvitationLink> {
  const { rows } = await db.query<{
    account_uuid: string;
    account_name: string;
    preferred_language: string;
    role: AccountRole;
    email: string;
    invited_by: string | null;
    status: 'PENDING' | 'ACCEPTED' | 'DECLINED' | 'REVOKED' | 'EXPIRED';
    expires_at: Date;
  }>(
    `select i.account_uuid, a.name as account_name, a.preferred_language, i.role, i.email, inv.name as invited_by,
            i.status, i.expires_at
       from invitations i join accounts a on a.uuid = i.account_uuid
       left join users inv on inv.uuid = i.invited_by
      where i.token_hash = $1 and (a.available_until is null or a.available_until > now())`,
    [hashInvitationToken(token)],
  );
  const row = rows[0];
  if (!row) throw notFound('No invitation with this link');
  return {
    accountUuid: row.account_uuid,
    accountName: row.account_name,
    role: row.role,
    email: row.email,
    invitedBy: row.invited_by,
    status: closedReason(row) ?? 'PENDING',
    expiresAt: iso(row.expires_at),
    forYou: row.email === addressOf(user),
    language: isLanguage(row.preferred_language) ? row.preferred_language : 'de',
  };
}
