import type { QueryClient } from '@tanstack/react-query';
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

/**
 * A reload with a saved session: the loads of the first page (the user, the accounts, the announcements and the
 * chunk of their bars) start beside the sign-in check instead of after it, with the saved access token while it is
 * valid. keycloak-js first confirms the session with a token refresh, one round trip the loads need not wait for.
 * Their answers fill the cache the guard reads. A refused load neither signs in again nor shows a toast
 * (`beforeSignIn`). Resolves, once all have settled, with the identity they were loaded for (for
 * {@link settleSessionLoads}), or null when none started; never rejects.
 */
export async function startSessionLoads(queryClient: QueryClient): Promise<string | null> {
  const token = accessToken();
  const left = token ? secondsLeft(token) : null;
  if (left === null || left < MIN_SECONDS_LEFT) return null;
  preloadAnnouncementBars().catch(() => undefined);
  const meta = { silentError: true, beforeSignIn: true };
  await Promise.all([
    queryClient.prefetchQuery({ ...meQuery, meta }),
    queryClient.prefetchQuery({ ...myAccountsQuery, meta }),
    queryClient.prefetchQuery({ ...currentAnnouncementsQuery, meta }),
  ]);
  return identityOf(token);
}

/**
 * After the sign-in check, before the guard: a load the saved token did not get is forgotten, and so are all of them
 * when the refreshed token names the person differently (an address verified meanwhile, a new name), so the guard
 * asks again with the new token.
 */
export function settleSessionLoads(queryClient: QueryClient, loadedFor: string | null): void {
  if (loadedFor !== null && identityOf(accessToken()) !== loadedFor) {
    for (const queryKey of FIRST_LOADS) queryClient.removeQueries({ queryKey, exact: true });
  }
  queryClient.removeQueries({ predicate: (query) => query.state.status === 'error' });
}
