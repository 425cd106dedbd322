// The browser's half of connecting the cloud (OAuth 2.0 authorization code with PKCE): each attempt gets a
// random state and verifier; the verifier waits in localStorage under the state until the cloud sends the
// browser back, for at most CLOUD_CONNECT_STATE_TTL_MS, and is read exactly once.
import {
  CLOUD_CODE_MAX,
  CLOUD_CONNECT_STATE_TTL_MS,
  CLOUD_CONNECT_STORAGE_PREFIX,
  PKCE_VERIFIER_PATTERN,
  type CloudAuthBody,
  type CloudAuthorization,
} from '@portal/contract';

/** What one connect attempt keeps in the browser, under its state. */
export interface StoredConnect {
  pkceCodeVerifier: string;
  /** The account the attempt was started for: only that account may finish it. */
  accountUuid: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** 32 random bytes give 43 base64url characters: the shortest verifier RFC 7636 allows, with 256 bits. */
const RANDOM_BYTES = 32;
const verifierPattern = new RegExp(PKCE_VERIFIER_PATTERN);

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unguessable value for the state and the verifier, from the browser's cryptographic random source. */
export function randomToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(RANDOM_BYTES)));
}

/** The S256 code challenge: base64url of the SHA-256 of the verifier. */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** The stored attempt when it has the right shape, else null (a foreign or damaged value counts as missing). */
export function parseStoredConnect(raw: string | null): StoredConnect | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredConnect> | null;
    if (
      typeof value?.pkceCodeVerifier === 'string' &&
      typeof value.accountUuid === 'string' &&
      typeof value.createdAt === 'number' &&
      Number.isFinite(value.createdAt)
    )
      return {
        pkceCodeVerifier: value.pkceCodeVerifier,
        accountUuid: value.accountUuid,
        createdAt: value.createdAt,
      };
  } catch {
    // not JSON: treated as missing
  }
  return null;
}

/** An attempt is usable for 60 minutes after it started (and never when its time lies in the future). */
export function isExpired(entry: StoredConnect, now: number): boolean {
  return now - entry.createdAt > CLOUD_CONNECT_STATE_TTL_MS || entry.createdAt > now;
}

/** Removes every stored attempt that has expired or cannot be read, so abandoned attempts do not pile up. */
export function sweepConnectStates(storage: Storage, now: number): void {
  const stale: string[] = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (!key?.startsWith(CLOUD_CONNECT_STORAGE_PREFIX)) continue;
    const entry = parseStoredConnect(storage.getItem(key));
    if (!entry || isExpired(entry, now)) stale.push(key);
  }
  for (const key of stale) storage.removeItem(key);
}

/** The cloud's sign-in address for one attempt. */
export function authorizeUrl(authorization: CloudAuthorization, state: string, challenge: string): string {
  const url = new URL(authorization.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', authorization.clientId);
  url.searchParams.set('redirect_uri', authorization.redirectUri);
  url.searchParams.set('scope', authorization.scope);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

export interface StartOptions {
  storage?: Storage;
  now?: number;
  /** Leaves the app for the cloud's sign-in. */
  assign?: (url: string) => void;
}

/**
 * Starts connecting `accountUuid`: sweeps stale attempts, stores a new one under a fresh state and sends the
 * browser to the cloud's sign-in.
 */
export async function startCloudConnect(
  authorization: CloudAuthorization,
  accountUuid: string,
  {
    storage = localStorage,
    now = Date.now(),
    assign = (url) => window.location.assign(url),
  }: StartOptions = {},
): Promise<void> {
  const state = randomToken();
  const pkceCodeVerifier = randomToken();
  const challenge = await codeChallenge(pkceCodeVerifier);
  sweepConnectStates(storage, now);
  const entry: StoredConnect = { pkceCodeVerifier, accountUuid, createdAt: now };
  storage.setItem(CLOUD_CONNECT_STORAGE_PREFIX + state, JSON.stringify(entry));
  assign(authorizeUrl(authorization, state, challenge));
}

export type CallbackDecision =
  { kind: 'dashboard' } | { kind: 'exchange'; body: CloudAuthBody; state: string };

export interface CallbackInput {
  /** The callback's query string. */
  search: URLSearchParams;
  /** What was stored under the query's state (already removed from storage), or null. */
  stored: string | null;
  /** The tab's current account. */
  accountUuid: string | null;
  now: number;
}

/**
 * The callback's rule: without a code, a state or a usable stored attempt (missing, damaged, expired, or started
 * for another account than the tab's) the browser goes to the dashboard without a word; otherwise the code and
 * the verifier are exchanged.
 */
export function decideCloudCallback({ search, stored, accountUuid, now }: CallbackInput): CallbackDecision {
  const code = search.get('code');
  const state = search.get('state');
  const dashboard = { kind: 'dashboard' } as const;
  if (!code || !state || code.length > CLOUD_CODE_MAX) return dashboard;
  const entry = parseStoredConnect(stored);
  if (!entry || isExpired(entry, now)) return dashboard;
  if (!accountUuid || entry.accountUuid !== accountUuid) return dashboard;
  if (!verifierPattern.test(entry.pkceCodeVerifier)) return dashboard;
  return { kind: 'exchange', body: { pkceCodeVerifier: entry.pkceCodeVerifier, code }, state };
}

/** Reads and removes the attempt stored under the query's state (read once, whatever follows). */
export function takeStoredConnect(storage: Storage, search: URLSearchParams): string | null {
  const state = search.get('state');
  if (!state) return null;
  const key = CLOUD_CONNECT_STORAGE_PREFIX + state;
  const raw = storage.getItem(key);
  storage.removeItem(key);
  return raw;
}
