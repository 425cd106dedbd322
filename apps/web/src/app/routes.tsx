import { useParams, type RouteObject } from 'react-router';
import { matchRoute } from './navigation-rules.ts';
import { loadAreas } from '@/i18n/i18n.ts';
import { pageLoaderOf } from './page-loaders.ts';
import { ROUTES, type RouteEntry } from './route-table.ts';
import { AppShell } from './shell/app-shell.tsx';
import { FullPageLoader, PageErrorBoundary, RootErrorBoundary } from './shell/full-page-states.tsx';

/**
 * Starts downloading the page for `pathname` while sign-in runs, so the two do not wait on each other; its texts
 * load with the shell's when i18next starts.
 */
export function preloadPage(pathname: string): void {
  const match = matchRoute(pathname);
  const loader = match && pageLoaderOf(match.entry.name);
  if (!loader) return;
  void loader.page().catch(() => undefined);
  void loader.alongside?.().catch(() => undefined);
  void loadAreas(loader.messages);
}

function pageRoute(entry: RouteEntry): RouteObject {
  const base = { id: entry.name, handle: { entry }, ErrorBoundary: PageErrorBoundary };
  const loader = pageLoaderOf(entry.name);
  // Rows without a page never render: the guard sends them on before.
  if (!loader) return { ...base, path: entry.path, Component: null };
  const lazy = async () => {
    // The page's chunk and its texts load side by side; it renders once both are in (no raw keys). A chunk the
    // page renders lazily starts with them and is not waited for.
    void loader.alongside?.().catch(() => undefined);
    const [{ default: Page }] = await Promise.all([loader.page(), loadAreas(loader.messages)]);
    if (!loader.paramsAsProps) return { Component: Page };
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
      // A top-level route whose page loads lazily shows the loader meanwhile (a direct load of /maintenance).
      HydrateFallback: FullPageLoader,
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
