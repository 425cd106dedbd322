import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REQUESTED_LOCATION_KEY } from './requested-location.ts';
import { readTokens } from './tokens.ts';

/** keycloak-js stand-in: signed in after init; records logins. */
class FakeKeycloak {
  static last: FakeKeycloak | null = null;
  token?: string = 'access-1';
  refreshToken?: string = 'refresh-1';
  idToken?: string = 'id-1';
  onAuthRefreshSuccess?: () => void;
  login = vi.fn(async (_options?: Record<string, unknown>) => {});
  constructor() {
    FakeKeycloak.last = this;
  }
  init = vi.fn(async () => true);
  isTokenExpired = () => false;
  updateToken = vi.fn(async () => true);
  clearToken() {
    this.token = this.refreshToken = this.idToken = undefined;
  }
}
vi.mock('keycloak-js', () => ({ default: FakeKeycloak }));

const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => new Response(null, { status: 204 }));
const LOGOUT_URL = `${window.location.origin}/realms/portal/protocol/openid-connect/logout`;

async function signedIn() {
  const auth = await import('./auth.ts');
  expect(await auth.startAuth()).toEqual({ status: 'authenticated' });
  return { auth, kc: FakeKeycloak.last! };
}

function logoutCalls() {
  return fetchMock.mock.calls
    .filter(([url]) => url === LOGOUT_URL)
    .map(([, init]) => ({ method: init?.method, form: Object.fromEntries(init?.body as URLSearchParams) }));
}

beforeEach(() => {
  vi.resetModules();
  sessionStorage.clear();
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  window.history.replaceState(null, '', '/inbox?page=2');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('session ended in place (inactivity)', () => {
  it('clears the tokens and ends the provider session with the refresh token (Keycloak logout)', async () => {
    const { auth, kc } = await signedIn();
    expect(readTokens().refreshToken).toBe('refresh-1');

    auth.endSessionInPlace();

    expect(readTokens()).toEqual({ token: undefined, refreshToken: undefined, idToken: undefined });
    expect(kc.token).toBeUndefined();
    expect(logoutCalls()).toEqual([
      { method: 'POST', form: { client_id: 'portal', refresh_token: 'refresh-1' } },
    ]);
    // Nothing goes to the revocation endpoint, which refuses our JWT-shaped refresh tokens.
    expect(fetchMock.mock.calls.some(([url]) => url.endsWith('/revoke'))).toBe(false);
  });

  it('"Login" starts an ordinary login back to the current page, after the logout finished', async () => {
    const { auth, kc } = await signedIn();
    let finish: (response: Response) => void = () => {};
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (finish = resolve)));
    auth.endSessionInPlace();

    const login = auth.login();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(kc.login).not.toHaveBeenCalled();
    finish(new Response(null, { status: 204 }));
    await login;

    // No prompt=login: the session is gone, so the provider asks for the password anyway.
    expect(kc.login).toHaveBeenCalledWith({ redirectUri: `${window.location.origin}/oauthcb` });
    expect(sessionStorage.getItem(REQUESTED_LOCATION_KEY)).toBe('/inbox?page=2');
  });

  it('a failed logout call still lets the user log in again', async () => {
    const { auth, kc } = await signedIn();
    fetchMock.mockRejectedValueOnce(new TypeError('network down'));
    auth.endSessionInPlace();
    await auth.login();
    expect(kc.login).toHaveBeenCalledTimes(1);
  });

  it('a refresh that lands after the end is used to end the session, never stored', async () => {
    const { auth, kc } = await signedIn();
    auth.endSessionInPlace();
    // The refresh in flight used up refresh-1 and brought a new token.
    kc.token = 'access-2';
    kc.refreshToken = 'refresh-2';
    kc.onAuthRefreshSuccess?.();

    expect(readTokens().refreshToken).toBeUndefined();
    expect(kc.refreshToken).toBeUndefined();
    expect(logoutCalls().map((call) => call.form.refresh_token)).toEqual(['refresh-1', 'refresh-2']);
  });
});

describe('sign-in from an invitation link', () => {
  const origin = window.location.origin;
  const login = `${origin}/realms/portal/protocol/openid-connect/auth?client_id=portal&login_hint=ida%40example.org`;
  const page = (path: string) => {
    const url = new URL(path, origin);
    return { origin, pathname: url.pathname, search: url.search };
  };

  it('carries the link’s token to the embedded sign-in service, where registering proves the invited address', async () => {
    const { withInvitation } = await import('./auth.ts');
    const url = new URL(withInvitation(login, page('/invite/verify?token=tok-123&email=ida%40example.org')));
    expect(url.searchParams.get('invitation')).toBe('tok-123');
    expect(url.searchParams.get('login_hint')).toBe('ida@example.org');
  });

  it('adds nothing on other pages, without a token, or for an external identity provider', async () => {
    const { withInvitation } = await import('./auth.ts');
    expect(withInvitation(login, page('/inbox?token=tok-123'))).toBe(login);
    expect(withInvitation(login, page('/invite/verify?email=ida%40example.org'))).toBe(login);
    const external = 'https://sso.example.com/realms/portal/protocol/openid-connect/auth?client_id=portal';
    expect(withInvitation(external, page('/invite/verify?token=tok-123'))).toBe(external);
  });
});
