import { createElement, type ComponentType, type ReactElement } from 'react';
import { RANKED_ROUTES, matchRoute } from './navigation-rules.ts';
import { loadAreas } from '@/i18n/i18n.ts';
import { pageLoaderOf } from './page-loaders.ts';
import { ROUTES, pathPatternOf, type RouteEntry, type RouteName } from './route-table.ts';
import {
  Route,
  RouteBoundary,
  Switch,
  useLocation,
  useParams,
  usePageLoadError,
} from '@/routing/navigation-view.tsx';
import { AppShell } from './shell/app-shell.tsx';
import { PageErrorBoundary } from './shell/full-page-states.tsx';

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

/** The pages loaded so far, by route: a navigation renders its page once it is here. */
const loadedPages = new Map<RouteName, ComponentType<Record<string, unknown>>>();

/**
 * Loads the page at `pathname` (navigation.ts runs it beside the guard, and commits the navigation once it is in):
 * the page's chunk and its texts side by side, so it renders once both are (no raw keys). A chunk the page renders
 * lazily starts with them and is not waited for. Each page loads once; a failed load is tried again next time.
 */
export async function preparePage(pathname: string): Promise<void> {
  const match = matchRoute(pathname);
  const loader = match && pageLoaderOf(match.entry.name);
  if (!match || !loader || loadedPages.has(match.entry.name)) return;
  void loader.alongside?.().catch(() => undefined);
  const [{ default: Page }] = await Promise.all([loader.page(), loadAreas(loader.messages)]);
  loadedPages.set(match.entry.name, Page);
}

function LoadedPage({ entry }: { entry: RouteEntry }) {
  usePageLoadError();
  const params = useParams();
  // The page's component, the same one on every render once loaded (so its state stays).
  const page = loadedPages.get(entry.name);
  if (!page) return null;
  return createElement(page, pageLoaderOf(entry.name)?.paramsAsProps ? params : null);
}

/** A page in the shell: its own error boundary keeps the shell when the page fails to load or render. */
function BoundedPage({ entry }: { entry: RouteEntry }) {
  const { key } = useLocation();
  return (
    <RouteBoundary fallback={PageErrorBoundary} resetKey={key}>
      <LoadedPage entry={entry} />
    </RouteBoundary>
  );
}

/** Matches every path without a parameter (a string pattern's `*` would hand its pages one). */
const EVERY_PATH = /^\//;

/**
 * The routes `<AppRouter>` renders, derived from the route table: /maintenance stands alone (no guard, no shell,
 * its errors on the root's error page); every other row is a page in the shell, tried in the guard's order
 * (RANKED_ROUTES: the most specific pattern first); a path no row matches shows the shell alone (the guard sends it
 * on before). The guard (guard.ts) runs before every navigation, in navigation.ts.
 */
export function buildRoutes(): ReactElement {
  const maintenance = ROUTES.find((entry) => entry.access.public)!;
  return (
    <Switch>
      <Route path={pathPatternOf(maintenance)}>
        <LoadedPage entry={maintenance} />
      </Route>
      <Route path={EVERY_PATH}>
        <AppShell>
          <Switch>
            {RANKED_ROUTES.filter(({ item }) => !item.access.public).map(({ pattern, item }) => (
              // One key per row: a pattern with an optional segment is two patterns of the same page.
              <Route key={item.name} path={pattern}>
                {/* Rows without a page never render: the guard sends them on before. */}
                {pageLoaderOf(item.name) ? <BoundedPage entry={item} /> : null}
              </Route>
            ))}
          </Switch>
        </AppShell>
      </Route>
    </Switch>
  );
}
