import type { QueryClient } from '@tanstack/react-query';
import type { Account, User } from '@portal/contract';
import {
  clearStoredAccountUuid,
  getSessionAccountUuid,
  getStoredAccountUuids,
  storeAccountUuid,
} from '@/api/account-storage.ts';
import { ApiError } from '@/api/errors.ts';
import { accountQuery, meQuery, myAccountsQuery, setCurrentAccountUuid } from '@/api/session.ts';
import { REQUESTED_LOCATION_KEY } from '@/auth/requested-location.ts';
import { i18n } from '@/i18n/i18n.ts';
import {
  decideNavigation,
  isStaff,
  matchRoute,
  preNavigation,
  type StoredAccount,
  type Target,
} from './navigation-rules.ts';
import { getVersionState } from './version-check.ts';
import { href } from './href.ts';
import { entryStepOf } from './page-loaders.ts';
import { RENDER, type GuardOutcome } from '@/routing/navigation.ts';

export const IGNORE_MAINTENANCE_KEY = 'ignoreMaintenance';
/** Where to return when maintenance ends. */
export const MAINTENANCE_RETURN_KEY = 'maintenanceReturn';

/** Thrown when the first navigation cannot load what it needs: the root error boundary offers a retry. */
export class GuardError extends Error {
  constructor(readonly reason: string) {
    super(`navigation cancelled: ${reason}`);
    this.name = 'GuardError';
  }
}

export interface GuardContext {
  queryClient: QueryClient;
  /** The location shown before this navigation, or null while none is (the first one, or its error page). */
  committedHref: () => string | null;
}

async function loadSession(queryClient: QueryClient): Promise<{ user: User; accounts: Account[] } | null> {
  try {
    // Cached data answers at once and is refreshed in the background when stale (no network wait).
    const [user, accounts] = await Promise.all([
      queryClient.ensureQueryData({ ...meQuery, revalidateIfStale: true }),
      queryClient.ensureQueryData({ ...myAccountsQuery, revalidateIfStale: true }),
    ]);
    return { user, accounts };
  } catch {
    return null;
  }
}

/** The query parameter that tells the accounts page which account a staff user could not open. */
const NOT_OPENED_KEY = 'notOpened';

/**
 * Staff may open a customer's account by uuid (acting with account role SUPPORT, while the customer allows it):
 * load the URL's account, else the stored one, when it is not in their own list. A stored account that cannot
 * be loaded (e.g. removed, or no longer allowed) is forgotten and the next candidate is tried. The URL's account
 * that the server does not open (404: unknown, or not allowed) is returned as `refused`, so the user is told
 * instead of silently landing elsewhere.
 */
async function loadStaffAccounts(
  queryClient: QueryClient,
  user: User,
  accounts: readonly Account[],
  query: URLSearchParams,
  stored: StoredAccount,
): Promise<{ external: Account[]; refused: string | null }> {
  if (!isStaff(user)) return { external: [], refused: null };
  const own = new Set(accounts.map((account) => account.uuid));
  const fromUrl = query.get('uuid') ?? query.get('app_instance_uuid');
  const candidates = [
    { uuid: fromUrl, stored: false },
    { uuid: stored.session, stored: true },
    { uuid: stored.local, stored: true },
  ].filter((c, i, all): c is { uuid: string; stored: boolean } =>
    Boolean(c.uuid && !own.has(c.uuid) && all.findIndex((o) => o.uuid === c.uuid) === i),
  );
  for (const candidate of candidates) {
    try {
      const account = await queryClient.ensureQueryData({
        ...accountQuery(candidate.uuid),
        revalidateIfStale: true,
      });
      return { external: [account], refused: null };
    } catch (error) {
      if (candidate.stored) clearStoredAccountUuid();
      else if (error instanceof ApiError && error.status === 404)
        return { external: [], refused: candidate.uuid };
    }
  }
  return { external: [], refused: null };
}

const redirect = (to: string): GuardOutcome => ({ kind: 'redirect', to, replace: false });
const replace = (to: string): GuardOutcome => ({ kind: 'redirect', to, replace: true });

/**
 * The guard: runs before every navigation (navigation.ts), loading what the pure rules of navigation-rules.ts
 * decide on. `replace` sends on in place of the entry, `redirect` as a new one (as the data router's did).
 */
export function createGuard({ queryClient, committedHref }: GuardContext) {
  return async function guard(url: URL): Promise<GuardOutcome> {
    const match = matchRoute(url.pathname);
    // The public route (/maintenance) skips the guard and its loads: the backend may be down.
    if (match?.entry.access.public) return RENDER;
    const target: Target = { pathname: url.pathname, search: url.search, hash: url.hash };
    if (url.searchParams.get(IGNORE_MAINTENANCE_KEY) === '1')
      sessionStorage.setItem(IGNORE_MAINTENANCE_KEY, '1');

    const pre = preNavigation({
      target,
      match,
      maintenance: getVersionState().maintenance,
      ignoreMaintenance: sessionStorage.getItem(IGNORE_MAINTENANCE_KEY) === '1',
      requestedLocation: sessionStorage.getItem(REQUESTED_LOCATION_KEY),
      sessionAccountUuid: getSessionAccountUuid(),
    });
    if (pre.kind === 'redirect') {
      if (pre.consumesRequestedLocation) sessionStorage.removeItem(REQUESTED_LOCATION_KEY);
      if (pre.to === href('maintenance'))
        sessionStorage.setItem(MAINTENANCE_RETURN_KEY, `${url.pathname}${url.search}`);
      return replace(pre.to);
    }
    if (pre.kind === 'public' || !match) return RENDER;
    // A route's entry step downloads while the session loads, not after it.
    const entering = entryStepOf(match.entry.name)?.();
    entering?.catch(() => undefined);

    // 1. The user and the account list.
    const session = await loadSession(queryClient);
    // 2. The interface language follows the user's.
    if (session && i18n.isInitialized && i18n.language !== session.user.language) {
      await i18n.changeLanguage(session.user.language);
    }

    const stored = getStoredAccountUuids();
    const { external, refused } =
      session && match.entry.access.needsAccount
        ? await loadStaffAccounts(queryClient, session.user, session.accounts, url.searchParams, stored)
        : { external: [], refused: null };
    // Staff asked for an account the server does not open for them: the accounts page says so.
    if (refused) return redirect(href('accounts', undefined, { [NOT_OPENED_KEY]: refused }));
    // Read again: loading a staff account may have forgotten a stored one.
    const decision = decideNavigation({ target, match, session, stored: getStoredAccountUuids(), external });

    switch (decision.kind) {
      case 'redirect':
        return redirect(decision.to);
      case 'cancel': {
        // A failed first navigation shows the error page with a retry; later ones keep the current page.
        const previous = committedHref();
        if (previous === null) throw new GuardError(decision.reason);
        // Re-entering the page already shown (after such a cancel, or a revalidation): keep it as it is.
        if (previous === `${url.pathname}${url.search}${url.hash}`) return RENDER;
        return replace(previous);
      }
      case 'allow':
        if (decision.account && match.entry.access.needsAccount) storeAccountUuid(decision.account.uuid);
        setCurrentAccountUuid(decision.account?.uuid ?? null);
        if (entering) {
          const step = (await entering).default;
          return replace(await step({ url, accountUuid: decision.account?.uuid ?? null, queryClient }));
        }
        return RENDER;
    }
  };
}
