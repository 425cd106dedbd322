import type { ComponentType } from 'react';
import type { ParseKeys } from 'i18next';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { QueryClient } from '@tanstack/react-query';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import AutorenewOutlined from '@mui/icons-material/AutorenewOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import StorefrontOutlined from '@mui/icons-material/StorefrontOutlined';
import HeadsetMicOutlined from '@mui/icons-material/HeadsetMicOutlined';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import SchoolOutlined from '@mui/icons-material/SchoolOutlined';
import CloudOutlined from '@mui/icons-material/CloudOutlined';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import {
  ANNOUNCEMENT_ROLES_NEEDED,
  BILLING_STAFF_ROLE,
  type AccountRole,
  type UserRole,
} from '@portal/contract';

/** Who may open a route. */
export interface AccessRule {
  /** The route works inside an account: the guard selects one (or sends a user without any to onboarding). */
  needsAccount: boolean;
  /** Level check: the current account role must be at or above this one. */
  minAccountRole?: AccountRole;
  /** Exact check: only this account role. */
  exactAccountRole?: AccountRole;
  /** Level check on the user role. */
  minUserRole?: UserRole;
  /** Set check on the user role: only these (the contract's `userRole: { oneOf }`). */
  userRoles?: readonly UserRole[];
  /** Refused (→ dashboard) when the user already has any account. */
  refuseWithAccount?: boolean;
  /** Skips the guard and its loads (the backend may be down). */
  public?: boolean;
}

/** The side navigation's groups; `provider`: the provider's own pages (announcements…), for staff user roles only. */
export type NavGroup = 'main' | 'settings' | 'integrations' | 'provider';

/** What a route's entry step (`page-loaders.ts`) works with: the address, the account the guard chose for the tab, the query cache. */
export interface EntryInput {
  url: URL;
  accountUuid: string | null;
  queryClient: QueryClient;
}

/** The title of a route: a key of the `routes` section of messages.json. */
export type RouteTitleKey = Extract<ParseKeys<'messages'>, `routes.${string}`>;

export interface RouteRow {
  /** The name links use: `href('settings-users')`. */
  name: string;
  /** Path below the root (`:param`, `:param?`: wouter's regexparam syntax, as React Router's was); '' is the dashboard. */
  path: string;
  /** The page title, shown in the page, the document title and the side navigation. */
  titleKey: RouteTitleKey;
  access: AccessRule;
  /** Shown in the side navigation: in this group, at this position (ascending), with this icon. */
  nav?: {
    group: NavGroup;
    position: number;
    icon: ComponentType<SvgIconProps>;
    /** Shown only while an account is selected, for a route that takes its account from elsewhere (the address). */
    needsAccount?: boolean;
  };
}

const account: AccessRule = { needsAccount: true };
const admin: AccessRule = { needsAccount: true, minAccountRole: 'ADMIN' };
const owner: AccessRule = { needsAccount: true, minAccountRole: 'OWNER' };
const noAccount: AccessRule = { needsAccount: false };
const staff: AccessRule = { needsAccount: false, minUserRole: 'SUPPORT' };
/** The provider's announcements: SUPPORT_MANAGER and above (drafts; PORTAL_ADMIN also publishes). */
const announcer: AccessRule = { needsAccount: false, minUserRole: ANNOUNCEMENT_ROLES_NEEDED.draft };
/**
 * The provider's courses and lessons: TEACHER and PORTAL_ADMIN only (the contract's LESSON_AUTHOR_ROLES, written out
 * here so the first load does not carry the authoring module; navigation-rules.test.ts compares them).
 */
const teacher: AccessRule = { needsAccount: false, userRoles: ['TEACHER', 'PORTAL_ADMIN'] };

/**
 * Every route of the app, one row each: its name, path, title and access rule. The router, the guard, the side
 * navigation, link building (`href`) and the document title all derive from this list; adding a route means
 * adding a row here, its loader in `page-loaders.ts` and its title in the four locales. Pages import `href`,
 * which reads this table, so the table imports no page (not even lazily): what a route renders lives in
 * `page-loaders.ts`, keyed by route name.
 */
