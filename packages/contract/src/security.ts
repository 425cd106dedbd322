import Type from 'typebox';
import { DateTime, EMAIL_MAX, Entity, ErrorBody, List, Uuid, UuidParams } from './common.ts';
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

/**
 * With an external Keycloak its account console keeps password, email, second factors and sessions: every security
 * route but the overview answers 409 with this code.
 */
export const SIGN_IN_MANAGED_EXTERNALLY = 'SIGN_IN_MANAGED_EXTERNALLY';

const sessionErrors = { 401: ErrorBody, 409: ErrorBody };
/** Longest name of a passkey, in characters. */
export const PASSKEY_NAME_MAX = 60;
/** Passkeys one person may register. */
export const PASSKEYS_MAX = 10;

/** A passkey (WebAuthn credential) of the signed-in person, with the name they gave it. */
export const Passkey = Type.Object({
  id: Uuid,
  name: Type.String(),
  createdAt: DateTime,
  lastUsedAt: Type.Union([DateTime, Type.Null()]),
  /** The passkey is synced between devices (e.g. by a password manager) rather than kept on one device. */
  backedUp: Type.Boolean(),
});
export type Passkey = Type.Static<typeof Passkey>;

const PasskeyName = Type.String({ minLength: 1, maxLength: PASSKEY_NAME_MAX });

/**
 * The browser's `PublicKeyCredentialCreationOptionsJSON` (WebAuthn Level 3), as `startRegistration()` of
 * @simplewebauthn/browser takes it. Only the members the web app reads are named.
 */
export const PasskeyRegistrationOptions = Type.Object(
  { challenge: Type.String(), rp: Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }) },
  { additionalProperties: true },
);
export type PasskeyRegistrationOptions = Type.Static<typeof PasskeyRegistrationOptions>;

/** A new passkey: its name and the browser's `RegistrationResponseJSON` to the options asked for before. */
export const RegisterPasskeyBody = Type.Object(
  {
    name: PasskeyName,
    response: Type.Object(
      { id: Type.String(), rawId: Type.String(), type: Type.String() },
      {
        additionalProperties: true,
      },
    ),
  },
  { additionalProperties: false },
);
export type RegisterPasskeyBody = Type.Static<typeof RegisterPasskeyBody>;

export const RenamePasskeyBody = Type.Object({ name: PasskeyName }, { additionalProperties: false });
export type RenamePasskeyBody = Type.Static<typeof RenamePasskeyBody>;

const passkeyErrors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody };
/** Longest password the API takes (the policy refuses longer ones with a reason; this only bounds the body). */
const PASSWORD_FIELD = Type.String({ minLength: 1, maxLength: 1024 });

/** Change the password: the current one proves it is the person; the new one must pass the password policy. */
export const PasswordChange = Type.Object(
  { currentPassword: PASSWORD_FIELD, newPassword: PASSWORD_FIELD },
  { additionalProperties: false },
);
export type PasswordChange = Type.Static<typeof PasswordChange>;

/**
 * Field error keys of the password change (422; 429 for `locked`, with the wait in `retryAfter` seconds): the web
 * shows them in the person's language. `newPassword` names the policy's reason: `tooShort`, `tooLong`,
 * `containsEmail`, `containsName`, `tooWeak` or `tooWeak.<hint>` (common, keyboard, repeat, sequence, date, word),
 * or `sameAsCurrent` (the new password is the current one).
 */
export const PASSWORD_CHANGE_ERRORS = { wrongPassword: 'wrongPassword', locked: 'locked' } as const;

/** Change the email address: the new one gets a confirmation link; the current password proves it is the person. */
export const EmailChange = Type.Object(
  {
    newEmail: Type.String({ minLength: 1, maxLength: EMAIL_MAX }),
    currentPassword: PASSWORD_FIELD,
  },
  { additionalProperties: false },
);
export type EmailChange = Type.Static<typeof EmailChange>;

/** A change of the email address waiting for its link to be opened (null when none is). */
export const EmailChangeState = Type.Object({
  pending: Type.Union([Type.Object({ email: Type.String(), expiresAt: DateTime }), Type.Null()]),
});
export type EmailChangeState = Type.Static<typeof EmailChangeState>;

export const SIGN_IN_OUTCOMES = ['success', 'wrong-password', 'locked', 'second-factor-failed'] as const;
export const SIGN_IN_METHODS = ['password', 'totp', 'recovery-code', 'passkey'] as const;
export const SIGN_INS_PAGE_SIZE = 20;

/** One sign-in attempt of the person's history. */
export const SignInEntry = Type.Object({
  id: Type.String(),
  at: DateTime,
  outcome: Type.Enum(SIGN_IN_OUTCOMES),
  method: Type.Enum(SIGN_IN_METHODS),
  /** Browser with its major version, e.g. "Chrome 131"; null when the user agent does not tell. */
  browser: Type.Union([Type.String(), Type.Null()]),
  /** Operating system, e.g. "macOS"; null when unknown. */
  system: Type.Union([Type.String(), Type.Null()]),
  clientAddress: Type.Union([Type.String(), Type.Null()]),
});
export type SignInEntry = Type.Static<typeof SignInEntry>;

