import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { CloudConfig } from '../../config.ts';

/**
 * The portal as an OAuth 2.0 client of the cloud: discovery, the code exchange with the PKCE verifier, refresh,
 * revocation, the ID token's check and the organisations API. Every call is server-side HTTP with fetch. Errors
 * carry the HTTP status and the OAuth error code at most, never a body: a token answer must not end up in a log.
 */

/** How long one call to the cloud may take. */
const CALL_TIMEOUT_MS = 10_000;
/** How long the discovery document is kept before it is read again. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

export interface CloudDiscovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  revocation_endpoint?: string;
}

/** What the token endpoint answered, checked. */
export interface CloudTokens {
  accessToken: string;
  refreshToken: string | null;
  /** When the access token expires. */
  accessExpiresAt: Date;
  /** When the refresh token expires, when the cloud says so (refresh_expires_in, Keycloak). */
  refreshExpiresAt: Date | null;
  idToken: string | null;
  /** Granted scopes; null when the answer does not say (then they are the ones asked for). */
  scope: string | null;
}

/** Who signed in at the cloud. */
export interface CloudIdentity {
  subject: string;
  name: string | null;
  email: string | null;
}

export interface CloudOrganizationData {
  id: string;
  name: string;
  uid: string | null;
  role: string | null;
}

/**
 * Why a call to the cloud failed: `refused` — the cloud answered with an OAuth error (invalid_grant: the code, the
 * verifier or the refresh token is not valid); `unreachable` — no answer, a timeout or an answer that is not what the
 * protocol says; `unauthorized` — the API refused the access token; `aborted` — the caller went away.
 */
export class CloudCallError extends Error {
  constructor(
    readonly kind: 'refused' | 'unreachable' | 'unauthorized' | 'aborted',
    message: string,
    /** The OAuth error code the cloud answered (e.g. invalid_grant), never its description or body. */
    readonly oauthError: string | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'CloudCallError';
  }
}

export interface CloudClient {
  readonly config: CloudConfig;
  discovery(): Promise<CloudDiscovery>;
  exchangeCode(code: string, verifier: string): Promise<CloudTokens>;
  refresh(refreshToken: string): Promise<CloudTokens>;
  /** Revokes one token (RFC 7009); false when the cloud has no revocation endpoint. */
  revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<boolean>;
  /** The ID token's claims, its signature checked against the issuer's keys; else userinfo. */
  identity(tokens: CloudTokens): Promise<CloudIdentity>;
  organizations(accessToken: string, signal?: AbortSignal): Promise<CloudOrganizationData[]>;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** A fetch with the call timeout, also ended by `signal`; network failures become CloudCallError. */
async function call(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
  const signals = [AbortSignal.timeout(CALL_TIMEOUT_MS), ...(signal ? [signal] : [])];
  try {
    return await fetch(url, { ...init, signal: AbortSignal.any(signals), redirect: 'manual' });
  } catch (error) {
    if (signal?.aborted) throw new CloudCallError('aborted', 'the caller aborted the request');
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'failed';
    throw new CloudCallError('unreachable', `the call to the cloud ${reason}`);
  }
}

async function json(response: Response): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') return body as Record<string, unknown>;
  } catch {
    // not JSON: handled below
  }
  throw new CloudCallError('unreachable', `the cloud answered ${response.status} without a JSON body`);
}

/** An answer that is not 2xx: the cloud is not doing what the protocol says (its body is not read, not logged). */
function unexpected(what: string, response: Response): CloudCallError {
  return new CloudCallError('unreachable', `${what} answered ${response.status}`, null, response.status);
}

function toTokens(body: Record<string, unknown>, now = Date.now()): CloudTokens {
  const accessToken = text(body.access_token);
  const type = text(body.token_type);
  if (!accessToken || !type || type.toLowerCase() !== 'bearer') {
    throw new CloudCallError('unreachable', 'the token answer has no bearer access token');
  }
  const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300;
  const refreshIn = typeof body.refresh_expires_in === 'number' ? body.refresh_expires_in : null;
  return {
    accessToken,
    refreshToken: text(body.refresh_token),
    accessExpiresAt: new Date(now + expiresIn * 1000),
    // Keycloak says 0 for an offline token that does not expire.
    refreshExpiresAt: refreshIn ? new Date(now + refreshIn * 1000) : null,
    idToken: text(body.id_token),
    scope: text(body.scope),
  };
}

