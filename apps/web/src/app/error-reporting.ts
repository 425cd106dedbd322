import type { QueryClient } from '@tanstack/react-query';
import { config } from '@/config.ts';

/**
 * Error reporting of the web app (decision 237): only when the server's configuration names a DSN, and then the SDK
 * loads after the first paint (the next frame, then a task) in a chunk of its own, so the first load does not carry
 * it. Errors before that are kept and sent once it is there.
 */
export function startErrorReporting(queryClient: QueryClient): void {
  if (!config().sentryDsn) return;
  const early: unknown[] = [];
  const keep = (event: Event) =>
    early.push((event as ErrorEvent).error ?? (event as PromiseRejectionEvent).reason);
  addEventListener('error', keep);
  addEventListener('unhandledrejection', keep);
  requestAnimationFrame(() =>
    setTimeout(() => void import('./sentry.ts').then((sdk) => sdk.initSentry(queryClient, early, keep))),
  );
}
