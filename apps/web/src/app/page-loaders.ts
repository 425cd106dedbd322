import type { ComponentType } from 'react';
import type { Area } from '@/i18n/areas.ts';
import type { EntryInput, RouteName } from './route-table.ts';

/** A page module: its default export is the page component. */
export type PageModule = { default: ComponentType<Record<string, unknown>> };

/** An entry step module: its default export answers where the navigation goes instead (a location of the app). */
export type EntryModule = { default: (input: EntryInput) => Promise<string> };

/**
 * What a route loads once the guard allowed it:
 * - `page`: the page, each its own chunk (keep it a lazy `import()`); `paramsAsProps` hands it the path parameters;
 *   `messages`: the areas of texts it shows beyond the shell's (`i18n/areas.ts`), loaded beside the chunk (decision 218);
 *   `alongside`: a chunk the page renders lazily (too heavy for the page's own, decision 236), fetched beside it.
 * - `enter`: a step that runs before any page renders and sends the navigation on (a callback that only acts and
 *   forwards, decision 153). It downloads, in its own chunk, while the guard loads.
 * - `null`: nothing; the navigation rules send the route on before anything renders (`navigation-rules.ts`).
 */
export type RouteLoader =
  | {
      page: () => Promise<PageModule>;
      paramsAsProps?: true;
      messages: readonly Area[];
      alongside?: () => Promise<unknown>;
    }
  | { enter: () => Promise<EntryModule> }
  | null;

/**
 * The page loaders of the route table (`route-table.ts`), by route name: the one place of the app that reaches the
 * pages, and only through lazy `import()`, so no page lands in the first load. The table holds what links and the
 * guard need; this map what renders. The type demands a loader for every route of the table and no other.
 */
