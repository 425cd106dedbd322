// Invitations to an account: inviting addresses (all or nothing, counted by the account's hourly limit in
// limits/limits.ts), sending one again, withdrawing one, and reading the invitation behind a link. Answering one
// is shared with the users area (access/invitations.ts).
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
} from '@portal/contract';
import {
  addressOf,
  closedReason,
  hashInvitationToken,
  newInvitationToken,
} from '../../access/invitations.ts';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { iso } from '../../db/iso.ts';
import { conflict, HttpError, invalidField, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { checkLimit } from '../../limits/limits.ts';
import { mailPassage } from '../../mail/user-text.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import type { InvitationMail } from './invitation-mail.ts';
import { toMember, type MemberRow } from './members.service.ts';

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
