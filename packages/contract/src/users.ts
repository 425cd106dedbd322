import Type from 'typebox';
import {
  DateTime,
  Entity,
  ErrorBody,
  LanguageSchema,
  List,
  UserRoleSchema,
  Uuid,
  UuidParams,
} from './common.ts';
import { Account } from './accounts.ts';
import { defineRoute } from './route.ts';

/** The signed-in user (the "me" resource). */
export const User = Type.Object({
  uuid: Uuid,
  email: Type.String(),
  name: Type.String(),
  userRole: UserRoleSchema,
  language: LanguageSchema,
  emailVerified: Type.Boolean(),
  createdAt: DateTime,
});
export type User = Type.Static<typeof User>;

export const USER_NAME_MAX = 120;

export const UpdateMeBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: USER_NAME_MAX })),
    language: Type.Optional(LanguageSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateMeBody = Type.Static<typeof UpdateMeBody>;

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 422: ErrorBody };

export const usersRoutes = {
  getMe: defineRoute({
    method: 'GET',
    path: '/users/v1/me',
    summary: 'Read the signed-in user',
    tags: ['users'],
    response: { 200: Entity(User), 401: ErrorBody },
  }),
  updateMe: defineRoute({
    method: 'PATCH',
    path: '/users/v1/me',
    summary: 'Update the signed-in user (name, interface language)',
    tags: ['users'],
    body: UpdateMeBody,
    response: { 200: Entity(User), ...errors },
  }),
  listMyAccounts: defineRoute({
    method: 'GET',
    path: '/users/v1/me/accounts',
    summary: "List the signed-in user's accounts, pending invitations included",
    tags: ['users'],
    response: { 200: List(Account), 401: ErrorBody },
  }),
  acceptInvitation: defineRoute({
    method: 'POST',
    path: '/users/v1/me/accounts/{id}/invitation/accept',
    summary: 'Accept a pending invitation to an account',
    tags: ['users'],
    params: UuidParams,
    response: { 200: Entity(Account), ...errors, 409: ErrorBody },
  }),
  declineInvitation: defineRoute({
    method: 'POST',
    path: '/users/v1/me/accounts/{id}/invitation/decline',
    summary: 'Decline a pending invitation to an account',
    tags: ['users'],
    params: UuidParams,
    response: { 204: Type.Null(), ...errors, 409: ErrorBody },
  }),
  leaveAccount: defineRoute({
    method: 'DELETE',
    path: '/users/v1/me/accounts/{id}',
    summary: 'Leave an account the caller is a member of (not its owner, who transfers the ownership first)',
    tags: ['users'],
    params: UuidParams,
    response: { 204: Type.Null(), ...errors, 409: ErrorBody },
  }),
};
