import Type from 'typebox';
import { DateTime, Entity, ErrorBody, List, Uuid, UuidParams, PageNumber } from './common.ts';
import { ACCOUNT_NAME_MAX } from './accounts.ts';
import { defineRoute } from './route.ts';

/** Days a transfer of ownership waits for the chosen admin's answer; after that it has expired. */
export const OWNERSHIP_TRANSFER_DAYS = 7;

/** Most admins on one page of the transfer form's choice list (the server caps the page size). */
export const TRANSFER_CANDIDATES_PAGE_MAX = 50;

/** A member as the ownership pages name them. */
export const OwnershipPerson = Type.Object({
  uuid: Uuid,
  name: Type.String(),
  email: Type.String(),
});
export type OwnershipPerson = Type.Static<typeof OwnershipPerson>;

export const TRANSFER_STATUSES = ['PENDING', 'ACCEPTED', 'DECLINED', 'CANCELLED', 'EXPIRED'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** A request of the owner to hand the account to one of its admins. */
export const OwnershipTransfer = Type.Object({
  uuid: Uuid,
  accountUuid: Uuid,
  accountName: Type.String(),
  status: Type.Enum(TRANSFER_STATUSES),
  from: OwnershipPerson,
  to: OwnershipPerson,
  createdAt: DateTime,
  /** After this instant a pending transfer can no longer be accepted. */
  expiresAt: DateTime,
  /** When it was accepted, declined or cancelled. */
  decidedAt: Type.Union([DateTime, Type.Null()]),
});
export type OwnershipTransfer = Type.Static<typeof OwnershipTransfer>;

/** The settings/ownership page: who owns the account since when, and the transfer under way, if any. */
export const Ownership = Type.Object({
  accountName: Type.String(),
  owner: OwnershipPerson,
  /** When the owner became owner (accepted membership as OWNER). */
  ownerSince: Type.Union([DateTime, Type.Null()]),
  pendingTransfer: Type.Union([OwnershipTransfer, Type.Null()]),
});
export type Ownership = Type.Static<typeof Ownership>;

export const StartTransferBody = Type.Object(
  {
    /** The admin who is to become owner. */
    toUserUuid: Uuid,
    /** The account's name, typed by the owner to confirm (compared trimmed, case-insensitively). */
    confirmAccountName: Type.String({ minLength: 1, maxLength: ACCOUNT_NAME_MAX }),
  },
  { additionalProperties: false },
);
export type StartTransferBody = Type.Static<typeof StartTransferBody>;

/** Whether the typed confirmation names the account (the form and the server compare alike). */
export function confirmsAccountName(typed: string, accountName: string): boolean {
  return typed.trim().toLocaleLowerCase() === accountName.trim().toLocaleLowerCase();
}

export const CandidatesQuery = Type.Object(
  {
    search: Type.Optional(Type.String({ maxLength: 120 })),
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: TRANSFER_CANDIDATES_PAGE_MAX })),
  },
  { additionalProperties: false },
);
export type CandidatesQuery = Type.Static<typeof CandidatesQuery>;

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const OWNER_ONLY = { exactly: 'OWNER', denied: 'Only the owner can transfer the ownership' } as const;

export const ownershipRoutes = {
  getOwnership: defineRoute({
    method: 'GET',
    path: '/ownership/v1/ownership',
    summary: 'Who owns the account, and the pending transfer of its ownership',
    tags: ['ownership'],
    accountScoped: true,
    accountRole: { min: 'OWNER', denied: 'Only the owner can see the ownership' },
    response: { 200: Entity(Ownership), ...errors },
  }),
  listTransferCandidates: defineRoute({
    method: 'GET',
    path: '/ownership/v1/candidates',
    summary: 'The admins the owner can hand the account to, by name',
    tags: ['ownership'],
    accountScoped: true,
    accountRole: { min: 'OWNER', denied: 'Only the owner can see who could become owner' },
    querystring: CandidatesQuery,
    response: { 200: List(OwnershipPerson), ...errors },
  }),
  getMyPendingTransfer: defineRoute({
    method: 'GET',
    path: '/ownership/v1/transfers/pending',
    summary: 'The pending transfer the caller takes part in (as owner or as the chosen admin), or null',
    tags: ['ownership'],
    accountScoped: true,
    accountRole: { min: 'EMPLOYEE' },
    response: { 200: Entity(Type.Union([OwnershipTransfer, Type.Null()])), ...errors },
  }),
  startTransfer: defineRoute({
    method: 'POST',
    path: '/ownership/v1/transfers',
    summary: 'Offer the ownership to an admin of the account (owner only); they accept or decline',
    tags: ['ownership'],
    accountScoped: true,
    accountRole: OWNER_ONLY,
    body: StartTransferBody,
    response: { 201: Entity(OwnershipTransfer), ...errors, 409: ErrorBody },
  }),
  cancelTransfer: defineRoute({
    method: 'POST',
    path: '/ownership/v1/transfers/{id}/cancel',
    summary: 'Withdraw a pending transfer (owner only)',
    tags: ['ownership'],
    accountScoped: true,
    accountRole: OWNER_ONLY,
    params: UuidParams,
    response: { 200: Entity(OwnershipTransfer), ...errors, 409: ErrorBody },
  }),
  acceptTransfer: defineRoute({
    method: 'POST',
    path: '/ownership/v1/transfers/{id}/accept',
    summary: 'Accept the ownership (the chosen admin only): the old owner becomes ADMIN',
    tags: ['ownership'],
    accountScoped: true,
    // Only the chosen admin passes; the handler compares the caller with the transfer's recipient.
    accountRole: { min: 'ADMIN' },
    params: UuidParams,
    response: { 200: Entity(OwnershipTransfer), ...errors, 409: ErrorBody },
  }),
  declineTransfer: defineRoute({
    method: 'POST',
    path: '/ownership/v1/transfers/{id}/decline',
    summary: 'Decline the ownership (the chosen admin only)',
    tags: ['ownership'],
    accountScoped: true,
    accountRole: { min: 'ADMIN' },
    params: UuidParams,
    response: { 200: Entity(OwnershipTransfer), ...errors, 409: ErrorBody },
  }),
};
