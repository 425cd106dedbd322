import Type from 'typebox';
import {
  AccountRoleSchema,
  DateTime,
  EMAIL_MAX,
  Entity,
  ErrorBody,
  LanguageSchema,
  List,
  Uuid,
  PageNumber,
} from './common.ts';
import { Account } from './accounts.ts';
import { defineRoute } from './route.ts';

/** Days an invitation link stays valid; a resend starts the period again with a new link. */
export const INVITATION_VALID_DAYS = 7;
/** Addresses one invitation request may carry. */
export const INVITE_EMAILS_MAX = 20;
/** Invitation mails (new and resent) one account may send per hour. */
export const INVITATIONS_PER_HOUR = 50;
/** Longest note to a digital coach, in characters. */
export const INVITATION_NOTE_MAX = 500;
/** Largest page of the members list; "all" is offered only up to this many rows. */
export const MEMBERS_PAGE_SIZE_MAX = 100;

/** One address as invitations compare it: trimmed, lower case. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * The comma-separated entry of the invite field as a list of addresses: split at commas (and semicolons,
 * whitespace), trimmed, empty parts dropped, each address once.
 */
export function splitEmails(value: string): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const part of value.split(/[,;\s]+/)) {
    const email = part.trim();
    if (email && !seen.has(email.toLowerCase())) {
      seen.add(email.toLowerCase());
      result.push(email);
    }
  }
  return result;
}

