// Invitations to an account: the one record of "this address was asked to join with this role". The members area
// sends them; the invited person answers them — from the mail's link (by its token) or from the accounts list
// (by account) — and both ways run through `answerInvitation` here.
import crypto from 'node:crypto';
import type { AccountRole } from '@portal/contract';
import { writeAudit } from '../audit/audit.ts';
import type { Queryable } from '../db/client.ts';
import { conflict, emailNotVerified, forbidden, HttpError, notFound } from '../http/errors.ts';
import type { PortalUser } from '../http/types.ts';
import type { Notifier } from '../notifications/notifier.ts';

/** A new one-time link token (256 random bits, URL-safe) and the hash that is stored instead of it. */
export function newInvitationToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** The address an invitation is compared with: the user's own, trimmed and lower case. */
export const addressOf = (user: Pick<PortalUser, 'email'>) => user.email.trim().toLowerCase();

export interface InvitationRow {
  uuid: string;
  account_uuid: string;
  email: string;
  role: AccountRole;
  status: 'PENDING' | 'ACCEPTED' | 'DECLINED' | 'REVOKED' | 'EXPIRED';
  expires_at: Date;
  invited_by: string | null;
  invited_at: Date;
}

const INVITATION_COLUMNS = 'uuid, account_uuid, email, role, status, expires_at, invited_by, invited_at';

/** 409 with a stable code the invitation page explains (expired, withdrawn, already answered). */
const linkConflict = (code: string, message: string) => new HttpError(409, code, message);

/** Why an invitation can no longer be answered, as the link page and the API name it; null while it is open. */
export function closedReason(
  row: Pick<InvitationRow, 'status' | 'expires_at'>,
): 'EXPIRED' | 'REVOKED' | 'USED' | null {
  if (row.status === 'PENDING') return new Date(row.expires_at) > new Date() ? null : 'EXPIRED';
  if (row.status === 'REVOKED') return 'REVOKED';
  if (row.status === 'EXPIRED') return 'EXPIRED';
  return 'USED';
}

export type InvitationKey = { token: string } | { accountUuid: string };

/** What the sign-in page shows of an open invitation to the holder of its link (decision 214). */
export interface OpenInvitation {
  email: string;
  accountName: string;
  inviterName: string | null;
  role: AccountRole;
}

/**
 * An open invitation (pending, not expired, its account not past deletion) by its link's token, for the sign-in
 * page that the link leads a person without a session to; null for any other token. The token is the only key:
 * nothing is read by address or account, so the page shows nothing to someone who does not hold the link.
 */
export async function openInvitationByToken(q: Queryable, token: string): Promise<OpenInvitation | null> {
  if (!token) return null;
  const { rows } = await q.query<{
    email: string;
    account_name: string;
    inviter_name: string | null;
    role: AccountRole;
  }>(
    `select i.email, a.name as account_name, inv.name as inviter_name, i.role
       from invitations i join accounts a on a.uuid = i.account_uuid
       left join users inv on inv.uuid = i.invited_by
      where i.token_hash = $1 and i.status = 'PENDING' and i.expires_at > now()
        and (a.available_until is null or a.available_until > now())`,
    [hashInvitationToken(token)],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    email: row.email,
    accountName: row.account_name,
    inviterName: row.inviter_name?.trim() || null,
    role: row.role,
  };
}

/**
 * Accepts or declines an invitation for the signed-in user, in one transaction with the row locked: by the mail's
 * token (the invited address must be the user's) or by account (the user's own open invitation to it). Either way
 * the user's address must be verified (403 `EMAIL_NOT_VERIFIED`, checked first so it tells nothing about the
 * invitation): someone who registered an address without proving it neither takes nor declines its seat
 * (decision 193). Accepting makes the user a member with the invited role; the link then is used and works no
 * more. Returns the account's uuid.
 */
export async function answerInvitation(
  tx: Queryable,
  user: PortalUser,
  key: InvitationKey,
  answer: 'ACCEPTED' | 'DECLINED',
  notifier: Notifier,
): Promise<string> {
  if (!user.emailVerified) {
    throw emailNotVerified('Verify your email address before you answer an invitation to it');
  }
  const { rows } =
    'token' in key
      ? await tx.query<InvitationRow>(
          `select ${INVITATION_COLUMNS} from invitations where token_hash = $1 for update`,
          [hashInvitationToken(key.token)],
        )
      : await tx.query<InvitationRow>(
          `select ${INVITATION_COLUMNS} from invitations
            where account_uuid = $1 and email = $2 and status = 'PENDING' for update`,
          [key.accountUuid, addressOf(user)],
        );
  const invitation = rows[0];
  if (!invitation) {
    if ('accountUuid' in key) {
      const member = await tx.query(
        'select 1 from account_members where account_uuid = $1 and user_uuid = $2',
        [key.accountUuid, user.uuid],
      );
      if (member.rows.length) throw conflict('The invitation has already been accepted');
    }
    throw notFound('No invitation to this account');
  }
  if (invitation.email !== addressOf(user)) {
    throw forbidden('This invitation is for another email address');
  }
  const reason = closedReason(invitation);
  if (reason === 'EXPIRED') throw linkConflict('INVITATION_EXPIRED', 'The invitation has expired');
  if (reason === 'REVOKED') throw linkConflict('INVITATION_REVOKED', 'The invitation has been withdrawn');
  if (reason === 'USED') throw linkConflict('INVITATION_USED', 'The invitation has already been answered');

  await tx.query(
    `update invitations set status = $2, answered_by = $3, answered_at = now() where uuid = $1`,
    [invitation.uuid, answer, user.uuid],
  );
  if (answer === 'ACCEPTED') {
    // Someone who became a member meanwhile keeps the role they have.
    await tx.query(
      `insert into account_members (account_uuid, user_uuid, role, invitation_status, invited_by, invited_at, accepted_at)
       values ($1, $2, $3, 'ACCEPTED', $4, $5, now()) on conflict do nothing`,
      [invitation.account_uuid, user.uuid, invitation.role, invitation.invited_by, invitation.invited_at],
    );
  }
  await writeAudit(tx, {
    accountUuid: invitation.account_uuid,
    actor: user,
    action: answer === 'ACCEPTED' ? 'invitation.accept' : 'invitation.decline',
    target: `invitation:${invitation.uuid}`,
    before: { invitationStatus: 'PENDING' },
    after: {
      invitationStatus: answer,
      email: invitation.email,
      ...(answer === 'ACCEPTED' ? { user: user.uuid, role: invitation.role } : {}),
    },
  });
  // The account's admins and above learn the answer (the one who answered is not told about themselves).
  const admins = await tx.query<{ user_uuid: string }>(
    `select user_uuid from account_members
      where account_uuid = $1 and role in ('ADMIN', 'DC', 'OWNER') and invitation_status = 'ACCEPTED'
        and user_uuid <> $2`,
    [invitation.account_uuid, user.uuid],
  );
  const recipients = admins.rows.map((row) => row.user_uuid);
  const accountUuid = invitation.account_uuid;
  if (answer === 'ACCEPTED') {
    await notifier.notify(tx, {
      accountUuid,
      userUuids: recipients,
      type: 'invitation.accepted',
      params: { email: invitation.email, name: user.name, role: invitation.role },
    });
  } else {
    await notifier.notify(tx, {
      accountUuid,
      userUuids: recipients,
      type: 'invitation.declined',
      params: { email: invitation.email, role: invitation.role },
    });
  }
  return invitation.account_uuid;
}
