import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from '@/api/query-client.ts';
import { startAuth } from '@/auth/auth.ts';
import {
  REQUESTED_LOCATION_KEY,
  isAuthReturnPath,
  resolveRequestedLocation,
  stripLegacyPrefixes,
} from '@/auth/requested-location.ts';
import { initI18n } from '@/i18n/i18n.ts';
import { App } from '@/app/app.tsx';
import { StartError } from '@/app/start-error.tsx';
import { createGuard } from '@/app/guard.ts';
import { createBrowserHistory } from '@/routing/history.ts';
import { createNavigation, shownHref, type Navigation } from '@/routing/navigation.ts';
import { followMaintenance, syncDocumentTitle } from '@/app/router-effects.ts';
import { buildRoutes, preloadPage, preparePage } from '@/app/routes.tsx';
import { startVersionPolling } from '@/app/version-check.ts';
import { startErrorReporting } from '@/app/error-reporting.ts';
import { sessionLoadsAnswered, settleSessionLoads, startSessionLoads } from '@/app/early-session.ts';

async function start() {
  const root = createRoot(document.getElementById('root')!);
  // The version check starts at once; the locale files, the sign-in and (on a reload) the first loads side by side.
  startVersionPolling();
  const current = stripLegacyPrefixes(window.location.pathname);
  const wanted = isAuthReturnPath(current)
    ? resolveRequestedLocation(sessionStorage.getItem(REQUESTED_LOCATION_KEY))
    : current;
  preloadPage(new URL(wanted, window.location.origin).pathname);
  const queryClient = createQueryClient();
  const auth = startAuth();
  const [, loadedFor] = await Promise.all([initI18n(), startSessionLoads(queryClient)]);
  // A reload whose first loads the API answered with the saved token shows the page at once; keycloak-js' refresh,
  // which confirms the session, ends beside it (decision 266). A return from the sign-in service (its code in the
  // address, a fresh sign-in for a sensitive step) and a reload the API refused wait for the sign-in.
  if (!isAuthReturnPath(current) && loadedFor !== null && sessionLoadsAnswered(queryClient)) {
    void auth.then((started) => {
      if (started.status === 'failed') root.render(<StartError error={started.error} />);
      else if (started.status === 'authenticated')
        settleSessionLoads(queryClient, loadedFor, { shown: true });
    });
  } else {
    const started = await auth;
    if (started.status === 'redirecting') return;
    if (started.status === 'failed') {
      root.render(<StartError error={started.error} />);
      return;
    }
    settleSessionLoads(queryClient, loadedFor, { shown: false });
  }

  // Old links carry /v3 or /admin in front of the path: drop them, whole segments only.
  const { pathname, search, hash } = window.location;
  const stripped = stripLegacyPrefixes(pathname);
  if (stripped !== pathname)
    window.history.replaceState(window.history.state, '', `${stripped}${search}${hash}`);

  let navigation: Navigation | null = null;
  const guard = createGuard({
    queryClient,
    committedHref: () => (navigation ? shownHref(navigation.state) : null),
  });
  navigation = createNavigation({ history: createBrowserHistory(), guard, preparePage });
  syncDocumentTitle(navigation);
  followMaintenance(navigation);
  root.render(
    <StrictMode>
      <App navigation={navigation} routes={buildRoutes()} queryClient={queryClient} />
    </StrictMode>,
  );
  startErrorReporting(queryClient);
}

void start();
