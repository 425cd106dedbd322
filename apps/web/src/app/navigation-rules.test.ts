import { describe, expect, it } from 'vitest';
import { type Account, type AccountRole, type User, type UserRole } from '@portal/contract';
import { LESSON_AUTHOR_ROLES } from '@portal/contract/lesson-authoring';
import {
  decideNavigation,
  matchRoute,
  preNavigation,
  selectDefaultAccount,
  type GuardInput,
  type PreInput,
  type StoredAccount,
} from './navigation-rules.ts';
import { testAccount, testUser } from '@/testing/fixtures.ts';
import { ROUTES, routeByName } from './route-table.ts';

const account = (
  uuid: string,
  accountRole: AccountRole = 'EMPLOYEE',
  extra: Partial<Account> = {},
): Account => testAccount(uuid, { accountRole, isOwner: accountRole === 'OWNER', ...extra });

const user = (userRole: UserRole = 'STANDARD'): User => testUser({ userRole });

const noStored: StoredAccount = { session: null, local: null };

function target(url: string) {
  const parsed = new URL(url, 'http://portal.test');
  return { pathname: parsed.pathname, search: parsed.search, hash: parsed.hash };
}

function guard(
  url: string,
  options: Partial<Omit<GuardInput, 'target' | 'match'>> & { accounts?: Account[]; role?: UserRole } = {},
) {
  const t = target(url);
  const match = matchRoute(t.pathname);
  if (!match) throw new Error(`no route for ${url}`);
  const session =
    options.session === null
      ? null
      : { user: user(options.role), accounts: options.accounts ?? [account('a1', 'EMPLOYEE')] };
  return decideNavigation({
    target: t,
    match,
    session,
    stored: options.stored ?? noStored,
    external: options.external,
  });
}

function pre(url: string, options: Partial<Omit<PreInput, 'target' | 'match'>> = {}) {
  const t = target(url);
  return preNavigation({
    target: t,
    match: matchRoute(t.pathname),
    maintenance: false,
    ignoreMaintenance: false,
    requestedLocation: null,
    sessionAccountUuid: null,
    ...options,
  });
}

describe('route table', () => {
  it('has a unique name and path per route', () => {
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });

  it.each([
    ['/', 'dashboard'],
    ['/404', '404'],
    ['/abaclik', 'abaclik'],
    ['/accounts', 'accounts'],
    ['/accounts/account', 'create-account'],
    ['/billing', 'billing'],
    ['/subscriptions', 'subscriptions'],
    ['/deepcloud', 'deepcloud'],
    ['/deepcloud/connect', 'deepcloud-connect'],
    ['/deepcloud/connection/c1', 'deepcloud-connection'],
    ['/inbox', 'inbox'],
    ['/inbox/n1', 'inbox-item'],
    ['/invite/verify', 'invite-verify'],
    ['/logs', 'logs'],
    ['/ncr/lesson', 'ncr-lesson-redirect'],
    ['/ncr/lesson/acc', 'ncr-lesson'],
    ['/onboarding', 'onboarding'],
    ['/accept-agb', 'accept-agb'],
    ['/peppershop/config', 'peppershop-config'],
    ['/settings', 'settings'],
    ['/settings/company-profile', 'settings-company-profile'],
    ['/settings/user-management', 'settings-user-management'],
    ['/settings/users', 'settings-users'],
    ['/settings/ownership', 'settings-ownership'],
    ['/settings/user-management/user', 'settings-user-management-form'],
    ['/settings/user-management/user/m1', 'settings-user-management-form'],
    ['/settings/user-management/digital-coach', 'settings-digital-coach-form'],
    ['/settings/ownership/transfer', 'settings-ownership-transfer'],
    ['/support', 'support'],
    ['/support/info', 'support-info'],
    ['/support/ticket', 'support-ticket'],
    ['/support/ticket/success', 'support-ticket-success'],
    ['/support/tickets', 'support-tickets'],
    ['/support/tickets/t1', 'support-ticket-detail'],
    ['/oauthcb', 'oauthcb'],
    ['/signup', 'signup'],
    ['/maintenance', 'maintenance'],
    ['/provider/announcements', 'announcements'],
    ['/provider/announcements/new', 'announcement-new'],
    ['/provider/announcements/a1', 'announcement-edit'],
  ])('matches %s to %s', (path, name) => {
    expect(matchRoute(path)?.entry.name).toBe(name);
  });

  it.each(['/nope', '/billing/x', '/settings/users/x/y', '/inbox/a/b'])('matches nothing for %s', (path) => {
    expect(matchRoute(path)).toBeNull();
  });

  it('needs an account everywhere except the account, invitation, onboarding, own settings, error, sign-in and staff routes (support queue, payments, announcements, account directory, courses)', () => {
    const free = ROUTES.filter((r) => !r.access.needsAccount).map((r) => r.name);
    expect(free.sort()).toEqual(
      [
        '404',
        'accounts',
        'accounts-directory',
        'announcement-edit',
        'announcement-new',
        'announcements',
        'billing-payments',
        'create-account',
        'invite-verify',
        'lesson-authoring',
        'lesson-authoring-edit',
        'lesson-authoring-new',
        'maintenance',
        'ncr-lesson',
        'ncr-lesson-redirect',
        'oauthcb',
        'onboarding',
        'settings-users',
        'signup',
        'support-queue',
        'support-queue-ticket',
      ].sort(),
    );
  });
});

