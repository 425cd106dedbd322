// Which accounts a user may see, and how: the one place that decides access to an account (the account-scope
// hook asks it on every account route) and reads an account as one user sees it. Plugins and areas use it alike.
import {
  TERMS_VERSION,
  isStaffRole,
  type Account,
  type AccountRole,
  type InvitationStatus,
  type Language,
  type UserRole,
} from '@portal/contract';
import type { Queryable } from '../db/client.ts';
import { conflict, notFound } from '../http/errors.ts';
import type { AccountAccess, PortalUser } from '../http/types.ts';
import { writeAudit } from '../audit/audit.ts';
import { iso } from '../db/iso.ts';
import { stateOf, twoFactorParams, twoFactorStateSql } from './two-factor.ts';

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
  two_factor: string | null;
  two_factor_grace_until: Date | null;
}

function toAccount(row: AccountRow): Account {
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
    twoFactorRequired: stateOf(row.two_factor),
    twoFactorGraceUntil: row.two_factor_grace_until ? iso(row.two_factor_grace_until) : null,
  };
}

/** Terms of `kind` count as accepted when the account's current owner accepted this version ($2). */
const acceptedByOwner = (kind: string) => `exists (select 1 from terms_acceptances t
    join account_members o on o.account_uuid = t.account_uuid and o.user_uuid = t.accepted_by and o.role = 'OWNER'
   where t.account_uuid = a.uuid and t.kind = '${kind}' and t.version = $2)`;

/**
 * Columns of an account as seen by one user ($1 = user uuid, $2 = terms version); joins membership as `m`.
 * A new owner (after a transfer) accepts the terms anew; the old owner's acceptance stays on record.
 */
const accountColumns = (identity: string, shown: string) => `a.uuid, a.name, a.country, a.preferred_language,
  a.available_until, a.created_at,
  ${acceptedByOwner('agb')} as accepted_agb,
  ${acceptedByOwner('privacy')} as accepted_privacy,
  ${twoFactorStateSql(identity, shown)} as two_factor,
  (select p.grace_until from account_two_factor_policies p where p.account_uuid = a.uuid and p.enabled)
    as two_factor_grace_until`;

/** An account past its scheduled deletion is gone, even before the purge removes it. */
export const NOT_EXPIRED = '(a.available_until is null or a.available_until > now())';

/**
 * Every membership of the user, and the open invitations to the user's verified address (PENDING, with the
 * invited role), sorted by name.
 */
export async function listAccountsOf(q: Queryable, user: PortalUser): Promise<Account[]> {
  const { rows } = await q.query<AccountRow>(
    `select ${accountColumns('$5::uuid', '$6::boolean')}, m.role, m.invitation_status
       from accounts a join account_members m on m.account_uuid = a.uuid and m.user_uuid = $1
      where m.invitation_status = 'ACCEPTED' and ${NOT_EXPIRED}
     union all
     select ${accountColumns('$5::uuid', '$6::boolean')}, i.role, 'PENDING'
       from accounts a join invitations i on i.account_uuid = a.uuid
      where $3::boolean and i.email = $4 and i.status = 'PENDING' and i.expires_at > now() and ${NOT_EXPIRED}
        and not exists (select 1 from account_members m where m.account_uuid = a.uuid and m.user_uuid = $1)`,
    [user.uuid, TERMS_VERSION, user.emailVerified, user.email.trim().toLowerCase(), ...twoFactorParams(user)],
  );
  return rows
    .sort((x, y) => x.name.toLowerCase().localeCompare(y.name.toLowerCase()) || x.uuid.localeCompare(y.uuid))
    .map(toAccount);
}

/** Whether the customer allows staff into account `a` on one of its tickets that is still being worked. */
export const STAFF_CONSENT = `exists (select 1 from support_tickets t
    where t.account_uuid = a.uuid and t.staff_access_consent and t.status not in ('SOLVED', 'CLOSED'))`;

/**
 * Whether staff with this user role may open an account they are no member of, acting as SUPPORT: the platform
 * administrator always; support roles only while the customer allows it on one of the account's tickets that is
 * still being worked (neither solved nor closed). The account directory tells staff the same before they open one.
 */
