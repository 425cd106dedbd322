// The members of an account: the list (members and open invitations, paged through their indexes), one member,
// a change of role and a removal. Inviting and the invitations themselves are in invitations.service.ts.
import { type AccountRole, type Member, type MembersQuery, type UpdateMemberBody } from '@portal/contract';
import { auditStaffAccess } from '../../access/accounts.ts';
import { enrolledSecondFactorSql, identityOfUserSql } from '../../access/two-factor.ts';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { iso } from '../../db/iso.ts';
import { listPage, pageOf, sqlParams, type ListPage } from '../../db/paging.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import type { Notifier } from '../../notifications/notifier.ts';

/** A row of the members list: a member or an invitation. */
export interface MemberRow {
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

export function toMember(row: MemberRow, user: PortalUser): Member {
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
