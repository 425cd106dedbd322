import { QueryClient } from '@tanstack/react-query';
import { expect, it, vi } from 'vitest';

const sent: unknown[] = [];
vi.mock('./sentry.ts', () => ({ initSentry: () => (error: unknown) => sent.push(error) }));

it('sends the errors an error boundary caught, kept until the SDK is loaded, only with a DSN', async () => {
  const { reportError, startErrorReporting } = await import('./error-reporting.ts');
  const meta = document.createElement('meta');
  meta.name = 'portal-config';
  meta.content = JSON.stringify({ sentryDsn: 'https://key@reporter.example/1' });
  document.head.append(meta);
  const early = new Error('before the SDK');
  reportError(early);
  startErrorReporting(new QueryClient());
  await vi.waitFor(() => expect(sent).toEqual([early]));
  const later = new Error('after');
  reportError(later);
  expect(sent).toEqual([early, later]);
});