describe('before the loads', () => {
  it('lets the maintenance page through without loads', () => {
    expect(pre('/maintenance', { maintenance: true })).toEqual({ kind: 'public' });
  });

  it('sends every other route to /maintenance while the flag is on', () => {
    expect(pre('/billing', { maintenance: true })).toEqual({ kind: 'redirect', to: '/maintenance' });
    expect(pre('/unknown', { maintenance: true })).toEqual({ kind: 'redirect', to: '/maintenance' });
  });

  it('ignores maintenance when the session flag is set', () => {
    expect(pre('/billing', { maintenance: true, ignoreMaintenance: true })).toEqual({ kind: 'continue' });
  });

  it('redirects unknown paths to /404 with the path and query', () => {
    expect(pre('/nope/deeper?a=1&b=2')).toEqual({
      kind: 'redirect',
      to: '/404?path=%2Fnope%2Fdeeper%3Fa%3D1%26b%3D2',
    });
  });

  it.each(['/oauthcb', '/signup'])('sends %s to the saved location', (path) => {
    expect(pre(path, { requestedLocation: '/billing?x=1#h' })).toEqual({
      kind: 'redirect',
      to: '/billing?x=1#h',
      consumesRequestedLocation: true,
    });
    expect(pre(path, { requestedLocation: null })).toMatchObject({ to: '/' });
    expect(pre(path, { requestedLocation: '/oauthcb' })).toMatchObject({ to: '/' });
  });

  it('redirects ncr/lesson?uuid=X&… to ncr/lesson/X, dropping the rest of the query', () => {
    expect(pre('/ncr/lesson?uuid=acc-9&foo=bar')).toEqual({ kind: 'redirect', to: '/ncr/lesson/acc-9' });
  });

  it('uses the stored account for ncr/lesson without uuid, else 404', () => {
    expect(pre('/ncr/lesson', { sessionAccountUuid: 'acc-1' })).toEqual({
      kind: 'redirect',
      to: '/ncr/lesson/acc-1',
    });
    expect(pre('/ncr/lesson')).toEqual({ kind: 'redirect', to: '/404?path=%2Fncr%2Flesson' });
  });

  it('continues to the guard for ordinary routes', () => {
    expect(pre('/billing')).toEqual({ kind: 'continue' });
    expect(pre('/ncr/lesson/acc-1')).toEqual({ kind: 'continue' });
  });
});

