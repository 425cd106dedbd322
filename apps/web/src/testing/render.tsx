// Test helper: renders a page with i18n (all locales loaded), a fresh query client (or the one given) and the
// app's navigation (app/navigation.ts) on a memory history, without the guard.
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Language } from '@portal/contract';
import { createTestI18n } from './i18n.ts';
import { createNavigation } from '@/routing/navigation.ts';
import { createMemoryHistory } from '@/routing/history.ts';
import { AppRouter, Route, Switch, useLocation, useRouteError } from '@/routing/navigation-view.tsx';

/** Shows where the router went, for assertions. */
export function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.pathname + location.search}</div>;
}

/** A page that failed to render: its error, for assertions. */
function RenderError() {
  return <div role="alert">{String(useRouteError())}</div>;
}

export async function renderPage(
  path: string,
  element: ReactElement,
  {
    at = path,
    lng = 'de' as Language,
    queryClient = new QueryClient({
      defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
    }),
  }: { at?: string; lng?: Language; queryClient?: QueryClient } = {},
) {
  const i18n = await createTestI18n(lng);
  const router = createNavigation({ history: createMemoryHistory({ initialEntries: [at] }) });
  const result = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AppRouter navigation={router} rootError={RenderError}>
          <Switch>
            <Route path={path}>{element}</Route>
            <Route path={/^\//}>
              <Where />
            </Route>
          </Switch>
        </AppRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...result, router, queryClient, i18n };
}
