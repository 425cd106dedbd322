import { ERROR_REPORTING, scrubText, withoutQuery } from '@portal/contract';
import * as Sentry from '@sentry/react';
import type { QueryClient } from '@tanstack/react-query';
import { meQuery } from '@/api/session.ts';
import { config } from '@/config.ts';

/** What leaves the browser: the error (emails and tokens removed), the page's path, the user's uuid. */
function scrubEvent<T extends Sentry.ErrorEvent>(event: T): T {
  if (event.request) {
    event.request = { ...(event.request.url ? { url: withoutQuery(event.request.url) } : {}) };
  }
  event.user = event.user?.id ? { id: event.user.id } : undefined;
  if (event.message) event.message = scrubText(event.message);
  for (const exception of event.exception?.values ?? []) {
    if (exception.value) exception.value = scrubText(exception.value);
  }
  return event;
}

function scrubBreadcrumb(breadcrumb: Sentry.Breadcrumb): Sentry.Breadcrumb {
  if (breadcrumb.message) breadcrumb.message = scrubText(breadcrumb.message);
  if (breadcrumb.data) {
    const data = { ...breadcrumb.data };
    for (const key of ['url', 'from', 'to']) {
      if (typeof data[key] === 'string') data[key] = withoutQuery(data[key]);
    }
    // Console breadcrumbs carry what was logged: only the scrubbed message stays.
    delete data.arguments;
    breadcrumb.data = data;
  }
  return breadcrumb;
}

/**
 * Loaded only when a DSN is configured (error-reporting.ts); answers how to report an error the app caught itself: SPEC §9's rates — traces 0.1, sessions 0.1 of the page
 * loads, replays only of sessions with an error, all text and inputs masked, media blocked.
 */
export function initSentry(queryClient: QueryClient, keep: (event: Event) => void): (error: unknown) => void {
  const settings = config();
  const withSession = Math.random() < ERROR_REPORTING.sessionSampleRate;
  Sentry.init({
    dsn: settings.sentryDsn ?? undefined,
    release: settings.version,
    environment: settings.environment,
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
      stackFrameVariables: false,
    },
    tracesSampleRate: ERROR_REPORTING.tracesSampleRate,
    replaysSessionSampleRate: ERROR_REPORTING.replaysSessionSampleRate,
    replaysOnErrorSampleRate: ERROR_REPORTING.replaysOnErrorSampleRate,
    integrations: (defaults) => [
      ...defaults.filter((integration) => withSession || integration.name !== 'BrowserSession'),
      Sentry.browserTracingIntegration(),
      Sentry.replayIntegration({
        maskAllText: true,
        maskAllInputs: true,
        blockAllMedia: true,
        // The compression worker would need `worker-src blob:` in the CSP; replays are rare, so they go uncompressed.
        useCompression: false,
      }),
    ],
    beforeSend: scrubEvent,
    beforeBreadcrumb: scrubBreadcrumb,
  });
  const showUser = () => {
    const me = queryClient.getQueryData(meQuery.queryKey);
    Sentry.setUser(me ? { id: me.uuid } : null);
  };
  showUser();
  queryClient.getQueryCache().subscribe((event) => {
    if (event.query.queryHash === JSON.stringify(meQuery.queryKey)) showUser();
  });
  removeEventListener('error', keep);
  removeEventListener('unhandledrejection', keep);
  return (error) => void Sentry.captureException(error);
}
