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

/** The start of setting up an authenticator app: the QR code to scan, or the secret to type in by hand. */
export const TotpEnrolment = Type.Object({
  /** The otpauth:// URI as an SVG QR code. */
  qrSvg: Type.String(),
  /** The secret (base32), for apps that cannot scan; shown once, here only. */
  secret: Type.String(),
  /** The names the entry has in the app: the product and the person's email. */
  issuer: Type.String(),
  label: Type.String(),
});
export type TotpEnrolment = Type.Static<typeof TotpEnrolment>;

export const ConfirmTotpBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 20 }) });
export type ConfirmTotpBody = Type.Static<typeof ConfirmTotpBody>;

/** The current password, asked again before a second factor is turned off or its recovery codes are replaced. */
export const PasswordConfirmationBody = Type.Object({
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type PasswordConfirmationBody = Type.Static<typeof PasswordConfirmationBody>;

/** New single-use recovery codes (xxxxx-xxxxx): shown once, only their hashes are kept. */
export const RecoveryCodes = Type.Object({ codes: Type.Array(Type.String()) });
export type RecoveryCodes = Type.Static<typeof RecoveryCodes>;

/**
 * Stable error codes of the two-factor routes: `EXTERNAL_IDP` (an external Keycloak keeps the sign-in),
 * `TOTP_ALREADY_ENABLED`, `TOTP_NOT_STARTED`, `TOTP_NOT_ENABLED`, `INVALID_CODE`, `WRONG_PASSWORD`,
 * `TOO_MANY_ATTEMPTS` (429, `details.fields.retryAfter` seconds).
 */
const totpErrors = { 401: ErrorBody, 409: ErrorBody, 422: ErrorBody, 429: ErrorBody };

export const securityRoutes = {
  getSecurityOverview: defineRoute({
    method: 'GET',
    path: '/users/v1/me/security',
    summary: "The signed-in person's sign-in security: who keeps it and which second factors are set up",
    tags: ['security'],
    response: { 200: Entity(SecurityOverview), 401: ErrorBody },
  }),
  startTotp: defineRoute({
    method: 'POST',
    path: '/users/v1/me/security/totp',
    summary:
      'Start setting up an authenticator app: a new secret, as QR code and as text (confirm with a code)',
    tags: ['security'],
    response: { 201: Entity(TotpEnrolment), ...totpErrors },
  }),
  confirmTotp: defineRoute({
    method: 'POST',
    path: '/users/v1/me/security/totp/confirm',
    summary: 'Turn the authenticator app on with its first code; answers the 10 recovery codes, once',
    tags: ['security'],
    body: ConfirmTotpBody,
    response: { 200: Entity(RecoveryCodes), ...totpErrors },
  }),
  disableTotp: defineRoute({
    method: 'POST',
    path: '/users/v1/me/security/totp/disable',
    summary: 'Turn the authenticator app off (current password); its recovery codes go with it',
    tags: ['security'],
    body: PasswordConfirmationBody,
    response: { 204: Type.Null(), ...totpErrors },
  }),
  regenerateRecoveryCodes: defineRoute({
    method: 'POST',
    path: '/users/v1/me/security/recovery-codes',
    summary: 'Replace the recovery codes with 10 new ones (current password); answers them, once',
    tags: ['security'],
    body: PasswordConfirmationBody,
    response: { 200: Entity(RecoveryCodes), ...totpErrors },
  }),
};
