import { afterEach, describe, expect, it, vi } from 'vitest';
import { announcementsRoutes, usersRoutes, type RouteDef } from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { createQueryClient } from '@/api/query-client.ts';
import { meQuery, myAccountsQuery } from '@/api/session.ts';
import { buildHeaders, buildUrl } from '@/api/client.ts';
import { CALLBACK_PATH, SIGNUP_PATH } from '@/auth/requested-location.ts';
import { clearTokens, writeTokens } from '@/auth/tokens.ts';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { dismissToast, getToasts } from '@/ui/toast-store.ts';
import indexHtml from '../../index.html?raw';
import { secondsLeft, sessionLoadsAnswered, settleSessionLoads, startSessionLoads } from './early-session.ts';

mockApi();

const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/** An access token that expires `seconds` from now (unsigned: only the API verifies signatures). */
const tokenFor = (seconds: number, claims: object = {}) =>
  `${base64url({ alg: 'RS256' })}.${base64url({ exp: Math.floor(Date.now() / 1000) + seconds, sub: 'u', ...claims })}.sig`;

const ME = { uuid: 'u', language: 'de' };
const ACCOUNTS = [{ uuid: 'a' }];

function answer(status: number | null = null) {
  apiRequest.mockImplementation((route: RouteDef) => {
    if (status) return Promise.reject(new ApiError(status, 'refused', 'UNAUTHORIZED'));
    if (route === usersRoutes.getMe) return Promise.resolve({ data: ME });
    if (route === usersRoutes.listMyAccounts) return Promise.resolve({ data: ACCOUNTS });
    if (route === announcementsRoutes.listCurrentAnnouncements) return Promise.resolve({ data: [] });
    return Promise.reject(new Error(`unexpected ${route.method} ${route.path}`));
  });
}

afterEach(() => {
  clearTokens();
  delete window.portalEarlyLoads;
});

