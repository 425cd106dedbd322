import type { ComponentType } from 'react';
import type { EntryInput, RouteName } from './route-table.ts';

/** A page module: its default export is the page component. */
export type PageModule = { default: ComponentType<Record<string, unknown>> };

/** An entry step module: its default export answers where the navigation goes instead (a location of the app). */
export type EntryModule = { default: (input: EntryInput) => Promise<string> };

/**
 * What a route loads once the guard allowed it:
 * - `page`: the page, each its own chunk (keep it a lazy `import()`); `paramsAsProps` hands it the path parameters.
 * - `enter`: a step that runs before any page renders and sends the navigation on (a callback that only acts and
 *   forwards, decision 153). It downloads, in its own chunk, while the guard loads.
 * - `null`: nothing; the navigation rules send the route on before anything renders (`navigation-rules.ts`).
 */
export type RouteLoader =
  { page: () => Promise<PageModule>; paramsAsProps?: true } | { enter: () => Promise<EntryModule> } | null;

/**
 * The page loaders of the route table (`route-table.ts`), by route name: the one place of the app that reaches the
 * pages, and only through lazy `import()`, so no page lands in the first load. The table holds what links and the
 * guard need; this map what renders. The type demands a loader for every route of the table and no other.
 */
export const PAGE_LOADERS: Record<RouteName, RouteLoader> = {
  '404': { page: () => import('@/features/errors/not-found-page.tsx') },
  abaclik: { page: () => import('@/features/abaclik/abaclik-page.tsx') },
  accounts: { page: () => import('@/features/accounts/accounts-page.tsx') },
  'create-account': { page: () => import('@/features/accounts/create-account-page.tsx') },
  billing: { page: () => import('@/features/billing/billing-page.tsx') },
  dashboard: { page: () => import('@/features/dashboard/dashboard-page.tsx') },
  subscriptions: { page: () => import('@/features/subscriptions/subscriptions-page.tsx') },
  deepcloud: { page: () => import('@/features/deepcloud/deepcloud-page.tsx') },
  'deepcloud-connect': { enter: () => import('@/features/deepcloud/connect-callback.ts') },
  'deepcloud-connection': {
    page: () => import('@/features/deepcloud/connection-page.tsx'),
    paramsAsProps: true,
  },
  inbox: { page: () => import('@/features/notifications/inbox-page.tsx') },
  'inbox-item': { page: () => import('@/features/notifications/inbox-item-page.tsx'), paramsAsProps: true },
  'invite-verify': { page: () => import('@/features/accounts/verify-invite-page.tsx') },
  logs: { page: () => import('@/features/logs/logs-page.tsx') },
  // Sent on to ncr-lesson.
  'ncr-lesson-redirect': null,
  'ncr-lesson': { page: () => import('@/features/lessons/lesson-page.tsx') },
  onboarding: { page: () => import('@/features/accounts/onboarding-page.tsx') },
  'accept-agb': { page: () => import('@/features/terms/accept-agb-page.tsx') },
  'peppershop-config': { page: () => import('@/features/peppershop/shop-config-page.tsx') },
  // Sent on to the first of SETTINGS_CHILDREN the user may open.
  settings: null,
  'settings-company-profile': { page: () => import('@/features/company/company-profile-page.tsx') },
  'settings-user-management': { page: () => import('@/features/members/user-management-page.tsx') },
  'settings-users': { page: () => import('@/app/user-settings-page.tsx') },
  'settings-ownership': { page: () => import('@/features/ownership/ownership-page.tsx') },
  'settings-user-management-form': { page: () => import('@/features/members/member-form-page.tsx') },
  'settings-digital-coach-form': { page: () => import('@/features/members/digital-coach-form-page.tsx') },
  'settings-ownership-transfer': { page: () => import('@/features/ownership/transfer-ownership-page.tsx') },
  support: { page: () => import('@/features/support/support-page.tsx') },
  'support-info': { page: () => import('@/features/support/support-info-page.tsx') },
  'support-ticket': { page: () => import('@/features/support/create-ticket-page.tsx') },
  'support-ticket-success': { page: () => import('@/features/support/ticket-success-page.tsx') },
  'support-tickets': { page: () => import('@/features/support/tickets-page.tsx') },
  'support-ticket-detail': { page: () => import('@/features/support/ticket-page.tsx'), paramsAsProps: true },
  'support-queue': { page: () => import('@/features/support/agent/queue-page.tsx') },
  'support-queue-ticket': {
    page: () => import('@/features/support/agent/agent-ticket-page.tsx'),
    paramsAsProps: true,
  },
  'billing-payments': { page: () => import('@/features/billing-staff/payments-page.tsx') },
  // The sign-in return paths: sent on to the location requested before sign-in.
  oauthcb: null,
  signup: null,
  maintenance: { page: () => import('@/features/errors/maintenance-page.tsx') },
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
