import type { QueryClient } from '@tanstack/react-query';
import { announcementsRoutes, usersRoutes, type RouteDef } from '@portal/contract';
import { buildUrl, readAnswer } from '@/api/client.ts';
import { currentAnnouncementsQuery } from '@/api/current-announcements.ts';
import { meQuery, myAccountsQuery } from '@/api/session.ts';
import { accessToken } from '@/auth/tokens.ts';
import { preloadAnnouncementBars } from './shell/toolbars.tsx';

/** Seconds a saved access token must still be valid for the first page's loads to start with it. */
const MIN_SECONDS_LEFT = 15;

/** The token's claims, read without verifying them (the API verifies); null when unreadable. */
function claimsOf(token: string): Record<string, unknown> | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const claims: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Seconds until the access token's `exp`; null when unreadable. */
export function secondsLeft(token: string, now = Date.now()): number | null {
  const exp = claimsOf(token)?.exp;
  return typeof exp === 'number' ? exp - now / 1000 : null;
}

/**
 * What the server takes from the access token into the person's answers (access/users.ts): the subject, the
 * address and whether it is verified, the name, the language. Null without a readable token.
 */
function identityOf(token: string | null): string | null {
  const claims = token ? claimsOf(token) : null;
  if (!claims) return null;
  return JSON.stringify(
    ['sub', 'email', 'email_verified', 'name', 'locale'].map((key) => claims[key] ?? null),
  );
}

/** The keys of the first loads. */
const FIRST_LOADS = [meQuery.queryKey, myAccountsQuery.queryKey, currentAnnouncementsQuery.queryKey];

declare global {
  interface Window {
    /** The first loads index.html started with the saved token, by URL (decision 266). */
    portalEarlyLoads?: { token: string; answers: Record<string, Promise<Response> | undefined> };
  }
}

/**
 * The answer index.html's script asked for with this token, taken once; undefined when it did not ask (no token
 * then, or a policy that refused the script): the load then asks itself.
 */
function earlyAnswer(route: RouteDef, token: string): Promise<Response> | undefined {
  const early = window.portalEarlyLoads;
  if (early?.token !== token) return undefined;
  const url = buildUrl<RouteDef>(route);
  const answer = early.answers[url];
  delete early.answers[url];
  return answer;
}

/**
 * A first load's options: its query with the early answer to `route` in place of its request when there is one,
 * and a refusal left to the sign-in check.
 */
function firstLoad<Q extends { queryFn?: unknown }>(query: Q, route: RouteDef, token: string): Q {
  const answer = earlyAnswer(route, token);
  const meta = { silentError: true, beforeSignIn: true };
  if (!answer) return { ...query, meta };
  const queryFn = async () => ((await readAnswer(await answer)) as { data: unknown }).data;
  return { ...query, queryFn: queryFn as Q['queryFn'], meta };
}

/**
 * A reload with a saved session: the loads of the first page (the user, the accounts, the announcements and the
 * chunk of their bars) start before the sign-in check instead of after it, with the saved access token while it is
 * valid. index.html's script starts their requests before the app's code is in; the answers fill the cache the guard
 * reads. keycloak-js confirms the session with a token refresh, one round trip the page need not wait for
 * (main.tsx). A refused load neither signs in again nor shows a toast (`beforeSignIn`). Resolves, once all have
 * settled, with the identity they were loaded for (for {@link settleSessionLoads}), or null when none started; never
 * rejects.
 */
export async function startSessionLoads(queryClient: QueryClient): Promise<string | null> {
  const token = accessToken();
  const left = token ? secondsLeft(token) : null;
  if (!token || left === null || left < MIN_SECONDS_LEFT) return null;
  preloadAnnouncementBars().catch(() => undefined);
  await Promise.all([
    queryClient.prefetchQuery(firstLoad(meQuery, usersRoutes.getMe, token)),
    queryClient.prefetchQuery(firstLoad(myAccountsQuery, usersRoutes.listMyAccounts, token)),
    queryClient.prefetchQuery(
      firstLoad(currentAnnouncementsQuery, announcementsRoutes.listCurrentAnnouncements, token),
    ),
  ]);
  return identityOf(token);
}

/** Whether the saved token got the guard's loads: the user and the account list are in. */
export function sessionLoadsAnswered(queryClient: QueryClient): boolean {
  return [meQuery.queryKey, myAccountsQuery.queryKey].every(
    (queryKey) => queryClient.getQueryState(queryKey)?.status === 'success',
  );
}

/**
 * After the sign-in check: a load the saved token did not get is forgotten, and so are all of them when the refreshed
 * token names the person differently (an address verified meanwhile, a new name), so they are asked again with the
 * new token. Before the page is `shown`, the guard asks for them; once it shows, they are loaded again in place.
 */
export function settleSessionLoads(
  queryClient: QueryClient,
  loadedFor: string | null,
  { shown }: { shown: boolean },
): void {
  const changed = loadedFor !== null && identityOf(accessToken()) !== loadedFor;
  const failed = (query: { state: { status: string } }) => query.state.status === 'error';
  if (shown) {
    if (changed)
      for (const queryKey of FIRST_LOADS) void queryClient.invalidateQueries({ queryKey, exact: true });
    void queryClient.invalidateQueries({ predicate: failed });
    return;
  }
  if (changed) for (const queryKey of FIRST_LOADS) queryClient.removeQueries({ queryKey, exact: true });
  queryClient.removeQueries({ predicate: failed });
}
