import type * as SentryNode from '@sentry/node';
import type { ErrorEvent } from '@sentry/node';
import { ERROR_REPORTING, scrubText, withoutQuery } from '@portal/contract';
import type { Config } from '../config.ts';

type Sentry = typeof SentryNode;

let sentry: Sentry | null = null;

/** No user details, cookies, headers, bodies, query strings, database parameters or local variables. */
const NO_PERSONAL_DATA = {
  userInfo: false,
  cookies: false,
  httpHeaders: false,
  httpBodies: [],
  urlQueryParams: false,
  databaseQueryData: false,
  stackFrameVariables: false,
} satisfies SentryNode.NodeOptions['dataCollection'];

/**
 * What leaves the server: the error (type, message, stack and source lines with emails and tokens removed), the request's method
 * and path (no query, no headers, no cookies, no body), the user's uuid and nothing else of the user.
 */
function scrubEvent(event: ErrorEvent): ErrorEvent {
  if (event.request) {
    event.request = {
      method: event.request.method,
      ...(event.request.url ? { url: withoutQuery(event.request.url) } : {}),
    };
  }
  event.user = event.user?.id ? { id: event.user.id } : undefined;
  if (event.message) event.message = scrubText(event.message);
  for (const exception of event.exception?.values ?? []) {
    if (exception.value) exception.value = scrubText(exception.value);
    // The source lines around each frame (a literal address in the code is still an address).
    for (const frame of exception.stacktrace?.frames ?? []) {
      if (frame.context_line) frame.context_line = scrubText(frame.context_line);
      frame.pre_context = frame.pre_context?.map(scrubText);
      frame.post_context = frame.post_context?.map(scrubText);
      delete frame.vars;
    }
  }
  for (const breadcrumb of event.breadcrumbs ?? []) {
    if (breadcrumb.message) breadcrumb.message = scrubText(breadcrumb.message);
    const url = breadcrumb.data?.url;
    if (typeof url === 'string') breadcrumb.data = { ...breadcrumb.data, url: withoutQuery(url) };
  }
  // The server's name and the process's details stay; the machine's own user and the command line do not.
  delete event.extra;
  return event;
}

/**
 * Error reporting (SPEC §9, decision 237): on only when SENTRY_DSN is set. The SDK loads only then, before the app
 * (so its integrations see Fastify and the HTTP server from the start). Release is the served version
 * (`2.6.0+<BUILD_ID>`), environment ENVIRONMENT (default prod). Errors are captured by `reportServerError` from the
 * one error handler, which knows the status: the Fastify integration traces but captures nothing itself.
 */
export async function initErrorReporting(config: Config): Promise<boolean> {
  if (!config.sentryDsn) return false;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn: config.sentryDsn,
    release: config.version,
    environment: config.environment,
    // Nothing of a person or a request beyond what scrubEvent keeps (SDK 11's successor of sendDefaultPii: false).
    dataCollection: NO_PERSONAL_DATA,
    tracesSampleRate: ERROR_REPORTING.tracesSampleRate,
    integrations: [
      // Request sessions would count requests, not people: the web app's sampled sessions are the release health.
      Sentry.httpIntegration({ sessions: false, maxRequestBodySize: 'none' }),
      Sentry.fastifyIntegration({ shouldHandleError: () => false }),
    ],
    beforeSend: scrubEvent,
    beforeSendTransaction: (event) => {
      if (event.request)
        event.request = { method: event.request.method, url: withoutQuery(event.request.url ?? '') };
      delete event.user;
      return event;
    },
    beforeBreadcrumb: (breadcrumb) => {
      if (breadcrumb.message) breadcrumb.message = scrubText(breadcrumb.message);
      return breadcrumb;
    },
  });
  sentry = Sentry;
  return true;
}

/**
 * A request's unexpected failure (the 5xx the error handler answers): reported once, with the user's uuid only.
 * Refusals (4xx) are never reported.
 */
export function reportServerError(error: unknown, user: { uuid: string } | null | undefined): void {
  sentry?.captureException(error, user ? { user: { id: user.uuid } } : undefined);
}

/** Sends what is queued (shutdown, tests). */
export async function flushErrorReporting(timeoutMs = 2_000): Promise<void> {
  await sentry?.flush(timeoutMs);
}

/** Turns reporting off again (tests). */
export async function closeErrorReporting(): Promise<void> {
  await sentry?.close(2_000);
  sentry = null;
}
