import Type from 'typebox';
import { Entity, ErrorBody } from './common.ts';
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

export const securityRoutes = {
  getSecurityOverview: defineRoute({
    method: 'GET',
    path: '/users/v1/me/security',
    summary: "The signed-in person's sign-in security: who keeps it and which second factors are set up",
    tags: ['security'],
    response: { 200: Entity(SecurityOverview), 401: ErrorBody },
  }),
};
