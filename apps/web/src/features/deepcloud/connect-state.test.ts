import { beforeEach, describe, expect, it } from 'vitest';
import { CLOUD_CONNECT_STATE_TTL_MS, PKCE_VERIFIER_PATTERN } from '@portal/contract';
import {
  base64url,
  codeChallenge,
  decideCloudCallback,
  parseStoredConnect,
  randomToken,
  startCloudConnect,
  sweepConnectStates,
} from './connect-state.ts';

const authorization = {
  authorizationEndpoint: 'https://cloud.example/realms/cloud/protocol/openid-connect/auth?kc_idp_hint=x',
  clientId: 'portal',
  scope: 'openid organizations offline_access',
  redirectUri: 'https://portal.example/deepcloud/connect',
};
const NOW = Date.UTC(2026, 10, 23, 12);
const PREFIX = 'deepcloud-connect:';
const verifier = 'a'.repeat(43);

function stored(): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  for (const key of Object.keys(localStorage))
    if (key.startsWith(PREFIX)) entries[key] = JSON.parse(localStorage.getItem(key)!);
  return entries;
}

beforeEach(() => localStorage.clear());

describe('connect start', () => {
  it('makes base64url tokens of 43 characters that a PKCE verifier may be, different each time', () => {
    const tokens = new Set(Array.from({ length: 20 }, randomToken));
    expect(tokens.size).toBe(20);
    for (const token of tokens) expect(token).toMatch(new RegExp(PKCE_VERIFIER_PATTERN));
    expect(base64url(new Uint8Array([251, 255, 191]))).toBe('-_-_');
  });

  it('derives the S256 challenge: base64url of the verifier’s SHA-256', async () => {
    expect(await codeChallenge(verifier)).toBe('ZtNPunH49FD35FWYhT5Tv8I7vRKQJ8uxMaL0_9eHjNA');
  });

  it('stores verifier, account and time under the state and sends the browser to the cloud’s sign-in', async () => {
    let target = '';
    await startCloudConnect(authorization, 'acc-1', { now: NOW, assign: (url) => (target = url) });
    const url = new URL(target);
    expect(`${url.origin}${url.pathname}`).toBe(
      'https://cloud.example/realms/cloud/protocol/openid-connect/auth',
    );
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({
      kc_idp_hint: 'x',
      response_type: 'code',
      client_id: 'portal',
      redirect_uri: 'https://portal.example/deepcloud/connect',
      scope: 'openid organizations offline_access',
      code_challenge_method: 'S256',
    });
    const entry = stored()[PREFIX + query.state] as { pkceCodeVerifier: string };
    expect(entry).toEqual({ pkceCodeVerifier: expect.any(String), accountUuid: 'acc-1', createdAt: NOW });
    expect(query.code_challenge).toBe(await codeChallenge(entry.pkceCodeVerifier));
    expect(entry.pkceCodeVerifier).not.toBe(query.state);
  });

  it('sweeps attempts older than 60 minutes and unreadable ones, and keeps fresh ones and other keys', async () => {
    const put = (key: string, value: unknown) => localStorage.setItem(key, JSON.stringify(value));
    put(`${PREFIX}old`, {
      pkceCodeVerifier: verifier,
      accountUuid: 'a',
      createdAt: NOW - CLOUD_CONNECT_STATE_TTL_MS - 1,
    });
    put(`${PREFIX}edge`, {
      pkceCodeVerifier: verifier,
      accountUuid: 'a',
      createdAt: NOW - CLOUD_CONNECT_STATE_TTL_MS,
    });
    localStorage.setItem(`${PREFIX}junk`, 'not json');
    put('accountUuid', 'acc-1');
    sweepConnectStates(localStorage, NOW);
    expect(Object.keys(stored())).toEqual([`${PREFIX}edge`]);
    expect(localStorage.getItem('accountUuid')).toBe('"acc-1"');
  });
});

describe('callback decision', () => {
  const entry = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ pkceCodeVerifier: verifier, accountUuid: 'acc-1', createdAt: NOW - 1000, ...extra });
  const decide = (search: string, raw: string | null, accountUuid: string | null = 'acc-1') =>
    decideCloudCallback({ search: new URLSearchParams(search), stored: raw, accountUuid, now: NOW });

  it('exchanges the code with the stored verifier when everything fits', () => {
    expect(decide('code=c1&state=s', entry())).toEqual({
      kind: 'exchange',
      body: { pkceCodeVerifier: verifier, code: 'c1' },
      state: 's',
    });
  });

  it.each([
    ['no code', 'state=s', entry()],
    ['an empty code', 'code=&state=s', entry()],
    ['no state', 'code=c1', entry()],
    ['no stored attempt', 'code=c1&state=s', null],
    ['a damaged attempt', 'code=c1&state=s', '{"pkceCodeVerifier":1}'],
    ['an expired attempt', 'code=c1&state=s', entry({ createdAt: NOW - CLOUD_CONNECT_STATE_TTL_MS - 1 })],
    ['an attempt dated in the future', 'code=c1&state=s', entry({ createdAt: NOW + 60_000 })],
    ['another account’s attempt', 'code=c1&state=s', entry({ accountUuid: 'acc-2' })],
    ['a verifier PKCE does not allow', 'code=c1&state=s', entry({ pkceCodeVerifier: 'short' })],
    ['an oversized code', `code=${'x'.repeat(2049)}&state=s`, entry()],
  ])('goes to the dashboard for %s', (_case, search, raw) => {
    expect(decide(search, raw)).toEqual({ kind: 'dashboard' });
  });

  it('goes to the dashboard when the tab has no account', () => {
    expect(decide('code=c1&state=s', entry(), null)).toEqual({ kind: 'dashboard' });
  });

  it('reads only well-formed entries', () => {
    expect(parseStoredConnect(null)).toBeNull();
    expect(parseStoredConnect('null')).toBeNull();
    expect(parseStoredConnect(entry())).toEqual({
      pkceCodeVerifier: verifier,
      accountUuid: 'acc-1',
      createdAt: NOW - 1000,
    });
  });
});