describe('default account selection', () => {
  const owned = account('own', 'OWNER');
  const accepted = account('acc', 'ADMIN');
  const pending = account('pen', 'EMPLOYEE', { invitationStatus: 'PENDING' });
  const select = (accounts: Account[], query = '', stored = noStored, external: Account[] = []) =>
    selectDefaultAccount({ accounts, query: new URLSearchParams(query), stored, external })?.uuid ?? null;

  it('1. takes uuid from the URL', () => {
    expect(select([pending, accepted, owned], 'uuid=acc', { session: 'own', local: 'own' })).toBe('acc');
  });

  it('never takes a pending invitation, whoever names it (decision 213)', () => {
    expect(select([pending, accepted, owned], 'uuid=pen', { session: 'acc', local: 'acc' })).toBe('acc');
    expect(select([pending, accepted], '', { session: 'pen', local: 'pen' })).toBe('acc');
    expect(select([pending, accepted], 'app_instance_uuid=pen')).toBe('acc');
  });

  it('1. takes app_instance_uuid from the URL; uuid wins over it', () => {
    expect(select([pending, accepted, owned], 'app_instance_uuid=acc')).toBe('acc');
    expect(select([pending, accepted, owned], 'app_instance_uuid=acc&uuid=own')).toBe('own');
  });

  it('1. ignores a URL uuid not in the list and continues with step 2', () => {
    expect(select([pending, accepted, owned], 'uuid=foreign', { session: 'acc', local: null })).toBe('acc');
  });

  it('1. takes a staff-loaded account by uuid', () => {
    const foreign = account('foreign', 'SUPPORT');
    expect(select([], 'uuid=foreign', noStored, [foreign])).toBe('foreign');
  });

  it('2. takes the stored account, session before local', () => {
    expect(select([pending, accepted, owned], '', { session: 'own', local: 'acc' })).toBe('own');
    expect(select([pending, accepted, owned], '', { session: null, local: 'acc' })).toBe('acc');
  });

  it('2. skips stored accounts that are not in the list', () => {
    expect(select([pending, accepted, owned], '', { session: 'gone', local: 'acc' })).toBe('acc');
    expect(select([pending, accepted, owned], '', { session: 'gone', local: 'gone2' })).toBe('own');
  });

  it('3. takes the first owned account', () => {
    const owned2 = account('own2', 'OWNER');
    expect(select([pending, accepted, owned, owned2])).toBe('own');
  });

  it('4. takes the first accepted account', () => {
    const accepted2 = account('acc2', 'ADMIN');
    expect(select([pending, accepted, accepted2])).toBe('acc');
  });

  it('selects nothing when every account is a pending invitation', () => {
    const pending2 = account('pen2', 'ADMIN', { invitationStatus: 'PENDING' });
    expect(select([pending, pending2])).toBeNull();
  });

  it('selects nothing without accounts', () => {
    expect(select([])).toBeNull();
  });
});

