import type { QueryClient } from '@tanstack/react-query';
import { config } from '@/config.ts';

/** Errors before the SDK is there; then the SDK's own capture. */
const early: unknown[] = [];
let send: ((error: unknown) => void) | null = null;

/** Reports an error the app caught itself (an error boundary's); nothing without a DSN. */
export function reportError(error: unknown): void {
  if (!config().sentryDsn) return;
  if (send) send(error);
  else early.push(error);
}

/**
 * Error reporting of the web app (decision 237): only when the server's configuration names a DSN, and then the SDK
 * loads after the first paint (the next frame, then a task) in a chunk of its own, so the first load does not carry
 * it. Errors before that are kept and sent once it is there.
 */
export function startErrorReporting(queryClient: QueryClient): void {
  if (!config().sentryDsn) return;
  const keep = (event: Event) =>
    early.push((event as ErrorEvent).error ?? (event as PromiseRejectionEvent).reason);
  addEventListener('error', keep);
  addEventListener('unhandledrejection', keep);
  requestAnimationFrame(() =>
    setTimeout(
      () =>
        void import('./sentry.ts').then((sdk) => {
          send = sdk.initSentry(queryClient, keep);
          early.splice(0).forEach(send);
        }),
    ),
  );
}