/** Roles the member form gives; OWNER comes only through a transfer, DC only through the digital-coach form. */
export const MEMBER_ROLES = ['EMPLOYEE', 'ADMIN'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const MemberRoleSchema = Type.Enum(MEMBER_ROLES);
export const InviteRoleSchema = Type.Enum(['EMPLOYEE', 'ADMIN', 'DC'] as const);

/**
 * Status of a row in the members list: a member (ACCEPTED), or an invitation still open (PENDING) or past its
 * expiry (EXPIRED, to resend or revoke).
 */
export const MEMBER_STATUSES = ['ACCEPTED', 'PENDING', 'EXPIRED'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export const MemberStatusSchema = Type.Enum(MEMBER_STATUSES);

/** A row of the members list: a member (`kind` MEMBER, id = user uuid) or an invitation (id = invitation uuid). */
export const Member = Type.Object({
  id: Uuid,
  kind: Type.Enum(['MEMBER', 'INVITATION'] as const),
  /** Empty for an invitation to someone the portal does not know yet. */
  name: Type.String(),
  email: Type.String(),
  role: AccountRoleSchema,
  status: MemberStatusSchema,
  invitedBy: Type.Union([Type.String(), Type.Null()]),
  invitedAt: DateTime,
  /** Invitations: when the current link stops working. */
  expiresAt: Type.Union([DateTime, Type.Null()]),
  /** Members: the last sign-in the portal saw; null for invitations and for members who never signed in. */
  lastSignInAt: Type.Union([DateTime, Type.Null()]),
  /** Members: whether this is the caller. */
  isSelf: Type.Boolean(),
  /**
   * Members: a second factor (authenticator app or passkey) is set up. Null for invitations, and with an external
   * Keycloak, where the portal cannot see it.
   */
  hasTwoFactor: Type.Union([Type.Boolean(), Type.Null()]),
});
export type Member = Type.Static<typeof Member>;

/** `coaches` lists the digital coaches (role DC) and invitations to them; `members` everyone else. */
export const MembersQuery = Type.Object(
  {
    section: Type.Optional(Type.Enum(['members', 'coaches'] as const)),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    role: Type.Optional(AccountRoleSchema),
    status: Type.Optional(MemberStatusSchema),
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MEMBERS_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type MembersQuery = Type.Static<typeof MembersQuery>;

export const InviteBody = Type.Object(
  {
    emails: Type.Array(Type.String({ maxLength: EMAIL_MAX }), { minItems: 1, maxItems: INVITE_EMAILS_MAX }),
    role: InviteRoleSchema,
    /** A note to the invited person, shown in the mail (digital coaches). */
    note: Type.Optional(Type.String({ maxLength: INVITATION_NOTE_MAX })),
  },
  { additionalProperties: false },
);
export type InviteBody = Type.Static<typeof InviteBody>;

export const UpdateMemberBody = Type.Object({ role: MemberRoleSchema }, { additionalProperties: false });
export type UpdateMemberBody = Type.Static<typeof UpdateMemberBody>;

/**
 * An invitation as its link shows it to the signed-in holder. `status` says whether it can still be answered:
 * PENDING (open), EXPIRED, REVOKED (withdrawn or replaced by a newer link), USED (accepted or declined).
 * `forYou` tells whether the signed-in user's address is the invited one.
 */
export const InvitationLink = Type.Object({
  accountUuid: Uuid,
  accountName: Type.String(),
  role: AccountRoleSchema,
  email: Type.String(),
  invitedBy: Type.Union([Type.String(), Type.Null()]),
  status: Type.Enum(['PENDING', 'EXPIRED', 'REVOKED', 'USED'] as const),
  expiresAt: DateTime,
  forYou: Type.Boolean(),
  language: LanguageSchema,
});
export type InvitationLink = Type.Static<typeof InvitationLink>;

const TokenParams = Type.Object({
  token: Type.String({ minLength: 16, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }),
});
const IdParams = Type.Object({ id: Uuid });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const admin = { min: 'ADMIN' } as const;

export const membersRoutes = {
  listMembers: defineRoute({
    method: 'GET',
    path: '/members/v1/members',
    summary: 'List the members of the account and its open invitations, paginated',
    tags: ['members'],
    accountScoped: true,
    accountRole: admin,
    querystring: MembersQuery,
    response: { 200: List(Member), ...errors },
  }),
  getMember: defineRoute({
    method: 'GET',
    path: '/members/v1/members/{id}',
    summary: 'Read one member of the account',
    tags: ['members'],
    accountScoped: true,
    accountRole: admin,
    params: IdParams,
    response: { 200: Entity(Member), ...errors },
  }),
  updateMember: defineRoute({
    method: 'PATCH',
    path: '/members/v1/members/{id}',
    summary: "Change a member's role (EMPLOYEE or ADMIN)",
    tags: ['members'],
    accountScoped: true,
    accountRole: admin,
    params: IdParams,
    body: UpdateMemberBody,
    response: { 200: Entity(Member), ...errors, 409: ErrorBody },
  }),
  removeMember: defineRoute({
    method: 'DELETE',
    path: '/members/v1/members/{id}',
    summary: 'Remove a member from the account',
    tags: ['members'],
    accountScoped: true,
    accountRole: admin,
    params: IdParams,
    response: { 204: Type.Null(), ...errors },
  }),
  invite: defineRoute({
    method: 'POST',
    path: '/members/v1/invitations',
    summary: 'Invite people by email address with a role; each gets a mail with a one-time link',
    tags: ['members'],
    accountScoped: true,
    accountRole: admin,
    body: InviteBody,
    response: { 201: List(Member), ...errors, 409: ErrorBody, 429: ErrorBody },
  }),
  resendInvitation: defineRoute({
    method: 'POST',
    path: '/members/v1/invitations/{id}/resend',
    summary: 'Send an invitation again with a new link; the old link stops working',
    tags: ['members'],
    accountScoped: true,
    accountRole: admin,
    params: IdParams,
    response: { 200: Entity(Member), ...errors, 409: ErrorBody, 429: ErrorBody },
  }),
  revokeInvitation: defineRoute({
    method: 'DELETE',
    path: '/members/v1/invitations/{id}',
    summary: 'Revoke an open invitation; its link stops working',
    tags: ['members'],
    accountScoped: true,
    accountRole: admin,
    params: IdParams,
    response: { 204: Type.Null(), ...errors },
  }),
  readInvitationLink: defineRoute({
    method: 'GET',
    path: '/members/v1/invitation-links/{token}',
    summary:
      "Read the invitation behind a mail's link (account, role, who invited, whether it is still open)",
    tags: ['members'],
    params: TokenParams,
    response: { 200: Entity(InvitationLink), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  acceptInvitationLink: defineRoute({
    method: 'POST',
    path: '/members/v1/invitation-links/{token}/accept',
    summary: "Accept the invitation behind a mail's link, as the invited address",
    tags: ['members'],
    params: TokenParams,
    response: { 200: Entity(Account), ...errors, 409: ErrorBody },
  }),
  declineInvitationLink: defineRoute({
    method: 'POST',
    path: '/members/v1/invitation-links/{token}/decline',
    summary: "Decline the invitation behind a mail's link, as the invited address",
    tags: ['members'],
    params: TokenParams,
    response: { 204: Type.Null(), ...errors, 409: ErrorBody },
  }),
};
