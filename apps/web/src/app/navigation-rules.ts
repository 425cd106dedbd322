import {
  ACCOUNT_ROLES,
  BILLING_STAFF_ROLE,
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
import { matchPath, rankByPattern } from '@/routing/route-match.ts';
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

/** The route table's patterns, the most specific first: the first that matches a path is its route. */
export const RANKED_ROUTES = rankByPattern(ROUTES, pathPatternOf);

/** The route-table entry for a path, or null when no route matches (→ 404). */
export function matchRoute(pathname: string): MatchedRoute | null {
  for (const { pattern, item } of RANKED_ROUTES) {
    const params = matchPath(pattern, pathname);
    if (params) return { entry: item, params };
  }
  return null;
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

/** An account whose invitation is accepted: only such an account can be the current one (issue 23 item 5). */
export const isMember = (account: Account) => account.invitationStatus === 'ACCEPTED';

/**
 * Default account selection, first match wins: the URL's account, the stored one (this tab before this browser),
 * the first the user owns, the first accepted. Only accepted accounts (and, for staff, the accounts they opened by
 * uuid) are candidates: a pending invitation is never the current account, its one page is the invitation
 * (decision 213). A uuid not in the pool is ignored.
 */
export function selectDefaultAccount({
  accounts,
  query,
  stored,
  external = [],
}: SelectionInput): Account | null {
  const members = accounts.filter(isMember);
  const pool = [...members, ...external];
  const find = (uuid: string | null) => (uuid ? pool.find((account) => account.uuid === uuid) : undefined);
  return (
    // 1. uuid (winning over app_instance_uuid) from the URL
    find(query.get('uuid') ?? query.get('app_instance_uuid')) ??
    // 2. the stored account, sessionStorage before localStorage, only if it is in the list
    find(stored.session) ??
    find(stored.local) ??
    // 3. the (first) account the user owns
    members.find((account) => account.isOwner) ??
    // 4. the first accepted one (SPEC's step 5, "the first one", would be a pending invitation: decision 213)
    members[0] ??
    null
  );
}

/**
 * Where staff without an account of their own work, and land after sign-in (SPEC-DECISIONS 37): billing staff on
 * the payments page, the other staff roles on the support queue; a teacher on the courses. Null for everyone else.
 */
export function staffWorkRoute(userRole: UserRole): RouteName | null {
  if (userRole === 'TEACHER') return 'lesson-authoring';
  if (!isStaffRole(userRole)) return null;
  return userRole === BILLING_STAFF_ROLE ? 'billing-payments' : 'support-queue';
}

export function canAccess(access: AccessRule, accountRole: AccountRole | null, userRole: UserRole): boolean {
  // Staff in a customer's account (SUPPORT) see the pages an ADMIN sees, as the server answers them.
  const level = accountRole === 'SUPPORT' ? STAFF_READS_AS : accountRole;
  if (access.minAccountRole && !hasLevel(ACCOUNT_ROLES, level, access.minAccountRole)) return false;
  if (access.exactAccountRole && accountRole !== access.exactAccountRole) return false;
  if (access.minUserRole && !hasLevel(USER_ROLES, userRole, access.minUserRole)) return false;
  if (access.userRoles && !access.userRoles.includes(userRole)) return false;
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

  // 3. A route that needs an account, and the user has none: onboarding. Staff are never sent there: they land
  //    on their work page (SPEC-DECISIONS 37) and open customers' accounts by uuid from the account list.
  if (access.needsAccount && accounts.length === 0 && external.length === 0) {
    return { kind: 'redirect', to: href(staffWorkRoute(user.userRole) ?? 'onboarding') };
  }
  // 3b. A pending invitation is never the current account: its one page is the invitation (decision 213). A route
  //     that names one by uuid, or a user whose only accounts are pending invitations, goes there.
  const named = new URLSearchParams(target.search);
  const namedUuid = named.get('uuid') ?? named.get('app_instance_uuid');
  const onlyInvited = accounts.length > 0 && !accounts.some(isMember) && external.length === 0;
  const namesInvitation = accounts.some((account) => account.uuid === namedUuid && !isMember(account));
  if (
    (access.needsAccount && (onlyInvited || namesInvitation)) ||
    (access.refuseWithAccount && onlyInvited)
  ) {
    return { kind: 'redirect', to: href('invite-verify') };
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