export const SignInsQuery = Type.Object(
  {
    /** Opaque keyset cursor from the previous page's `meta.nextCursor`. */
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type SignInsQuery = Type.Static<typeof SignInsQuery>;

/** A page of the sign-in history (the last 90 days), newest first; `nextCursor` is null on the last page. */
export const SignInsPage = Type.Object({
  data: Type.Array(SignInEntry),
  meta: Type.Object({ pageSize: Type.Integer(), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
});
export type SignInsPage = Type.Static<typeof SignInsPage>;

/** Answers of the forms of the embedded sign-in service; with an external Keycloak they are 404. */
const formErrors = { 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody, 429: ErrorBody };
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
 * Stable error codes of the two-factor routes: `SIGN_IN_MANAGED_EXTERNALLY` (an external Keycloak keeps it),
 * `TOTP_ALREADY_ENABLED`, `TOTP_NOT_STARTED`, `TOTP_NOT_ENABLED`, `INVALID_CODE`; a wrong password is a 422 with
 * `{ password: 'wrongPassword' }` and the lockout a 429 `LOCKED` (`details.fields.retryAfter` seconds).
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
  listSignInSessions: defineRoute({
    method: 'GET',
    path: '/users/v1/me/security/sessions',
    summary: "The signed-in person's active sign-in sessions, this one marked",
    tags: ['security'],
    response: { 200: SignInSessions, ...sessionErrors },
  }),
  endSignInSession: defineRoute({
    method: 'DELETE',
    path: '/users/v1/me/security/sessions/{sessionId}',
    summary: 'Sign out one of the own sessions (its refresh tokens stop working)',
    tags: ['security'],
    params: Type.Object({ sessionId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) }),
    response: { 204: Type.Null(), 404: ErrorBody, ...sessionErrors },
  }),
  endOtherSignInSessions: defineRoute({
    method: 'POST',
    path: '/users/v1/me/security/sessions/sign-out-others',
    summary: 'Sign out every own session but this one',
    tags: ['security'],
    response: { 200: Entity(EndedSessions), ...sessionErrors },
  }),
  listPasskeys: defineRoute({
    method: 'GET',
    path: '/users/v1/me/security/passkeys',
    summary: "The signed-in person's passkeys, oldest first (at most PASSKEYS_MAX, so one page)",
    tags: ['security'],
    response: { 200: List(Passkey), 401: ErrorBody, 409: ErrorBody },
  }),
  passkeyRegistrationOptions: defineRoute({
    method: 'POST',
    path: '/users/v1/me/security/passkeys/registration-options',
    summary:
      'Start registering a passkey: the options for the browser, with a single-use challenge (5 minutes)',
    tags: ['security'],
    response: { 200: Entity(PasskeyRegistrationOptions), ...passkeyErrors },
  }),
  registerPasskey: defineRoute({
    method: 'POST',
    path: '/users/v1/me/security/passkeys',
    summary: "Register a passkey: the browser's answer to the registration options, and its name",
    tags: ['security'],
    body: RegisterPasskeyBody,
    response: { 201: Entity(Passkey), ...passkeyErrors },
  }),
  renamePasskey: defineRoute({
    method: 'PATCH',
    path: '/users/v1/me/security/passkeys/{id}',
    summary: 'Rename one of the signed-in person’s passkeys',
    tags: ['security'],
    params: UuidParams,
    body: RenamePasskeyBody,
    response: { 200: Entity(Passkey), ...passkeyErrors },
  }),
  removePasskey: defineRoute({
    method: 'DELETE',
    path: '/users/v1/me/security/passkeys/{id}',
    summary: 'Remove one of the signed-in person’s passkeys',
    tags: ['security'],
    params: UuidParams,
    response: { 204: Type.Null(), ...passkeyErrors },
  }),
  changePassword: defineRoute({
    method: 'POST',
    path: '/users/v1/me/security/password',
    summary: 'Change the password (current one required); ends the other sign-in sessions',
    tags: ['security'],
    body: PasswordChange,
    response: { 204: Type.Null(), ...formErrors },
  }),
  getEmailChange: defineRoute({
    method: 'GET',
    path: '/users/v1/me/security/email',
    summary: 'The change of the email address waiting for its confirmation link, if any',
    tags: ['security'],
    response: { 200: Entity(EmailChangeState), 401: ErrorBody, 404: ErrorBody },
  }),
  requestEmailChange: defineRoute({
    method: 'POST',
    path: '/users/v1/me/security/email',
    summary:
      'Ask to change the email address: a confirmation link goes to the new one, a notice to the old one',
    tags: ['security'],
    body: EmailChange,
    response: { 202: Entity(EmailChangeState), ...formErrors },
  }),
  cancelEmailChange: defineRoute({
    method: 'DELETE',
    path: '/users/v1/me/security/email',
    summary: 'Cancel the pending change of the email address (its link stops working)',
    tags: ['security'],
    response: { 204: Type.Null(), 401: ErrorBody, 404: ErrorBody },
  }),
  listSignIns: defineRoute({
    method: 'GET',
    path: '/users/v1/me/security/sign-ins',
    summary: 'A page of the sign-in history of the last 90 days, newest first (keyset pagination)',
    tags: ['security'],
    querystring: SignInsQuery,
    response: { 200: SignInsPage, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 422: ErrorBody },
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