export function staffMayOpen(userRole: UserRole, consented: boolean): boolean {
  if (!isStaffRole(userRole)) return false;
  return userRole === 'PORTAL_ADMIN' || consented;
}

/**
 * The caller's access to an account: an ACCEPTED membership, or staff acting as SUPPORT (see staffMayOpen). Null
 * when the account does not exist or the caller may not see it — callers answer 404 either way, never revealing
 * existence.
 */
export async function accessFor(
  q: Queryable,
  user: PortalUser,
  accountUuid: string,
): Promise<AccountAccess | null> {
  const { rows } = await q.query<{
    role: AccountRole | null;
    invitation_status: InvitationStatus | null;
    consented: boolean;
    two_factor: string | null;
  }>(
    `select m.role, m.invitation_status,
            ${STAFF_CONSENT} as consented,
            ${twoFactorStateSql('$3::uuid', '$4::boolean')} as two_factor
       from accounts a left join account_members m on m.account_uuid = a.uuid and m.user_uuid = $2
      where a.uuid = $1 and ${NOT_EXPIRED}`,
    [accountUuid, user.uuid, ...twoFactorParams(user)],
    // Every account route asks this first: the database keeps it prepared (decisions 254, 257).
    { prepare: 'portal_access_for' },
  );
  const row = rows[0];
  if (!row) return null;
  const twoFactor = stateOf(row.two_factor);
  if (row.role && row.invitation_status === 'ACCEPTED')
    return { accountUuid, role: row.role, viaStaff: false, twoFactor };
  if (staffMayOpen(user.userRole, row.consented))
    return { accountUuid, role: 'SUPPORT', viaStaff: true, twoFactor };
  return null;
}

/**
 * Every access of staff to an account they are no member of is written to that account's audit log
 * (`support.access`, with what they opened); members' own access is not.
 */
export async function auditStaffAccess(q: Queryable, user: PortalUser, access: AccountAccess, what: string) {
  if (!access.viaStaff) return;
  await writeAudit(q, {
    accountUuid: access.accountUuid,
    actor: user,
    action: 'support.access',
    target: what,
    // Staff pass the account's two-factor rule; the log says so when it would have refused them.
    ...(access.twoFactor === 'enforced' ? { after: { twoFactorPolicyBypassed: true } } : {}),
  });
}

/** The account as the caller sees it, with their role; 404 when it is gone. */
export async function loadAccount(q: Queryable, user: PortalUser, access: AccountAccess): Promise<Account> {
  const { rows } = await q.query<AccountRow>(
    `select ${accountColumns('$4::uuid', '$5::boolean')}, coalesce(m.role, 'SUPPORT') as role,
            coalesce(m.invitation_status, 'ACCEPTED') as invitation_status
       from accounts a left join account_members m on m.account_uuid = a.uuid and m.user_uuid = $1
      where a.uuid = $3`,
    [user.uuid, TERMS_VERSION, access.accountUuid, ...twoFactorParams(user)],
  );
  if (!rows[0]) throw notFound();
  const account = toAccount(rows[0]);
  // Staff see the account as SUPPORT even if they also hold a pending invitation.
  return access.viaStaff
    ? { ...account, accountRole: 'SUPPORT', isOwner: false, invitationStatus: 'ACCEPTED' }
    : account;
}

/**
 * Names are unique among one user's accounts, case-insensitively (pending invitations count); `field` names the
 * form field the conflict is reported on.
 */
export async function assertNameFree(
  q: Queryable,
  userUuid: string,
  name: string,
  except: string | null,
  field = 'name',
) {
  const { rows } = await q.query(
    `select 1 from accounts a join account_members m on m.account_uuid = a.uuid and m.user_uuid = $1
      where m.invitation_status <> 'DECLINED' and lower(a.name) = lower($2) and a.uuid is distinct from $3`,
    [userUuid, name, except],
  );
  if (rows.length) {
    throw conflict('You already have an account with this name', {
      [field]: 'is already used by one of your accounts',
    });
  }
}

/** Serialises name checks of one user across instances (two tabs creating "ACME" at once). */
export async function lockUser(q: Queryable, userUuid: string) {
  await q.query('select pg_advisory_xact_lock(hashtext($1))', [`user:${userUuid}`]);
}
