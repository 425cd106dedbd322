import Type from 'typebox';
import { DateTime, Entity, ErrorBody } from './common.ts';
import { defineRoute } from './route.ts';

/**
 * A person's own sign-in security (settings/users, tab "Sicherheit"): password, email, second factors, sessions
 * and sign-in history. The embedded sign-in service keeps these; with an external Keycloak (OIDC_ISSUER) its account
 * console does, and the portal only links there.
 */

/** What the security tab shows first: who keeps the credentials, and which second factors are set up. */
export const SecurityOverview = Type.Object({
  /** `embedded`: the portal's own sign-in service (every form below works); `external`: a Keycloak realm. */
  provider: Type.Enum(['embedded', 'external']),
  /** With an external Keycloak: its account console (`{issuer}/account`), where the person manages all of this. */
  accountConsoleUrl: Type.Union([Type.String(), Type.Null()]),
  /** An authenticator app (TOTP) is set up and confirmed. */
  totpEnabled: Type.Boolean(),
  /** Unused recovery codes left (0 without an authenticator app). */
  recoveryCodesLeft: Type.Integer({ minimum: 0 }),
  passkeyCount: Type.Integer({ minimum: 0 }),
  /** Any second factor (authenticator app or passkey). */
  hasSecondFactor: Type.Boolean(),
});
export type SecurityOverview = Type.Static<typeof SecurityOverview>;

/** One of the person's sign-in sessions: a browser where they signed in and have not signed out. */
export const SignInSession = Type.Object({
  /** The session's id at the sign-in service. */
  id: Type.String(),
  /** Browser and system read from the user agent it was last used with ("Chrome 131", "macOS"); null if unknown. */
  browser: Type.Union([Type.String(), Type.Null()]),
  system: Type.Union([Type.String(), Type.Null()]),
  /** The client address it was last used from. */
  clientAddress: Type.Union([Type.String(), Type.Null()]),
  /** When the person signed in. */
  startedAt: DateTime,
  /** When it last signed the portal in or had its tokens refreshed (every few minutes while a page is open). */
  lastActiveAt: DateTime,
  /** The session of this request (this browser). */
  current: Type.Boolean(),
});
export type SignInSession = Type.Static<typeof SignInSession>;

/** The sessions listed (the most recently active first, at most 100) and how many there are in all. */
export const SignInSessions = Type.Object({
  data: Type.Array(SignInSession),
  meta: Type.Object({ total: Type.Integer({ minimum: 0 }) }),
});
export type SignInSessions = Type.Static<typeof SignInSessions>;

/** How many sessions "sign out everywhere else" ended. */
export const EndedSessions = Type.Object({ ended: Type.Integer({ minimum: 0 }) });
export type EndedSessions = Type.Static<typeof EndedSessions>;

/** With an external Keycloak its account console lists and ends the sessions (409 with this code). */
export const SESSIONS_EXTERNAL = 'SESSIONS_MANAGED_EXTERNALLY';

const sessionErrors = { 401: ErrorBody, 409: ErrorBody };

export const securityRoutes = {
  getSecurityOverview: defineRoute({
    method: 'GET',
    path: '/users/v1/me/security',
    summary: "The signed-in person's sign-in security: who keeps it and which second factors are set up",
    tags: ['security'],
    response: { 200: Entity(SecurityOverview), 401: ErrorBody },
  }),
  listSignInSessions: defineRoute({
    method: 'GET',
    path: '/users/v1/me/sessions',
    summary: "The signed-in person's active sign-in sessions, this one marked",
    tags: ['security'],
    response: { 200: SignInSessions, ...sessionErrors },
  }),
  endSignInSession: defineRoute({
    method: 'DELETE',
    path: '/users/v1/me/sessions/{sessionId}',
    summary: 'Sign out one of the own sessions (its refresh tokens stop working)',
    tags: ['security'],
    params: Type.Object({ sessionId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) }),
    response: { 204: Type.Null(), 404: ErrorBody, ...sessionErrors },
  }),
  endOtherSignInSessions: defineRoute({
    method: 'POST',
    path: '/users/v1/me/sessions/sign-out-others',
    summary: 'Sign out every own session but this one',
    tags: ['security'],
    response: { 200: Entity(EndedSessions), ...sessionErrors },
  }),
};