export function createCloudClient(config: CloudConfig): CloudClient {
  let cached: { at: number; value: Promise<CloudDiscovery> } | null = null;
  let keys: { uri: string; getKey: JWTVerifyGetKey } | null = null;

  /** The client's authentication at the token and revocation endpoints: Basic for a confidential client. */
  function clientAuth(form: URLSearchParams): Record<string, string> {
    if (!config.clientSecret) {
      form.set('client_id', config.clientId);
      return {};
    }
    const pair = `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`;
    return { authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
  }

  async function loadDiscovery(): Promise<CloudDiscovery> {
    const url = `${config.issuer}/.well-known/openid-configuration`;
    const response = await call(url, { headers: { accept: 'application/json' } });
    if (!response.ok) {
      throw unexpected('discovery', response);
    }
    const body = await json(response);
    const issuer = text(body.issuer);
    const authorization = text(body.authorization_endpoint);
    const token = text(body.token_endpoint);
    const jwksUri = text(body.jwks_uri);
    if (issuer !== config.issuer || !authorization || !token || !jwksUri) {
      throw new CloudCallError('unreachable', 'the discovery document does not match CLOUD_ISSUER');
    }
    return {
      issuer,
      authorization_endpoint: authorization,
      token_endpoint: token,
      jwks_uri: jwksUri,
      userinfo_endpoint: text(body.userinfo_endpoint) ?? undefined,
      revocation_endpoint: text(body.revocation_endpoint) ?? undefined,
    };
  }

  async function tokenCall(form: URLSearchParams): Promise<CloudTokens> {
    const { token_endpoint } = await client.discovery();
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      ...clientAuth(form),
    };
    const response = await call(token_endpoint, { method: 'POST', headers, body: form.toString() });
    if (response.ok) return toTokens(await json(response));
    // An OAuth error answer (400/401 with `error`): the cloud refused; only its error code is kept.
    if (response.status === 400 || response.status === 401) {
      const body = await json(response).catch(() => ({}) as Record<string, unknown>);
      const error = text(body.error);
      if (error) {
        throw new CloudCallError('refused', `the cloud refused the grant (${error})`, error, response.status);
      }
    }
    throw unexpected('the token endpoint', response);
  }

  const client: CloudClient = {
    config,

    discovery() {
      if (!cached || Date.now() - cached.at > DISCOVERY_TTL_MS) {
        const value = loadDiscovery();
        cached = { at: Date.now(), value };
        // A failure is not kept: the next call asks again.
        value.catch(() => {
          if (cached?.value === value) cached = null;
        });
      }
      return cached.value;
    },

    exchangeCode(code, verifier) {
      return tokenCall(
        new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: config.redirectUri,
        }),
      );
    },

    refresh(refreshToken) {
      return tokenCall(new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }));
    },

    async revoke(token, hint) {
      const { revocation_endpoint } = await client.discovery();
      if (!revocation_endpoint) return false;
      const form = new URLSearchParams({ token, token_type_hint: hint });
      const headers = { 'content-type': 'application/x-www-form-urlencoded', ...clientAuth(form) };
      const response = await call(revocation_endpoint, { method: 'POST', headers, body: form.toString() });
      await response.body?.cancel();
      if (!response.ok) {
        throw unexpected('revocation', response);
      }
      return true;
    },

    async identity(tokens) {
      const discovery = await client.discovery();
      if (tokens.idToken) {
        if (keys?.uri !== discovery.jwks_uri) {
          keys = { uri: discovery.jwks_uri, getKey: createRemoteJWKSet(new URL(discovery.jwks_uri)) };
        }
        try {
          const { payload } = await jwtVerify(tokens.idToken, keys.getKey, {
            issuer: config.issuer,
            audience: config.clientId,
          });
          const subject = text(payload.sub);
          if (subject) return { subject, name: text(payload.name), email: text(payload.email) };
        } catch {
          throw new CloudCallError('unreachable', 'the ID token did not verify against the issuer’s keys');
        }
      }
      if (!discovery.userinfo_endpoint) {
        throw new CloudCallError(
          'unreachable',
          'neither an ID token nor a userinfo endpoint names the person',
        );
      }
      const response = await call(discovery.userinfo_endpoint, {
        headers: { authorization: `Bearer ${tokens.accessToken}`, accept: 'application/json' },
      });
      if (!response.ok) {
        throw unexpected('userinfo', response);
      }
      const body = await json(response);
      const subject = text(body.sub);
      if (!subject) throw new CloudCallError('unreachable', 'userinfo names no subject');
      return { subject, name: text(body.name), email: text(body.email) };
    },

    async organizations(accessToken, signal) {
      const response = await call(
        config.organizationsUrl,
        { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } },
        signal,
      );
      if (response.status === 401) {
        await response.body?.cancel();
        throw new CloudCallError('unauthorized', 'the cloud API refused the access token', null, 401);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw unexpected('the organisations API', response);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        if (signal?.aborted) throw new CloudCallError('aborted', 'the caller aborted the request');
        throw new CloudCallError('unreachable', 'the organisations API answered no JSON');
      }
      // The list itself, or under `organizations`, `items` or `data`.
      const record = (body ?? {}) as Record<string, unknown>;
      const list = Array.isArray(body) ? body : (record.organizations ?? record.items ?? record.data);
      if (!Array.isArray(list))
        throw new CloudCallError('unreachable', 'the organisations API answered no list');
      return list.flatMap((item: unknown) => {
        const entry = (item ?? {}) as Record<string, unknown>;
        const id = text(entry.id) ?? (typeof entry.id === 'number' ? String(entry.id) : null);
        const name = text(entry.name);
        return id && name ? [{ id, name, uid: text(entry.uid), role: text(entry.role) }] : [];
      });
    },
  };
  return client;
}
