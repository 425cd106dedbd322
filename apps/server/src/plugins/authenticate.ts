import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { DeletedLoginError, provisionUser, type TokenIdentity } from '../access/users.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { bearerToken } from '../http/bearer.ts';
import { tokenShowsSecondFactor } from '../access/two-factor.ts';
import { HttpError } from '../http/errors.ts';

/** Asymmetric algorithms only: `none` and HMAC (a public key used as a secret) never verify. */
export const TOKEN_ALGORITHMS = ['RS256', 'ES256', 'PS256'];
/** At most one key reload per interval when tokens name an unknown key id (a forged kid must not hammer the db). */
const RELOAD_INTERVAL_MS = 5_000;
/** The key set is read again after this long, so a key the provider retired stops verifying here too. */
const KEY_SET_MAX_AGE_MS = 60_000;
/**
 * Verified tokens are remembered (by the token itself) until they expire, but not longer than the key set: a token
 * whose key was retired stops being accepted within the same minute as without the cache. Verifying a signature was
 * the largest single cost of an authenticated request; a browser sends the same token for minutes.
 */
const VERIFIED_MAX_AGE_MS = KEY_SET_MAX_AGE_MS;
const VERIFIED_MAX_TOKENS = 5_000;

/**
 * Keys of the embedded provider, read from its store: reloaded when a token names a key id not seen yet (the
 * provider rotated its key, maybe on another instance) and at least once a minute (retired keys leave).
 */
export function refreshingLocalJwks(load: () => Promise<JSONWebKeySet>): JWTVerifyGetKey {
  let keys: ReturnType<typeof createLocalJWKSet> | null = null;
  let loadedAt = 0;
  let loading: Promise<void> | null = null;
  const reload = () =>
    (loading ??= load()
      .then((jwks) => {
        keys = createLocalJWKSet(jwks);
        loadedAt = Date.now();
      })
      .finally(() => {
        loading = null;
      }));
  return async (header, token) => {
    if (!keys || Date.now() - loadedAt > KEY_SET_MAX_AGE_MS) await reload();
    try {
      return await keys!(header, token);
    } catch (error) {
      if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
      // A key id not seen yet: read the set again, but not sooner than the interval after the last read (a new key
      // of another instance may have come just after it; the wait is shared by every request that needs it).
      const seen = loadedAt;
      const wait = seen + RELOAD_INTERVAL_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // One read for everyone who waited: none when another request read the set meanwhile.
      if (loadedAt === seen) await reload();
      return keys!(header, token);
    }
  };
}

/** Keys of an external issuer (Keycloak's certs endpoint), fetched and cached by jose. */
export function remoteJwks(config: Config): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(`${config.oidc.issuer}/protocol/openid-connect/certs`));
}

function unauthorized(reply: FastifyReply, message: string, code = 'UNAUTHORIZED'): HttpError {
  reply.header('WWW-Authenticate', `Bearer realm="portal", error="invalid_token"`);
  return new HttpError(401, code, message);
}

function identityOf(payload: JWTPayload): TokenIdentity {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  const joined = [text(payload.given_name), text(payload.family_name)].filter(Boolean).join(' ');
  return {
    subject: payload.sub!,
    email: text(payload.email),
    name: text(payload.name) ?? (joined || text(payload.preferred_username)),
    emailVerified: typeof payload.email_verified === 'boolean' ? payload.email_verified : undefined,
    locale: text(payload.locale),
    issuedAt: typeof payload.iat === 'number' ? new Date(payload.iat * 1000) : undefined,
    signedInAt: typeof payload.auth_time === 'number' ? new Date(payload.auth_time * 1000) : undefined,
  };
}

/**
 * The onRequest hook of every route that needs a token: verifies the Bearer access token (issuer, audience,
 * algorithm, expiry) and puts the provisioned portal user on the request; otherwise 401 JSON.
 */
export function createAuthenticate(options: { config: Config; db: Db; getKey: JWTVerifyGetKey }) {
  const { config, db, getKey } = options;
  const verified = new LRUCache<string, JWTPayload>({ max: VERIFIED_MAX_TOKENS });
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthorized(reply, 'Sign in: a Bearer access token is required');
    let payload: JWTPayload;
    try {
      const remembered = verified.get(token);
      payload =
        remembered ??
        (
          await jwtVerify(token, getKey, {
            issuer: config.oidc.issuer,
            audience: config.oidc.audience,
            algorithms: TOKEN_ALGORITHMS,
            requiredClaims: ['sub', 'exp'],
          })
        ).payload;
      const ttl = Math.min(payload.exp! * 1000 - Date.now(), VERIFIED_MAX_AGE_MS);
      if (!remembered && ttl > 0) verified.set(token, payload, { ttl });
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired)
        throw unauthorized(reply, 'The access token has expired', 'TOKEN_EXPIRED');
      if (error instanceof joseErrors.JWKSTimeout) {
        throw new HttpError(503, 'IDP_UNAVAILABLE', 'The identity provider does not answer');
      }
      if (error instanceof joseErrors.JOSEError) throw unauthorized(reply, 'The access token is not valid');
      // Not a token problem: the key source (remote JWKS, database) failed.
      request.log.warn({ err: error }, 'token keys unavailable');
      throw new HttpError(503, 'IDP_UNAVAILABLE', 'Access tokens cannot be checked right now');
    }
    const identity = identityOf(payload);
    const authMethods = Array.isArray(payload.amr)
      ? payload.amr.filter((m): m is string => typeof m === 'string')
      : undefined;
    const authLevel = typeof payload.acr === 'string' ? payload.acr : undefined;
    let provisioned;
    try {
      provisioned = await provisionUser(db, identity);
    } catch (error) {
      if (error instanceof DeletedLoginError) throw unauthorized(reply, error.message);
      throw error;
    }
    request.user = {
      ...provisioned,
      clientAddress: request.ip,
      userAgent: request.headers['user-agent'],
      sessionId: typeof payload.sid === 'string' ? payload.sid : undefined,
      authMethods,
      authLevel,
      secondFactorShown: tokenShowsSecondFactor(config.oidc, { authMethods, authLevel }),
      signedInAt: identity.signedInAt,
    };
  };
}