const TABLE = [
  {
    name: '404',
    path: '404',
    titleKey: 'routes.notFound',
    access: noAccount,
  },
  {
    name: 'abaclik',
    path: 'abaclik',
    titleKey: 'routes.abaclik',
    access: account,
    nav: { group: 'integrations', position: 1, icon: ExtensionOutlined },
  },
  {
    name: 'accounts',
    path: 'accounts',
    titleKey: 'routes.accounts',
    access: noAccount,
  },
  {
    name: 'create-account',
    path: 'accounts/account',
    titleKey: 'routes.createAccount',
    access: noAccount,
  },
  {
    name: 'billing',
    path: 'billing',
    titleKey: 'routes.billing',
    access: admin,
    nav: { group: 'main', position: 4, icon: ReceiptLongOutlined },
  },
  {
    name: 'dashboard',
    path: '',
    titleKey: 'routes.dashboard',
    access: account,
    nav: { group: 'main', position: 1, icon: DashboardOutlined },
  },
  {
    name: 'subscriptions',
    path: 'subscriptions',
    titleKey: 'routes.subscriptions',
    access: admin,
    nav: { group: 'main', position: 5, icon: AutorenewOutlined },
  },
  {
    name: 'deepcloud',
    path: 'deepcloud',
    titleKey: 'routes.deepcloud',
    access: account,
    nav: { group: 'integrations', position: 0, icon: CloudOutlined },
  },
  // The cloud's return after sign-in: exchanges the code, then sends on to the connection or the dashboard.
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
  {
    name: 'inbox',
    path: 'inbox',
    titleKey: 'routes.inbox',
    access: account,
    nav: { group: 'main', position: 2, icon: InboxOutlined },
  },
  {
    name: 'inbox-item',
    path: 'inbox/:uuid',
    titleKey: 'routes.inboxItem',
    access: account,
  },
  {
    name: 'invite-verify',
    path: 'invite/verify',
    titleKey: 'routes.inviteVerify',
    access: noAccount,
  },
  {
    name: 'logs',
    path: 'logs',
    titleKey: 'routes.logs',
    access: account,
    nav: { group: 'main', position: 6, icon: HistoryOutlined },
  },
  // Sends on to ncr-lesson with the account from ?uuid= or this tab's account; the menu's way to the course.
  {
    name: 'ncr-lesson-redirect',
    path: 'ncr/lesson',
    titleKey: 'routes.ncrLesson',
    access: noAccount,
    nav: { group: 'main', position: 7, icon: SchoolOutlined, needsAccount: true },
  },
  {
    name: 'ncr-lesson',
    path: 'ncr/lesson/:accountUuid',
    titleKey: 'routes.ncrLesson',
    access: noAccount,
  },
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
    nav: { group: 'integrations', position: 2, icon: StorefrontOutlined },
  },
  // Sends on to the first of SETTINGS_CHILDREN the user may open.
  { name: 'settings', path: 'settings', titleKey: 'routes.settings', access: account },
  {
    name: 'settings-company-profile',
    path: 'settings/company-profile',
    titleKey: 'routes.companyProfile',
    access: admin,
    nav: { group: 'settings', position: 1, icon: BusinessOutlined },
  },
  {
    name: 'settings-user-management',
    path: 'settings/user-management',
    titleKey: 'routes.userManagement',
    access: admin,
    nav: { group: 'settings', position: 2, icon: GroupOutlined },
  },
  {
    name: 'settings-users',
    path: 'settings/users',
    titleKey: 'routes.user',
    // The user's own settings: they belong to the person, not to an account, so a user without one opens them.
    access: noAccount,
    nav: { group: 'settings', position: 3, icon: ManageAccountsOutlined },
  },
  {
    name: 'settings-ownership',
    path: 'settings/ownership',
    titleKey: 'routes.ownership',
    access: owner,
    nav: { group: 'settings', position: 4, icon: VpnKeyOutlined },
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
  {
    name: 'support',
    path: 'support',
    titleKey: 'routes.support',
    access: account,
    nav: { group: 'main', position: 3, icon: SupportAgentOutlined },
  },
  {
    name: 'support-info',
    path: 'support/info',
    titleKey: 'routes.supportInfo',
    access: account,
  },
  {
    name: 'support-ticket',
    path: 'support/ticket',
    titleKey: 'routes.supportTicket',
    access: account,
  },
  {
    name: 'support-ticket-success',
    path: 'support/ticket/success',
    titleKey: 'routes.supportTicketSuccess',
    access: account,
  },
  {
    name: 'support-tickets',
    path: 'support/tickets',
    titleKey: 'routes.supportTickets',
    access: account,
  },
  {
    name: 'support-ticket-detail',
    path: 'support/tickets/:ticketUuid',
    titleKey: 'routes.supportTicketDetail',
    access: account,
  },
  // The agents' side of support: staff user roles only, with or without an account of their own (the queue
  // spans every account).
  {
    name: 'support-queue',
    path: 'support/queue',
    titleKey: 'routes.supportQueue',
    access: staff,
    nav: { group: 'main', position: 8, icon: HeadsetMicOutlined },
  },
  {
    name: 'support-queue-ticket',
    path: 'support/queue/:ticketUuid',
    titleKey: 'routes.supportQueueTicket',
    access: staff,
  },
  // Payments, staff side: the billing staff role and above, across accounts (bank files, credits, invoices).
  {
    name: 'billing-payments',
    path: 'billing/payments',
    titleKey: 'routes.billingPayments',
    access: { needsAccount: false, minUserRole: BILLING_STAFF_ROLE },
    nav: { group: 'main', position: 9, icon: PaymentsOutlined },
  },
  // The provider's side (its own menu group): announcements to the customers, across accounts.
  {
    name: 'announcements',
    path: 'provider/announcements',
    titleKey: 'routes.announcements',
    access: announcer,
    nav: { group: 'provider', position: 1, icon: CampaignOutlined },
  },
  {
    name: 'announcement-new',
    path: 'provider/announcements/new',
    titleKey: 'routes.announcementNew',
    access: announcer,
  },
  {
    name: 'announcement-edit',
    path: 'provider/announcements/:announcementUuid',
    titleKey: 'routes.announcementEdit',
    access: announcer,
  },
  // Lesson authoring: the courses every account's lesson page shows, written by the provider's teachers.
  {
    name: 'lesson-authoring',
    path: 'provider/lessons',
    titleKey: 'routes.lessonAuthoring',
    access: teacher,
    nav: { group: 'provider', position: 3, icon: SchoolOutlined },
  },
  {
    name: 'lesson-authoring-new',
    path: 'provider/lessons/courses/:courseUuid/new',
    titleKey: 'routes.lessonAuthoringNew',
    access: teacher,
  },
  {
    name: 'lesson-authoring-edit',
    path: 'provider/lessons/:lessonUuid',
    titleKey: 'routes.lessonAuthoringEdit',
    access: teacher,
  },
  // The account directory: support staff find any account and read its summary without opening it.
  {
    name: 'accounts-directory',
    path: 'accounts/directory',
    titleKey: 'routes.accountDirectory',
    access: staff,
    nav: { group: 'provider', position: 2, icon: ManageSearchOutlined },
  },
  // The sign-in return paths: sent on to the location requested before sign-in.
  { name: 'oauthcb', path: 'oauthcb', titleKey: 'routes.dashboard', access: noAccount },
  { name: 'signup', path: 'signup', titleKey: 'routes.dashboard', access: noAccount },
  {
    name: 'maintenance',
    path: 'maintenance',
    titleKey: 'routes.maintenance',
    access: { needsAccount: false, public: true },
  },
] as const satisfies readonly RouteRow[];