describe('before every navigation', () => {
  const employee = account('e1', 'EMPLOYEE');
  const admin = account('a1', 'ADMIN');
  const owner = account('o1', 'OWNER');
  const newOwner = account('n1', 'OWNER', { acceptedAgb: false });
  const dc = account('d1', 'DC');
  const support = account('s1', 'SUPPORT');

  it('1. cancels when the user or the accounts failed to load', () => {
    expect(guard('/', { session: null })).toEqual({ kind: 'cancel', reason: 'load-failed' });
    expect(guard('/accounts', { session: null })).toEqual({ kind: 'cancel', reason: 'load-failed' });
  });

  it('3. sends a user without accounts to onboarding for routes that need one', () => {
    expect(guard('/', { accounts: [] })).toEqual({ kind: 'redirect', to: '/onboarding' });
    expect(guard('/settings', { accounts: [] })).toEqual({ kind: 'redirect', to: '/onboarding' });
    expect(guard('/support/ticket', { accounts: [] })).toEqual({ kind: 'redirect', to: '/onboarding' });
  });

  it.each([
    '/accounts',
    '/accounts/account',
    '/onboarding',
    '/invite/verify',
    '/404',
    '/ncr/lesson/x',
    '/settings/users',
  ])('3. lets a user without accounts open %s', (path) => {
    expect(guard(path, { accounts: [] })).toMatchObject({ kind: 'allow', account: null });
  });

  it('3. counts pending invitations as accounts: their one page is the invitation (decision 213)', () => {
    const pending = account('p1', 'EMPLOYEE', { invitationStatus: 'PENDING' });
    for (const path of ['/', '/inbox', '/support', '/logs', '/onboarding']) {
      expect(guard(path, { accounts: [pending] })).toEqual({ kind: 'redirect', to: '/invite/verify' });
    }
    expect(guard('/invite/verify', { accounts: [pending] })).toMatchObject({ kind: 'allow', account: null });
    expect(guard('/accounts', { accounts: [pending] })).toMatchObject({ kind: 'allow', account: null });
  });

  it('3b. a route naming a pending invitation by uuid leads to the invitation, not into the account', () => {
    const pending = account('p1', 'EMPLOYEE', { invitationStatus: 'PENDING' });
    const member = account('m1', 'EMPLOYEE');
    expect(guard('/inbox?uuid=p1', { accounts: [member, pending] })).toEqual({
      kind: 'redirect',
      to: '/invite/verify',
    });
    expect(
      guard('/inbox', { accounts: [member, pending], stored: { session: 'p1', local: 'p1' } }),
    ).toMatchObject({ kind: 'allow', account: member });
  });

  it('3. lets staff without accounts open their own settings', () => {
    expect(guard('/settings/users', { accounts: [], role: 'SUPPORT_AGENT' })).toMatchObject({
      kind: 'allow',
    });
  });

  // Issue 23 item 11: agent@ and billing@ landed on "Sie gehören noch zu keinem Konto" with "Konto erstellen".
  it.each([
    ['SUPPORT', '/support/queue'],
    ['SUPPORT_AGENT', '/support/queue'],
    ['SUPPORT_MANAGER', '/billing/payments'],
    ['PORTAL_ADMIN', '/support/queue'],
  ] as const)('3. never sends staff to onboarding: %s lands on %s', (role, to) => {
    expect(guard('/', { accounts: [], role })).toEqual({ kind: 'redirect', to });
    expect(guard('/inbox', { accounts: [], role })).toEqual({ kind: 'redirect', to });
    // Their work page itself needs no account, so the landing ends there.
    expect(guard(to, { accounts: [], role })).toMatchObject({ kind: 'allow' });
  });

  it('3. lands a staff member with an account of their own in it', () => {
    expect(guard('/', { accounts: [account('a1')], role: 'SUPPORT_AGENT' })).toMatchObject({
      kind: 'allow',
    });
  });

  it('3 before 6: no accounts wins over a missing permission', () => {
    expect(guard('/billing', { accounts: [] })).toEqual({ kind: 'redirect', to: '/onboarding' });
  });

  it('4. selects the default account and its role', () => {
    expect(guard('/', { accounts: [employee, admin], stored: { session: 'a1', local: null } })).toEqual({
      kind: 'allow',
      account: admin,
      accountRole: 'ADMIN',
    });
  });

  it('4. staff act with role SUPPORT in an account opened by uuid', () => {
    const opened = account('x1', 'SUPPORT');
    expect(
      guard('/billing?uuid=x1', { accounts: [], external: [opened], role: 'SUPPORT_AGENT' }),
    ).toMatchObject({
      kind: 'allow',
      account: opened,
      accountRole: 'SUPPORT',
    });
    // Staff read what an ADMIN reads: the owner's pages stay closed (the server refuses them too).
    expect(
      guard('/settings/ownership?uuid=x1', { accounts: [], external: [opened], role: 'SUPPORT_AGENT' }),
    ).toEqual({ kind: 'redirect', to: '/' });
  });

  it('6. opens the support queue and the account directory for staff user roles only, with or without an account', () => {
    for (const role of ['SUPPORT', 'SUPPORT_AGENT', 'SUPPORT_MANAGER', 'PORTAL_ADMIN'] as const) {
      expect(guard('/support/queue', { accounts: [], role })).toMatchObject({ kind: 'allow' });
      expect(guard('/support/queue/t1', { role })).toMatchObject({ kind: 'allow' });
      expect(guard('/accounts/directory', { accounts: [], role })).toMatchObject({ kind: 'allow' });
    }
    // A teacher without an account lands on the courses, and only TEACHER and PORTAL_ADMIN open them.
    expect(guard('/', { accounts: [], role: 'TEACHER' })).toEqual({
      kind: 'redirect',
      to: '/provider/lessons',
    });
    expect(guard('/provider/lessons/l1', { accounts: [], role: 'TEACHER' })).toMatchObject({ kind: 'allow' });
    expect(guard('/provider/lessons', { role: 'DC' })).toEqual({ kind: 'redirect', to: '/' });
    expect(guard('/provider/lessons', { accounts: [], role: 'PORTAL_ADMIN' })).toMatchObject({
      kind: 'allow',
    });
    for (const role of ['SUPPORT', 'SUPPORT_AGENT', 'SUPPORT_MANAGER'] as const) {
      expect(guard('/provider/lessons/l1', { role })).toEqual({ kind: 'redirect', to: '/' });
    }
    // The route table's set is the contract's.
    expect(routeByName('lesson-authoring').access.userRoles).toEqual(LESSON_AUTHOR_ROLES);
    for (const role of ['STANDARD', 'DC', 'TEACHER'] as const) {
      expect(guard('/support/queue', { role })).toEqual({ kind: 'redirect', to: '/' });
      expect(guard('/support/queue/t1', { role })).toEqual({ kind: 'redirect', to: '/' });
      expect(guard('/accounts/directory', { role })).toEqual({ kind: 'redirect', to: '/' });
    }
  });

  it('5. sends an owner whose account lacks accepted terms to /accept-agb with the wanted location', () => {
    expect(guard('/inbox?x=1', { accounts: [newOwner] })).toEqual({
      kind: 'redirect',
      to: '/accept-agb?redirect=%2Finbox%3Fx%3D1',
    });
    const noPrivacy = account('n2', 'OWNER', { acceptedPrivacyPolicy: false });
    expect(guard('/', { accounts: [noPrivacy] })).toEqual({
      kind: 'redirect',
      to: '/accept-agb?redirect=%2F',
    });
  });

  it.each(['/accept-agb', '/accounts', '/accounts/account'])('5. does not redirect on %s', (path) => {
    expect(guard(path, { accounts: [newOwner] })).toMatchObject({ kind: 'allow' });
  });

  it('5. applies only to routes that need an account', () => {
    expect(guard('/404', { accounts: [newOwner] })).toMatchObject({ kind: 'allow' });
    expect(guard('/invite/verify', { accounts: [newOwner] })).toMatchObject({ kind: 'allow' });
  });

  it('5. applies only to an exact OWNER', () => {
    for (const role of ['EMPLOYEE', 'ADMIN', 'DC', 'SUPPORT'] as const) {
      const acc = account('t1', role, { acceptedAgb: false, acceptedPrivacyPolicy: false });
      expect(guard('/', { accounts: [acc] })).toMatchObject({ kind: 'allow' });
    }
  });

  it('5 before 6: the terms redirect comes before the permission check', () => {
    expect(guard('/billing', { accounts: [newOwner] })).toEqual({
      kind: 'redirect',
      to: '/accept-agb?redirect=%2Fbilling',
    });
  });

  it('5 uses the selected account: another, accepted account passes', () => {
    expect(
      guard('/', { accounts: [newOwner, employee], stored: { session: 'e1', local: null } }),
    ).toMatchObject({
      kind: 'allow',
      account: employee,
    });
  });

  const adminOnly = [
    '/billing',
    '/subscriptions',
    '/peppershop/config',
    '/settings/company-profile',
    '/settings/user-management',
    '/settings/user-management/user',
    '/settings/user-management/user/m1',
    '/settings/user-management/digital-coach',
  ];
  const ownerOnly = ['/settings/ownership', '/settings/ownership/transfer'];
  const open = [
    '/',
    '/abaclik',
    '/inbox',
    '/inbox/n1',
    '/logs',
    '/support',
    '/support/info',
    '/support/ticket',
    '/support/ticket/success',
    '/settings/users',
    '/deepcloud',
    '/deepcloud/connect',
    '/deepcloud/connection/c1',
  ];

  it.each(adminOnly)('6. %s: EMPLOYEE → dashboard; ADMIN, DC, OWNER, SUPPORT pass', (path) => {
    expect(guard(path, { accounts: [employee] })).toEqual({ kind: 'redirect', to: '/' });
    for (const acc of [admin, dc, owner, support])
      expect(guard(path, { accounts: [acc] })).toMatchObject({ kind: 'allow' });
  });

  it.each(ownerOnly)('6. %s: EMPLOYEE, ADMIN, DC, SUPPORT → dashboard; OWNER passes', (path) => {
    for (const acc of [employee, admin, dc, support])
      expect(guard(path, { accounts: [acc] })).toEqual({ kind: 'redirect', to: '/' });
    expect(guard(path, { accounts: [owner] })).toMatchObject({ kind: 'allow' });
  });

  it.each(open)('6. %s is open to every account role', (path) => {
    for (const acc of [employee, admin, dc, owner, support]) {
      expect(guard(path, { accounts: [acc] })).toMatchObject({ kind: 'allow', account: acc });
    }
  });

  it('6. accept-agb is for an exact OWNER only', () => {
    expect(guard('/accept-agb', { accounts: [owner] })).toMatchObject({ kind: 'allow' });
    for (const acc of [employee, admin, dc, support]) {
      expect(guard('/accept-agb', { accounts: [acc] })).toEqual({ kind: 'redirect', to: '/' });
    }
  });

  it('6. refuses onboarding when the user has any account', () => {
    expect(guard('/onboarding', { accounts: [employee] })).toEqual({ kind: 'redirect', to: '/' });
    expect(guard('/onboarding', { accounts: [] })).toMatchObject({ kind: 'allow' });
  });

  it('6. opens the first settings child the user may open', () => {
    expect(guard('/settings', { accounts: [employee] })).toEqual({ kind: 'redirect', to: '/settings/users' });
    expect(guard('/settings', { accounts: [admin] })).toEqual({
      kind: 'redirect',
      to: '/settings/company-profile',
    });
  });

  it('6. checks the role of the selected account, not the best one', () => {
    expect(
      guard('/billing', { accounts: [owner, employee], stored: { session: 'e1', local: null } }),
    ).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(
      guard('/billing?uuid=o1', { accounts: [owner, employee], stored: { session: 'e1', local: null } }),
    ).toMatchObject({
      kind: 'allow',
      account: owner,
    });
  });
});

describe('user-role restriction', () => {
  it('passes at or above the required user role', async () => {
    const { canAccess } = await import('./navigation-rules.ts');
    const rule = { needsAccount: true, minUserRole: 'SUPPORT' as const };
    expect(canAccess(rule, 'OWNER', 'STANDARD')).toBe(false);
    expect(canAccess(rule, 'OWNER', 'TEACHER')).toBe(false);
    expect(canAccess(rule, 'EMPLOYEE', 'SUPPORT')).toBe(true);
    expect(canAccess(rule, 'EMPLOYEE', 'PORTAL_ADMIN')).toBe(true);
  });

  it('opens the payments page to support managers and portal admins only', async () => {
    const { canAccess } = await import('./navigation-rules.ts');
    const { access } = ROUTES.find((r) => r.name === 'billing-payments')!;
    expect(canAccess(access, null, 'SUPPORT_AGENT')).toBe(false);
    expect(canAccess(access, 'OWNER', 'STANDARD')).toBe(false);
    expect(canAccess(access, null, 'SUPPORT_MANAGER')).toBe(true);
    expect(canAccess(access, null, 'PORTAL_ADMIN')).toBe(true);
  });
});
