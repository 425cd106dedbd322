import type { ComponentType } from 'react';
import { useParams, type RouteObject } from 'react-router';
import { matchRoute } from './navigation-rules.ts';
import { ROUTES, type RouteEntry } from './route-table.ts';
import { AppShell } from './shell/app-shell.tsx';
import { FullPageLoader, PageErrorBoundary, RootErrorBoundary } from './shell/full-page-states.tsx';

type PageModule = { default: ComponentType<Record<string, unknown>> };

/** Page modules per docs/helpers/PAGES.md, each its own lazy chunk. */
const PAGES: Record<string, () => Promise<PageModule>> = {
  '404': () => import('@/features/errors/not-found-page.tsx'),
  maintenance: () => import('@/features/errors/maintenance-page.tsx'),
  dashboard: () => import('@/features/dashboard/dashboard-page.tsx'),
  accounts: () => import('@/features/accounts/accounts-page.tsx'),
  'create-account': () => import('@/features/accounts/create-account-page.tsx'),
  'invite-verify': () => import('@/features/accounts/verify-invite-page.tsx'),
  onboarding: () => import('@/features/accounts/onboarding-page.tsx'),
  'accept-agb': () => import('@/features/terms/accept-agb-page.tsx'),
  'settings-users': () => import('@/features/profile/profile-page.tsx'),
  billing: () => import('@/features/billing/billing-page.tsx'),
  subscriptions: () => import('@/features/billing/subscriptions-page.tsx'),
  inbox: () => import('@/features/inbox/inbox-page.tsx'),
  'inbox-item': () => import('@/features/inbox/inbox-item-page.tsx'),
  logs: () => import('@/features/logs/logs-page.tsx'),
  support: () => import('@/features/support/support-page.tsx'),
  'support-info': () => import('@/features/support/support-info-page.tsx'),
  'support-ticket': () => import('@/features/support/create-ticket-page.tsx'),
  'support-ticket-success': () => import('@/features/support/ticket-success-page.tsx'),
  'settings-company-profile': () => import('@/features/company/company-profile-page.tsx'),
  'settings-user-management': () => import('@/features/members/user-management-page.tsx'),
  'settings-user-management-form': () => import('@/features/members/member-form-page.tsx'),
  'settings-digital-coach-form': () => import('@/features/members/digital-coach-form-page.tsx'),
  'settings-ownership': () => import('@/features/ownership/ownership-page.tsx'),
  'settings-ownership-transfer': () => import('@/features/ownership/transfer-ownership-page.tsx'),
  'deepcloud-connect': () => import('@/features/deepcloud/deepcloud-connect-page.tsx'),
  'deepcloud-connection': () => import('@/features/deepcloud/connection-page.tsx'),
  abaclik: () => import('@/features/abaclik/abaclik-page.tsx'),
  'ncr-lesson': () => import('@/features/lessons/lesson-page.tsx'),
  'peppershop-config': () => import('@/features/peppershop/shop-config-page.tsx'),
};

/** Starts downloading the page for `pathname` while sign-in runs, so the two do not wait on each other. */
export function preloadPage(pathname: string): void {
  const name = matchRoute(pathname)?.entry.name;
  const load = name ? PAGES[name] : undefined;
  void load?.().catch(() => undefined);
}

/** Routes whose path parameters the page receives as props (SPEC §2: "uuid passed as a prop"). */
const PARAMS_AS_PROPS = new Set(['deepcloud-connection']);

function pageRoute(entry: RouteEntry): RouteObject {
  const base = { id: entry.name, handle: { entry }, ErrorBoundary: PageErrorBoundary };
  const load = PAGES[entry.name];
  // Redirect-only rows never render: the guard sends them on before.
  if (entry.redirectOnly || !load) return { ...base, path: entry.path, Component: null };
  const lazy = async () => {
    const Page = (await load()).default;
    if (!PARAMS_AS_PROPS.has(entry.name)) return { Component: Page };
    return {
      Component: function PageWithParams() {
        return <Page {...useParams()} />;
      },
    };
  };
  return entry.path === '' ? { ...base, index: true, lazy } : { ...base, path: entry.path, lazy };
}

/**
 * The router's routes, derived from the route table: /maintenance stands alone (no guard, no shell); every
 * other row sits under the guarded root, whose loader runs the navigation rules before each navigation.
 */
export function buildRoutes(guardLoader: RouteObject['loader']): RouteObject[] {
  const maintenance = ROUTES.find((entry) => entry.access.public)!;
  return [
    {
      ...pageRoute(maintenance),
      path: `/${maintenance.path}`,
      ErrorBoundary: RootErrorBoundary,
    },
    {
      id: 'root',
      path: '/',
      loader: guardLoader,
      // The guard runs before every navigation, including query changes and revalidations.
      shouldRevalidate: () => true,
      Component: AppShell,
      HydrateFallback: FullPageLoader,
      ErrorBoundary: RootErrorBoundary,
      children: [
        ...ROUTES.filter((entry) => !entry.access.public).map(pageRoute),
        { id: 'unmatched', path: '*', Component: null },
      ],
    },
  ];
}