/** The table's rows with their literal names and paths, for the types derived from them. */
export type RouteTableRow = (typeof TABLE)[number];

/** The name of a route: links are built from it with `href`. */
export type RouteName = RouteTableRow['name'];

/** A row of the table, as the router, the guard and the menus see it. */
export type RouteEntry = RouteRow & { name: RouteName };

export const ROUTES: readonly RouteEntry[] = TABLE;

const byName = new Map<string, RouteEntry>(ROUTES.map((entry) => [entry.name, entry]));

export function routeByName(name: RouteName): RouteEntry {
  const entry = byName.get(name);
  if (!entry) throw new Error(`unknown route ${name}`);
  return entry;
}

/** The children /settings opens, in order; it redirects to the first the user may open. */
export const SETTINGS_CHILDREN = [
  'settings-company-profile',
  'settings-user-management',
  'settings-users',
  'settings-ownership',
] as const satisfies readonly RouteName[];

/** Routes an owner reaches even before accepting the terms: the terms page itself and the account pages. */
export const TERMS_EXEMPT = [
  'accept-agb',
  'accounts',
  'create-account',
] as const satisfies readonly RouteName[];

/** The route's path pattern from the root, e.g. `/inbox/:uuid`. */
export function pathPatternOf(entry: RouteRow): string {
  return `/${entry.path}`;
}