export const PAGE_LOADERS: Record<RouteName, RouteLoader> = {
  '404': { page: () => import('@/features/errors/not-found-page.tsx'), messages: [] },
  abaclik: { page: () => import('@/features/abaclik/abaclik-page.tsx'), messages: ['abaclik'] },
  accounts: {
    page: () => import('@/features/accounts/accounts-page.tsx'),
    messages: ['accounts', 'createAccount', 'invite'],
  },
  'create-account': {
    page: () => import('@/features/accounts/create-account-page.tsx'),
    messages: ['createAccount', 'invite'],
  },
  billing: { page: () => import('@/features/billing/billing-page.tsx'), messages: ['billing'] },
  dashboard: { page: () => import('@/features/dashboard/dashboard-page.tsx'), messages: ['dashboard'] },
  subscriptions: {
    page: () => import('@/features/subscriptions/subscriptions-page.tsx'),
    messages: ['billing', 'subscriptions'],
  },
  deepcloud: {
    page: () => import('@/features/deepcloud/deepcloud-page.tsx'),
    messages: ['billing', 'deepcloud'],
  },
  'deepcloud-connect': { enter: () => import('@/features/deepcloud/connect-callback.ts') },
  'deepcloud-connection': {
    page: () => import('@/features/deepcloud/connection-page.tsx'),
    messages: ['billing', 'deepcloud'],
    paramsAsProps: true,
  },
  inbox: {
    page: () => import('@/features/notifications/inbox-page.tsx'),
    messages: ['notifications'],
  },
  'inbox-item': {
    page: () => import('@/features/notifications/inbox-item-page.tsx'),
    messages: ['notifications'],
    paramsAsProps: true,
  },
  'invite-verify': {
    page: () => import('@/features/accounts/verify-invite-page.tsx'),
    messages: ['accounts', 'createAccount', 'invite'],
  },
  logs: {
    page: () => import('@/features/logs/logs-page.tsx'),
    messages: ['logs'],
    // The date fields (MUI X, date-fns): the page renders them lazily; their chunk downloads beside the page's.
    alongside: () => import('@/features/logs/day-field.tsx'),
  },
  // Sent on to ncr-lesson.
  'ncr-lesson-redirect': null,
  'ncr-lesson': { page: () => import('@/features/lessons/lesson-page.tsx'), messages: ['lessons'] },
  onboarding: {
    page: () => import('@/features/accounts/onboarding-page.tsx'),
    messages: ['createAccount', 'invite', 'onboarding'],
  },
  'accept-agb': { page: () => import('@/features/terms/accept-agb-page.tsx'), messages: ['terms'] },
  'peppershop-config': {
    page: () => import('@/features/peppershop/shop-config-page.tsx'),
    messages: ['peppershop'],
  },
  // Sent on to the first of SETTINGS_CHILDREN the user may open.
  settings: null,
  'settings-company-profile': {
    page: () => import('@/features/company/company-profile-page.tsx'),
    messages: ['company'],
  },
  'settings-user-management': {
    page: () => import('@/features/members/user-management-page.tsx'),
    messages: ['accounts', 'members'],
  },
  'settings-users': {
    page: () => import('@/app/user-settings-page.tsx'),
    messages: ['notifications', 'profile', 'security'],
  },
  'settings-ownership': {
    page: () => import('@/features/ownership/ownership-page.tsx'),
    messages: ['ownership'],
  },
  'settings-user-management-form': {
    page: () => import('@/features/members/member-form-page.tsx'),
    messages: ['accounts', 'members'],
  },
  'settings-digital-coach-form': {
    page: () => import('@/features/members/digital-coach-form-page.tsx'),
    messages: ['accounts', 'members'],
  },
  'settings-ownership-transfer': {
    page: () => import('@/features/ownership/transfer-ownership-page.tsx'),
    messages: ['ownership'],
  },
  support: { page: () => import('@/features/support/support-page.tsx'), messages: ['support'] },
  'support-info': { page: () => import('@/features/support/support-info-page.tsx'), messages: ['support'] },
  'support-ticket': {
    page: () => import('@/features/support/create-ticket-page.tsx'),
    messages: ['support'],
  },
  'support-ticket-success': {
    page: () => import('@/features/support/ticket-success-page.tsx'),
    messages: ['support'],
  },
  'support-tickets': { page: () => import('@/features/support/tickets-page.tsx'), messages: ['support'] },
  'support-ticket-detail': {
    page: () => import('@/features/support/ticket-page.tsx'),
    messages: ['support', 'supportAgent'],
    paramsAsProps: true,
  },
  'support-queue': {
    page: () => import('@/features/support/agent/queue-page.tsx'),
    messages: ['support', 'supportAgent'],
  },
  'support-queue-ticket': {
    page: () => import('@/features/support/agent/agent-ticket-page.tsx'),
    messages: ['support', 'supportAgent'],
    paramsAsProps: true,
  },
  'billing-payments': {
    page: () => import('@/features/billing-staff/payments-page.tsx'),
    messages: ['billingStaff'],
  },
  announcements: {
    page: () => import('@/features/announcements/announcements-page.tsx'),
    messages: ['announcements'],
  },
  'announcement-new': {
    page: () => import('@/features/announcements/announcement-editor-page.tsx'),
    messages: ['announcements'],
  },
  'announcement-edit': {
    page: () => import('@/features/announcements/announcement-editor-page.tsx'),
    messages: ['announcements'],
    paramsAsProps: true,
  },
  'lesson-authoring': {
    page: () => import('@/features/lesson-authoring/courses-page.tsx'),
    messages: ['lessonAuthoring'],
  },
  'lesson-authoring-new': {
    page: () => import('@/features/lesson-authoring/lesson-editor-page.tsx'),
    messages: ['lessonAuthoring'],
    paramsAsProps: true,
  },
  'lesson-authoring-edit': {
    page: () => import('@/features/lesson-authoring/lesson-editor-page.tsx'),
    messages: ['lessonAuthoring'],
    paramsAsProps: true,
  },
  'accounts-directory': {
    page: () => import('@/features/directory/directory-page.tsx'),
    messages: ['directory'],
  },
  // The sign-in return paths: sent on to the location requested before sign-in.
  oauthcb: null,
  signup: null,
  maintenance: { page: () => import('@/features/errors/maintenance-page.tsx'), messages: [] },
};

/** The route's page loader, or null for a route that renders no page (an entry step, or one sent on). */
export function pageLoaderOf(name: RouteName): Extract<RouteLoader, { page: unknown }> | null {
  const loader = PAGE_LOADERS[name];
  return loader && 'page' in loader ? loader : null;
}

/** The route's entry step, or null. */
export function entryStepOf(name: RouteName): (() => Promise<EntryModule>) | null {
  const loader = PAGE_LOADERS[name];
  return loader && 'enter' in loader ? loader.enter : null;
}
