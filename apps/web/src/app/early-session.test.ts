import { afterEach, describe, expect, it, vi } from 'vitest';
import { announcementsRoutes, usersRoutes, type RouteDef } from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { createQueryClient } from '@/api/query-client.ts';
import { meQuery, myAccountsQuery } from '@/api/session.ts';
import { clearTokens, writeTokens } from '@/auth/tokens.ts';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { dismissToast, getToasts } from '@/ui/toast-store.ts';
import { secondsLeft, settleSessionLoads, startSessionLoads } from './early-session.ts';

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

afterEach(() => clearTokens());

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
    settleSessionLoads(queryClient, loadedFor);
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
    settleSessionLoads(queryClient, null);
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
    settleSessionLoads(queryClient, loadedFor);
    expect(queryClient.getQueryData(meQuery.queryKey)).toBeUndefined();
    expect(queryClient.getQueryData(myAccountsQuery.queryKey)).toBeUndefined();
  });
});
