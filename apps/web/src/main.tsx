import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { UNSAFE_createBrowserHistory as createBrowserHistory } from 'react-router';
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
import { createNavigation, shownHref, type Navigation } from '@/routing/navigation.ts';
import { followMaintenance, syncDocumentTitle } from '@/app/router-effects.ts';
import { buildRoutes, preloadPage, preparePage } from '@/app/routes.tsx';
import { startVersionPolling } from '@/app/version-check.ts';
import { startErrorReporting } from '@/app/error-reporting.ts';
import { settleSessionLoads, startSessionLoads } from '@/app/early-session.ts';

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
  const [auth, , loadedFor] = await Promise.all([startAuth(), initI18n(), startSessionLoads(queryClient)]);
  if (auth.status === 'redirecting') return;
  if (auth.status === 'failed') {
    root.render(<StartError error={auth.error} />);
    return;
  }

  // Old links carry /v3 or /admin in front of the path: drop them, whole segments only.
  const { pathname, search, hash } = window.location;
  const stripped = stripLegacyPrefixes(pathname);
  if (stripped !== pathname)
    window.history.replaceState(window.history.state, '', `${stripped}${search}${hash}`);

  settleSessionLoads(queryClient, loadedFor);
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
