import type { AccountRole, UserRole } from '@portal/contract';

/** Who may open a route (SPEC §2, §6; SPEC-DECISIONS 2–5). */
export interface AccessRule {
  /** The route works inside an account: the guard selects one (or sends a user without any to onboarding). */
  needsAccount: boolean;
  /** Level check: the current account role must be at or above this one. */
  minAccountRole?: AccountRole;
  /** Exact check: only this account role. */
  exactAccountRole?: AccountRole;
  /** Level check on the user role (SPEC §6 user roles). */
  minUserRole?: UserRole;
  /** Refused (→ dashboard) when the user already has any account. */
  refuseWithAccount?: boolean;
  /** Skips the guard and its loads (the backend may be down). */
  public?: boolean;
}

export type NavGroup = 'main' | 'settings' | 'integrations';

export interface RouteEntry {
  name: string;
  /** Path below the root, React Router syntax; '' is the dashboard. */
  path: string;
  /** i18n key of the page title (namespace messages). */
  titleKey: string;
  access: AccessRule;
  /** Shown in the side navigation, in this group. */
  nav?: NavGroup;
  /** Handled by the guard before any page renders (no page module). */
  redirectOnly?: boolean;
}

const account: AccessRule = { needsAccount: true };
const admin: AccessRule = { needsAccount: true, minAccountRole: 'ADMIN' };
const owner: AccessRule = { needsAccount: true, minAccountRole: 'OWNER' };
const noAccount: AccessRule = { needsAccount: false };

/** Every route of SPEC §2, in the table's order. Router, guard, menus and titles all derive from this list. */
export const ROUTES: readonly RouteEntry[] = [
  { name: '404', path: '404', titleKey: 'routes.notFound', access: noAccount },
  { name: 'abaclik', path: 'abaclik', titleKey: 'routes.abaclik', access: account, nav: 'integrations' },
  { name: 'accounts', path: 'accounts', titleKey: 'routes.accounts', access: noAccount },
  { name: 'create-account', path: 'accounts/account', titleKey: 'routes.createAccount', access: noAccount },
  { name: 'billing', path: 'billing', titleKey: 'routes.billing', access: admin, nav: 'main' },
  { name: 'dashboard', path: '', titleKey: 'routes.dashboard', access: account, nav: 'main' },
  {
    name: 'subscriptions',
    path: 'subscriptions',
    titleKey: 'routes.subscriptions',
    access: admin,
    nav: 'main',
  },
  {
    name: 'deepcloud-connect',
    path: 'deepcloud/connect',
    titleKey: 'routes.deepcloudConnect',
    access: account,
  },
  {
    name: 'deepcloud-connection',
    path: 'deepcloud/connection/:uuid',
    titleKey: 'routes.deepcloudConnection',
    access: account,
  },
  { name: 'inbox', path: 'inbox', titleKey: 'routes.inbox', access: account, nav: 'main' },
  { name: 'inbox-item', path: 'inbox/:uuid', titleKey: 'routes.inboxItem', access: account },
  { name: 'invite-verify', path: 'invite/verify', titleKey: 'routes.inviteVerify', access: noAccount },
  { name: 'logs', path: 'logs', titleKey: 'routes.logs', access: account, nav: 'main' },
  {
    name: 'ncr-lesson-redirect',
    path: 'ncr/lesson',
    titleKey: 'routes.ncrLesson',
    access: noAccount,
    redirectOnly: true,
  },
  { name: 'ncr-lesson', path: 'ncr/lesson/:accountUuid', titleKey: 'routes.ncrLesson', access: noAccount },
  {
    name: 'onboarding',
    path: 'onboarding',
    titleKey: 'routes.onboarding',
    access: { needsAccount: false, refuseWithAccount: true },
  },
  {
    name: 'accept-agb',
    path: 'accept-agb',
    titleKey: 'routes.acceptAgb',
    access: { needsAccount: true, exactAccountRole: 'OWNER' },
  },
  {
    name: 'peppershop-config',
    path: 'peppershop/config',
    titleKey: 'routes.peppershopConfig',
    access: admin,
    nav: 'integrations',
  },
  { name: 'settings', path: 'settings', titleKey: 'routes.settings', access: account, redirectOnly: true },
  {
    name: 'settings-company-profile',
    path: 'settings/company-profile',
    titleKey: 'routes.companyProfile',
    access: admin,
    nav: 'settings',
  },
  {
    name: 'settings-user-management',
    path: 'settings/user-management',
    titleKey: 'routes.userManagement',
    access: admin,
    nav: 'settings',
  },
  {
    name: 'settings-users',
    path: 'settings/users',
    titleKey: 'routes.user',
    access: account,
    nav: 'settings',
  },
  {
    name: 'settings-ownership',
    path: 'settings/ownership',
    titleKey: 'routes.ownership',
    access: owner,
    nav: 'settings',
  },
  {
    name: 'settings-user-management-form',
    path: 'settings/user-management/user/:uuid?',
    titleKey: 'routes.memberForm',
    access: admin,
  },
  {
    name: 'settings-digital-coach-form',
    path: 'settings/user-management/digital-coach',
    titleKey: 'routes.digitalCoachForm',
    access: admin,
  },
  {
    name: 'settings-ownership-transfer',
    path: 'settings/ownership/transfer',
    titleKey: 'routes.transferOwnership',
    access: owner,
  },
  { name: 'support', path: 'support', titleKey: 'routes.support', access: account, nav: 'main' },
  { name: 'support-info', path: 'support/info', titleKey: 'routes.supportInfo', access: account },
  { name: 'support-ticket', path: 'support/ticket', titleKey: 'routes.supportTicket', access: account },
  {
    name: 'support-ticket-success',
    path: 'support/ticket/success',
    titleKey: 'routes.supportTicketSuccess',
    access: account,
  },
  { name: 'oauthcb', path: 'oauthcb', titleKey: 'routes.dashboard', access: noAccount, redirectOnly: true },
  { name: 'signup', path: 'signup', titleKey: 'routes.dashboard', access: noAccount, redirectOnly: true },
  {
    name: 'maintenance',
    path: 'maintenance',
    titleKey: 'routes.maintenance',
    access: { needsAccount: false, public: true },
  },
];

export function routeByName(name: string): RouteEntry {
  const entry = ROUTES.find((route) => route.name === name);
  if (!entry) throw new Error(`unknown route ${name}`);
  return entry;
}

/** The children /settings opens, in order; it redirects to the first the user may open (SPEC-DECISIONS 5). */
export const SETTINGS_CHILDREN = [
  'settings-company-profile',
  'settings-user-management',
  'settings-users',
  'settings-ownership',
] as const;

/** Routes the terms redirect never applies to (SPEC §4 step 5). */
export const TERMS_EXEMPT = ['accept-agb', 'accounts', 'create-account'] as const;

export function hrefOf(entry: RouteEntry): string {
  return `/${entry.path}`;
}