describe('the first loads on a reload', () => {
  it('reads the seconds left from the token and nothing from a malformed one', () => {
    expect(secondsLeft(tokenFor(300))).toBeGreaterThan(298);
    expect(secondsLeft('not-a-token')).toBeNull();
    expect(secondsLeft(`x.${base64url({ sub: 'u' })}.y`)).toBeNull();
  });

  it('loads the user, the accounts and the announcements with a saved token that is still valid', async () => {
    writeTokens({ token: tokenFor(300), refreshToken: 'r' });
    answer();
    const queryClient = createQueryClient();
    const loadedFor = await startSessionLoads(queryClient);
    // The refresh brought a token for the same person: the answers stay for the guard.
    writeTokens({ token: tokenFor(300, { iat: 1 }), refreshToken: 'r2' });
    settleSessionLoads(queryClient, loadedFor, { shown: false });
    expect(apiRequest.mock.calls.map(([route]) => route)).toEqual([
      usersRoutes.getMe,
      usersRoutes.listMyAccounts,
      announcementsRoutes.listCurrentAnnouncements,
    ]);
    expect(queryClient.getQueryData(meQuery.queryKey)).toEqual(ME);
    expect(queryClient.getQueryData(myAccountsQuery.queryKey)).toEqual(ACCOUNTS);
  });

  it('starts nothing without a token or with one about to expire', async () => {
    answer();
    await startSessionLoads(createQueryClient());
    writeTokens({ token: tokenFor(5), refreshToken: 'r' });
    await startSessionLoads(createQueryClient());
    expect(apiRequest).not.toHaveBeenCalled();
  });

  it('leaves a refused load to the sign-in check: no new login, no toast, asked again afterwards', async () => {
    writeTokens({ token: tokenFor(300), refreshToken: 'r' });
    answer(401);
    // Files of this worker share the toast store: start from none.
    getToasts().forEach((toast) => dismissToast(toast.id));
    const onUnauthorized = vi.fn();
    const queryClient = createQueryClient({ onUnauthorized });
    await startSessionLoads(queryClient);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(getToasts()).toHaveLength(0);
    expect(queryClient.getQueryState(meQuery.queryKey)?.status).toBe('error');
    settleSessionLoads(queryClient, null, { shown: false });
    expect(queryClient.getQueryState(meQuery.queryKey)).toBeUndefined();

    // The same 401 after the check signs in again.
    await queryClient.prefetchQuery(meQuery);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('forgets them when the refreshed token names the person differently: an address verified meanwhile', async () => {
    writeTokens({
      token: tokenFor(300, { email: 'a@example.com', email_verified: false }),
      refreshToken: 'r',
    });
    answer();
    const queryClient = createQueryClient();
    const loadedFor = await startSessionLoads(queryClient);
    expect(queryClient.getQueryData(meQuery.queryKey)).toEqual(ME);
    writeTokens({
      token: tokenFor(300, { email: 'a@example.com', email_verified: true }),
      refreshToken: 'r2',
    });
    settleSessionLoads(queryClient, loadedFor, { shown: false });
    expect(queryClient.getQueryData(meQuery.queryKey)).toBeUndefined();
    expect(queryClient.getQueryData(myAccountsQuery.queryKey)).toBeUndefined();
  });

  it('loads them again in place when the refreshed token names the person differently and the page shows', async () => {
    writeTokens({ token: tokenFor(300, { email_verified: false }), refreshToken: 'r' });
    answer();
    const queryClient = createQueryClient();
    const loadedFor = await startSessionLoads(queryClient);
    expect(sessionLoadsAnswered(queryClient)).toBe(true);
    writeTokens({ token: tokenFor(300, { email_verified: true }), refreshToken: 'r2' });
    settleSessionLoads(queryClient, loadedFor, { shown: true });
    // Still there for the page that shows them, marked stale and asked again.
    expect(queryClient.getQueryData(meQuery.queryKey)).toEqual(ME);
    expect(queryClient.getQueryState(meQuery.queryKey)?.isInvalidated).toBe(true);
  });
});

describe("the answers of index.html's script", () => {
  const response = (body: unknown, status = 200) =>
    Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    );

  it('are taken for the saved token instead of asking again, each once', async () => {
    const token = tokenFor(300);
    writeTokens({ token, refreshToken: 'r' });
    answer();
    window.portalEarlyLoads = {
      token,
      answers: {
        '/api/users/v1/me': response({ data: { uuid: 'early' } }),
        '/api/users/v1/me/accounts': response({ data: [{ uuid: 'early-account' }] }),
      },
    };
    const queryClient = createQueryClient();
    await startSessionLoads(queryClient);
    expect(queryClient.getQueryData(meQuery.queryKey)).toEqual({ uuid: 'early' });
    expect(queryClient.getQueryData(myAccountsQuery.queryKey)).toEqual([{ uuid: 'early-account' }]);
    // Only the announcements, which the script had not asked for, went out.
    expect(apiRequest.mock.calls.map(([route]) => route)).toEqual([
      announcementsRoutes.listCurrentAnnouncements,
    ]);
    expect(window.portalEarlyLoads.answers).toEqual({});
  });

  it('are not taken for another token, and a refusal among them is left to the sign-in check', async () => {
    writeTokens({ token: tokenFor(300), refreshToken: 'r' });
    answer();
    window.portalEarlyLoads = { token: 'another', answers: { '/api/users/v1/me': response({ data: {} }) } };
    const queryClient = createQueryClient();
    await startSessionLoads(queryClient);
    expect(queryClient.getQueryData(meQuery.queryKey)).toEqual(ME);

    const token = tokenFor(300, { iat: 2 });
    writeTokens({ token, refreshToken: 'r' });
    const onUnauthorized = vi.fn();
    window.portalEarlyLoads = {
      token,
      answers: { '/api/users/v1/me': response({ message: 'expired', code: 'UNAUTHORIZED' }, 401) },
    };
    const refused = createQueryClient({ onUnauthorized });
    await startSessionLoads(refused);
    expect(refused.getQueryState(meQuery.queryKey)?.status).toBe('error');
    expect(sessionLoadsAnswered(refused)).toBe(false);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  /** index.html's inline script, run as the page runs it; `signInClient` as the build names it. */
  const runIndexScript = (signInClient = '') => {
    const body = /<script>([\s\S]*?)<\/script>/.exec(indexHtml)?.[1];
    expect(body).toContain("var signInClient = '';");
    new Function(body!.replace("var signInClient = '';", `var signInClient = '${signInClient}';`))();
  };

  it('ask for what the app would ask for, with the same headers, while the saved token is valid', () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(() => response({ data: null }));
    runIndexScript();
    expect(fetch).not.toHaveBeenCalled();
    writeTokens({ token: tokenFor(5), refreshToken: 'r' });
    runIndexScript();
    expect(fetch).not.toHaveBeenCalled();

    const token = tokenFor(300);
    writeTokens({ token, refreshToken: 'r' });
    runIndexScript();
    const routes = [
      usersRoutes.getMe,
      usersRoutes.listMyAccounts,
      announcementsRoutes.listCurrentAnnouncements,
    ];
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(routes.map((route) => buildUrl<RouteDef>(route)));
    const expected = Object.fromEntries(buildHeaders('GET', false));
    for (const [, init] of fetch.mock.calls) {
      expect(Object.fromEntries(new Headers(init?.headers))).toEqual(expected);
      expect(init?.credentials).toBe('same-origin');
    }
    expect(window.portalEarlyLoads?.token).toBe(token);
    expect(Object.keys(window.portalEarlyLoads?.answers ?? {})).toHaveLength(3);
  });

  it('preload the sign-in client when the sign-in runs first, and only then', () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => response({ data: null }));
    const preloaded = () =>
      [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => {
        link.remove();
        return link.getAttribute('href');
      });
    // No saved session: the sign-in runs first.
    runIndexScript('/assets/keycloak-1.js');
    expect(preloaded()).toEqual(['/assets/keycloak-1.js']);
    // A reload with a valid saved session shows its page first; the client loads after it.
    writeTokens({ token: tokenFor(300), refreshToken: 'r' });
    runIndexScript('/assets/keycloak-1.js');
    expect(preloaded()).toEqual([]);
    // The return from the sign-in service waits for the client, whatever was saved.
    for (const path of [CALLBACK_PATH, SIGNUP_PATH]) {
      window.history.replaceState(null, '', path);
      runIndexScript('/assets/keycloak-1.js');
      expect(preloaded()).toEqual(['/assets/keycloak-1.js']);
    }
    window.history.replaceState(null, '', '/');
    // A development server names no client.
    clearTokens();
    runIndexScript();
    expect(preloaded()).toEqual([]);
  });
});
