import type { QueryClient } from '@tanstack/react-query';
import { currentAnnouncementsQuery } from '@/api/current-announcements.ts';
import { meQuery, myAccountsQuery } from '@/api/session.ts';
import { accessToken } from '@/auth/tokens.ts';
import { preloadAnnouncementBars } from './shell/toolbars.tsx';

/** Seconds a saved access token must still be valid for the first page's loads to start with it. */
const MIN_SECONDS_LEFT = 15;

/** Seconds until the access token's `exp`, read without verifying it (the API verifies); null when unreadable. */
export function secondsLeft(token: string, now = Date.now()): number | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const { exp } = JSON.parse(json) as { exp?: unknown };
    return typeof exp === 'number' ? exp - now / 1000 : null;
  } catch {
    return null;
  }
}

/**
 * A reload with a saved session: the loads of the first page (the user, the accounts, the announcements and the
 * chunk of their bars) start beside the sign-in check instead of after it, with the saved access token while it is
 * valid. keycloak-js first confirms the session with a token refresh, one round trip the loads need not wait for.
 * Their answers fill the cache the guard reads. A refused load neither signs in again nor shows a toast
 * (`beforeSignIn`); {@link dropRefusedLoads} forgets it once the check is done, so the guard asks again. Resolves
 * when all have settled; never rejects.
 */
export async function startSessionLoads(queryClient: QueryClient): Promise<void> {
  const token = accessToken();
  const left = token ? secondsLeft(token) : null;
  if (left === null || left < MIN_SECONDS_LEFT) return;
  preloadAnnouncementBars().catch(() => undefined);
  const meta = { silentError: true, beforeSignIn: true };
  await Promise.all([
    queryClient.prefetchQuery({ ...meQuery, meta }),
    queryClient.prefetchQuery({ ...myAccountsQuery, meta }),
    queryClient.prefetchQuery({ ...currentAnnouncementsQuery, meta }),
  ]);
}

/** After the sign-in check: a load the saved token did not get is forgotten, so it is asked again with the new one. */
export function dropRefusedLoads(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.state.status === 'error' });
}
