import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import type { Identity } from './identities.ts';

// What the two realms of the sign-in service (the portal's, provider.ts, and the cloud's, deepcloud-realm.ts) share:
// the endpoint names, the client shape, the claims, the cookies, and how grants and SSO sessions end.

/** Keycloak's endpoint names under the realm, so keycloak-js (adapter mode) works unchanged. */
const OIDC_PATH = '/protocol/openid-connect';
export const ROUTES = {
  authorization: `${OIDC_PATH}/auth`,
  token: `${OIDC_PATH}/token`,
  jwks: `${OIDC_PATH}/certs`,
  userinfo: `${OIDC_PATH}/userinfo`,
  end_session: `${OIDC_PATH}/logout`,
  revocation: `${OIDC_PATH}/revoke`,
  introspection: `${OIDC_PATH}/token/introspect`,
  pushed_authorization_request: `${OIDC_PATH}/ext/par/request`,
  registration: '/clients-registrations/openid-connect',
  device_authorization: `${OIDC_PATH}/auth/device`,
  code_verification: '/device',
  backchannel_authentication: `${OIDC_PATH}/ext/ciba/auth`,
  challenge: `${OIDC_PATH}/ext/challenge`,
  credential: `${OIDC_PATH}/ext/credential`,
};

/** What the clients of both realms share: the authorization code flow with refresh tokens, RS256 ID tokens. */
export const CODE_FLOW_CLIENT = {
  application_type: 'web',
  response_types: ['code'],
  grant_types: ['authorization_code', 'refresh_token'],
  id_token_signed_response_alg: 'RS256',
} as const;

/** The claims each scope releases, alike in both realms. */
export const SCOPE_CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'given_name', 'family_name', 'preferred_username', 'locale'],
  email: ['email', 'email_verified'],
};

/**
 * A realm's cookies: the SSO cookie is a browser-session cookie under the realm's own path (so the realms never see
 * each other's), its idle timeout lives in the database.
 */
export function realmCookies(keys: string[], realmPath: string): NonNullable<Configuration['cookies']> {
  return {
    keys,
    long: { httpOnly: true, sameSite: 'lax', path: realmPath, signed: true },
    short: { httpOnly: true, sameSite: 'lax', signed: true },
  };
}

function splitName(name: string): { given: string; family: string } {
  const trimmed = name.trim();
  const cut = trimmed.lastIndexOf(' ');
  return cut > 0
    ? { given: trimmed.slice(0, cut), family: trimmed.slice(cut + 1) }
    : { given: trimmed, family: '' };
}

/** The identity's claims, as tokens, userinfo and the account endpoint carry them. */
export function identityClaims(identity: Identity) {
  const { given, family } = splitName(identity.name);
  return {
    sub: identity.id,
    email: identity.email,
    email_verified: identity.emailVerified,
    name: identity.name,
    given_name: given,
    family_name: family,
    preferred_username: identity.email.toLowerCase(),
    locale: identity.locale,
  };
}

/** Deletes a grant and everything issued under it (refresh tokens, codes). */
export async function revokeGrant(db: Db, grantId: string): Promise<void> {
  await db.query(`delete from idp_payloads where grant_id = $1 or (model = 'Grant' and id = $1)`, [grantId]);
}

/** Ends an SSO session: revokes the grants of every client signed in through it, then destroys it. */
export async function endSession(db: Db, session: InstanceType<Provider['Session']>): Promise<void> {
  for (const authorization of Object.values(session.authorizations ?? {})) {
    if (authorization.grantId) await revokeGrant(db, authorization.grantId);
  }
  await session.destroy();
}
