import type { ConsoleMessage, Page } from '@playwright/test';
import { DEMO, DEMO_ACCOUNTS, expect, signIn, test, watchNetwork, type PortalServer } from '../fixtures.ts';

// No page of the app writes an error or a warning to the browser console: every route of the route table as
// owner@, and the public pages (sign-in, registration, maintenance) without a session.

/** Every path of the app's route table, parameters filled in (a path per row). */
const APP_PATHS = [
  '/',
  '/404',
  '/abaclik',
  '/accounts',
  '/accounts/account',
  '/billing',
  '/subscriptions',
  '/deepcloud',
  '/deepcloud/connect',
  `/deepcloud/connection/${DEMO_ACCOUNTS.muster.uuid}`,
  '/inbox',
  // The owner's first demo notification.
  '/inbox/6f1c2b1e-0006-4000-8000-000000000001',
  '/invite/verify',
  '/logs',
  '/ncr/lesson',
  `/ncr/lesson/${DEMO_ACCOUNTS.muster.uuid}`,
  '/onboarding',
  '/accept-agb',
  '/peppershop/config',
  '/settings',
  '/settings/company-profile',
  '/settings/user-management',
  '/settings/users',
  '/settings/ownership',
  '/settings/user-management/user',
  '/settings/user-management/digital-coach',
  '/settings/ownership/transfer',
  '/support',
  '/support/info',
  '/support/ticket',
  '/support/ticket/success',
  '/support/tickets',
  // A demo ticket of Muster AG.
  '/support/tickets/6f1c2b1e-0005-4000-8000-000000000002',
  '/no-such-page',
];

/** Collects the console's errors and warnings and the page's uncaught errors. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    problems.push(`${message.type()}: ${message.text()} (${page.url()})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message} (${page.url()})`));
  return problems;
}

/** Waits until the page has settled: no request in flight (but the live stream) and a heading on screen. */
async function settle(page: Page, network: ReturnType<typeof watchNetwork>): Promise<void> {
  await network.quiet();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
}

async function visitAll(page: Page, server: PortalServer, paths: readonly string[]): Promise<void> {
  const network = watchNetwork(page);
  for (const path of paths) {
    await page.goto(`${server.url}${path}`);
    await settle(page, network);
  }
}

test('no console error or warning on any page of the app (owner)', async ({ page, server }) => {
  test.setTimeout(180_000);
  const problems = watchConsole(page);
  await signIn(page, server, DEMO.owner.email);
  await visitAll(page, server, APP_PATHS);
  expect(problems).toEqual([]);
});

test('no console error or warning on the public pages', async ({ page, server }) => {
  const problems = watchConsole(page);
  // A direct load of /maintenance (no session needed).
  await page.goto(`${server.url}/maintenance`);
  await settle(page, watchNetwork(page));
  // The sign-in form and the registration form of the sign-in service.
  await page.goto(`${server.url}/`);
  await expect(page.locator('#username')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.goto(`${server.url}/signup`);
  await expect(page.locator('#firstName')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});
