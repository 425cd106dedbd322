import type { AccountRole, TwoFactorState, UserRole } from '@portal/contract';

/** The portal user behind a verified access token (provisioned on first sight). */
export interface PortalUser {
  uuid: string;
  subject: string;
  email: string;
  name: string;
  userRole: UserRole;
  language: string;
  emailVerified: boolean;
  createdAt: Date;
  /** The client address and browser of the request this user acts in (what the audit log records). */
  clientAddress?: string;
  userAgent?: string;
  /** The token's `sid`: the sign-in session it was issued in (the embedded provider's session uid). */
  sessionId?: string;
  /** The token's `amr` and `acr`: how the person signed in (an external Keycloak's proof of a second factor). */
  authMethods?: string[];
  authLevel?: string;
  /** The token proves a second factor at sign-in (its `amr`/`acr`, see access/two-factor.ts). */
  secondFactorShown?: boolean;
  /** The token's `auth_time`: when the person last entered their credentials, if the token says. */
  signedInAt?: Date;
}

/** The caller's access to the account named in the path. */
export interface AccountAccess {
  accountUuid: string;
  role: AccountRole;
  /** Staff acting on an account they are no member of (role SUPPORT, audited). */
  viaStaff: boolean;
  /** The account's two-factor rule as it applies to the caller (absent: none). */
  twoFactor?: TwoFactorState;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authenticate hook on routes that need a token. */
    user: PortalUser | null;
    /** Set by the account-scope hook on account routes, after the caller's access and role were checked. */
    account: AccountAccess | null;
  }
  interface FastifyContextConfig {
    /** Creating POST: honours the Idempotency-Key header. */
    idempotent?: boolean;
    /** Called by a native app, not the browser: no XSRF double submit (no cookie carries its credential). */
    appRoute?: boolean;
  }
}
