import { matchRoutes } from 'react-router';
import {
  ACCOUNT_ROLES,
  STAFF_READS_AS,
  USER_ROLES,
  hasAcceptedTerms,
  hasLevel,
  isStaffRole,
  type Account,
  type AccountRole,
  type User,
  type UserRole,
} from '@portal/contract';
import { resolveRequestedLocation } from '@/auth/requested-location.ts';
import { href } from './href.ts';
import {
  ROUTES,
  SETTINGS_CHILDREN,
  TERMS_EXEMPT,
  pathPatternOf,
  routeByName,
  type AccessRule,
  type RouteEntry,
  type RouteName,
} from './route-table.ts';

/** The location a navigation wants to reach. */
export interface Target {
  pathname: string;
  search: string;
  hash: string;
}

export interface MatchedRoute {
  entry: RouteEntry;
  params: Record<string, string | undefined>;
}

const matchable = ROUTES.map((entry) => ({ path: pathPatternOf(entry), entry }));

/** The route-table entry for a path, or null when no route matches (→ 404). */
export function matchRoute(pathname: string): MatchedRoute | null {
  const matches = matchRoutes(matchable, pathname);
  const leaf = matches?.[matches.length - 1];
  if (!leaf) return null;
  return { entry: (leaf.route as (typeof matchable)[number]).entry, params: leaf.params };
}

function targetHref(target: Target): string {
  return `${target.pathname}${target.search}${target.hash}`;
}

export function notFoundHref(target: Target): string {
  return href('404', undefined, { path: `${target.pathname}${target.search}` });
}

export type PreDecision =
  | { kind: 'continue' }
  | { kind: 'public' }
  | { kind: 'redirect'; to: string; consumesRequestedLocation?: boolean };

export interface PreInput {
  target: Target;
  match: MatchedRoute | null;
  maintenance: boolean;
  ignoreMaintenance: boolean;
  /** sessionStorage requestedLocation, as saved before login. */
  requestedLocation: string | null;
  /** This tab's account (sessionStorage), for /ncr/lesson without uuid. */
  sessionAccountUuid: string | null;
}

/**
 * Rules that need no data and run before the guard's loads: maintenance (unless this session chose to ignore
 * it), unknown paths (→ /404 with the path), the sign-in return paths (→ the location requested before
 * sign-in) and /ncr/lesson (→ the lesson of ?uuid= or of this tab's account, else /404).
 */
export function preNavigation(input: PreInput): PreDecision {
  const { target, match } = input;
  if (match?.entry.access.public) return { kind: 'public' };
  if (input.maintenance && !input.ignoreMaintenance) return { kind: 'redirect', to: href('maintenance') };
  if (!match) return { kind: 'redirect', to: notFoundHref(target) };
  const name = match.entry.name;
  if (name === 'oauthcb' || name === 'signup') {
    return {
      kind: 'redirect',
      to: resolveRequestedLocation(input.requestedLocation),
      consumesRequestedLocation: true,
    };
  }
  if (name === 'ncr-lesson-redirect') {
    const uuid = new URLSearchParams(target.search).get('uuid') || input.sessionAccountUuid;
    return { kind: 'redirect', to: uuid ? href('ncr-lesson', { accountUuid: uuid }) : notFoundHref(target) };
  }
  return { kind: 'continue' };
}

export function isStaff(user: User): boolean {
  return isStaffRole(user.userRole);
}

export interface StoredAccount {
  session: string | null;
  local: string | null;
}

export interface SelectionInput {
  accounts: readonly Account[];
  query: URLSearchParams;
  stored: StoredAccount;
  /** Accounts a staff user opened by uuid (loaded with GET /accounts/v1/accounts/{id}). */
  external?: readonly Account[];
}

/**
 * Default account selection, first match wins: the URL's account, the stored one (this tab before this browser),
 * the first the user owns, the first accepted, the first. A uuid not in the pool is ignored; staff add the
 * accounts they opened by uuid to the pool.
 */
export function selectDefaultAccount({
  accounts,
  query,
  stored,
  external = [],
}: SelectionInput): Account | null {
  const pool = [...accounts, ...external];
  const find = (uuid: string | null) => (uuid ? pool.find((account) => account.uuid === uuid) : undefined);
  return (
    // 1. uuid (winning over app_instance_uuid) from the URL
    find(query.get('uuid') ?? query.get('app_instance_uuid')) ??
    // 2. the stored account, sessionStorage before localStorage, only if it is in the list
    find(stored.session) ??
    find(stored.local) ??
    // 3. the (first) account the user owns
    accounts.find((account) => account.isOwner) ??
    // 4. the first accepted one
    accounts.find((account) => account.invitationStatus === 'ACCEPTED') ??
    // 5. the first one
    accounts[0] ??
    null
  );
}

export function canAccess(access: AccessRule, accountRole: AccountRole | null, userRole: UserRole): boolean {
  // Staff in a customer's account (SUPPORT) see the pages an ADMIN sees, as the server answers them.
  const level = accountRole === 'SUPPORT' ? STAFF_READS_AS : accountRole;
  if (access.minAccountRole && !hasLevel(ACCOUNT_ROLES, level, access.minAccountRole)) return false;
  if (access.exactAccountRole && accountRole !== access.exactAccountRole) return false;
  if (access.minUserRole && !hasLevel(USER_ROLES, userRole, access.minUserRole)) return false;
  return true;
}

export interface GuardInput {
  target: Target;
  match: MatchedRoute;
  /** The user and the account list (step 1), or null when loading either failed. */
  session: { user: User; accounts: readonly Account[] } | null;
  stored: StoredAccount;
  external?: readonly Account[];
}

export type GuardDecision =
  | { kind: 'allow'; account: Account | null; accountRole: AccountRole | null }
  | { kind: 'redirect'; to: string }
  | { kind: 'cancel'; reason: 'load-failed' | 'no-account' };

/** The rules before every navigation, steps 1–6 in order; the first that applies decides. */
export function decideNavigation(input: GuardInput): GuardDecision {
  const { target, match } = input;
  const { entry } = match;
  const access = entry.access;

  // 1. The account list and the user must have loaded.
  if (!input.session) return { kind: 'cancel', reason: 'load-failed' };
  const { user, accounts } = input.session;
  const external = input.external ?? [];
  // 2. (user role level and language are applied by the caller from `user`)

  // 3. A route that needs an account, and the user has none: onboarding. Staff are never sent there; they
  //    open accounts by uuid from the account list.
  if (access.needsAccount && accounts.length === 0 && external.length === 0) {
    return { kind: 'redirect', to: isStaff(user) ? href('accounts') : href('onboarding') };
  }

  // 4. The default account, and with it the account role level.
  const account = selectDefaultAccount({
    accounts,
    query: new URLSearchParams(target.search),
    stored: input.stored,
    external,
  });
  if (access.needsAccount && !account) return { kind: 'cancel', reason: 'no-account' };
  const accountRole = account?.accountRole ?? null;

  // 5. An owner whose account has not accepted both terms goes to accept-agb first.
  if (
    access.needsAccount &&
    account &&
    !(TERMS_EXEMPT as readonly RouteName[]).includes(entry.name) &&
    accountRole === 'OWNER' &&
    !hasAcceptedTerms(account)
  ) {
    return { kind: 'redirect', to: href('accept-agb', undefined, { redirect: targetHref(target) }) };
  }

  // 5b. An account whose two-factor rule now applies to the user (members only, staff pass): its pages lead to
  //     the security tab of the user's own settings, which needs no account; other accounts stay reachable.
  if (
    access.needsAccount &&
    account &&
    accountRole !== 'SUPPORT' &&
    account.twoFactorRequired === 'enforced'
  ) {
    return {
      kind: 'redirect',
      to: href('settings-users', undefined, { tab: 'security', uuid: account.uuid }),
    };
  }

  // 6. Permissions: missing ones lead to the dashboard.
  if (access.refuseWithAccount && accounts.length > 0) return { kind: 'redirect', to: href('dashboard') };
  if (!canAccess(access, accountRole, user.userRole)) return { kind: 'redirect', to: href('dashboard') };
  if (entry.name === 'settings') {
    const first = SETTINGS_CHILDREN.map(routeByName).find((child) =>
      canAccess(child.access, accountRole, user.userRole),
    );
    return { kind: 'redirect', to: href(first?.name ?? 'dashboard') };
  }
  return { kind: 'allow', account, accountRole };
}
