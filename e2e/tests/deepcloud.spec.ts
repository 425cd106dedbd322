import type { Page, Request } from '@playwright/test';
import {
  DEMO,
  DEMO_ACCOUNTS,
  expect,
  fillLogin,
  signIn,
  test,
  testOnOwnServer,
  watchNetwork,
  type PortalServer,
} from '../fixtures.ts';

// The cloud connection against the embedded provider's second realm, which plays the cloud in demo mode: connect
// (sign in at the cloud, come back, see the connection and the organisations), disconnect, the roles, and the
// callback's silent refusals, each of which leaves nothing stored.

const PREFIX = 'deepcloud-connect:';
const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const connectButton = (page: Page) => page.getByRole('button', { name: 'Mit DeepCloud verbinden' });

/** The connect states stored in the browser (localStorage of the portal's origin). */
function storedStates(page: Page): Promise<string[]> {
  return page.evaluate((prefix) => Object.keys(localStorage).filter((key) => key.startsWith(prefix)), PREFIX);
}

/** Clicks Connect and waits on the cloud's sign-in page (the cloud realm, on the portal's origin in demo mode). */
async function startConnecting(page: Page, server: PortalServer): Promise<void> {
  await connectButton(page).click();
  await page.waitForURL((url) => url.origin === server.url && url.pathname.startsWith('/realms/cloud/'));
  await expect(page.locator('#username')).toBeVisible();
}

/**
 * Changes the address the cloud sends the browser back to. Redirect hops cannot be routed, so the sign-in's form
 * post is answered here: its redirects are followed with the context's cookies up to the callback address, which
 * `change` alters, and the browser is sent there.
 */
async function tamperWithCallback(
  page: Page,
  server: PortalServer,
  change: (url: URL) => void,
): Promise<void> {
  await page.route(
    (url) => url.pathname.startsWith('/realms/cloud/'),
    async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      let response = await route.fetch({ maxRedirects: 0 });
      let location = response.headers()['location'];
      while (location && !new URL(location, server.url).pathname.startsWith('/deepcloud/connect')) {
        response = await page.request.get(new URL(location, server.url).toString(), { maxRedirects: 0 });
        location = response.headers()['location'];
      }
      const target = new URL(location!, server.url);
      change(target);
      await route.fulfill({ status: 302, headers: { location: target.toString() } });
    },
  );
}

/** Removes every stored connect attempt, or overwrites fields of each, as time or another tab could. */
async function changeStoredAttempts(
  page: Page,
  change: 'remove' | { createdAt: number } | { accountUuid: string },
): Promise<void> {
  await page.evaluate(
    ({ prefix, change }) => {
      for (const key of Object.keys(localStorage).filter((k) => k.startsWith(prefix))) {
        if (change === 'remove') localStorage.removeItem(key);
        else
          localStorage.setItem(key, JSON.stringify({ ...JSON.parse(localStorage.getItem(key)!), ...change }));
      }
    },
    { prefix: PREFIX, change },
  );
}

/** Records the exchanges the browser posts. */
function watchExchanges(page: Page): Request[] {
  const posts: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/deep-cloud/v1/auth')) posts.push(request);
  });
  return posts;
}

/**
 * The end of every refused callback: the dashboard, no message, no connect state left (but `left`), and the page
 * still offers to connect (no connection was stored).
 */
async function expectSilentDashboard(
  page: Page,
  server: PortalServer,
  posts: Request[],
  { posted = 0, left = [] as string[] } = {},
) {
  await page.waitForURL(`${server.url}/`);
  await expect(h1(page, `Willkommen, ${DEMO.owner.name}`)).toBeVisible();
  await watchNetwork(page).quiet();
  // No message about the callback; the demo's maintenance announcement stands above every page and is none.
  await expect(page.getByRole('alert').filter({ hasNotText: 'Wartung:' })).toHaveCount(0);
  expect(posts).toHaveLength(posted);
  expect(await storedStates(page)).toEqual(left);
  await page.goto(`${server.url}/deepcloud`);
  await expect(h1(page, 'DeepCloud')).toBeVisible();
  await expect(connectButton(page)).toBeVisible();
}

testOnOwnServer.describe('connecting and disconnecting', () => {
  testOnOwnServer(
    'the owner connects, sees the organisations; admin and employee see it; the owner disconnects',
    async ({ page, own, browser }) => {
      await signIn(page, own, DEMO.owner.email, '/deepcloud');
      await expect(h1(page, 'DeepCloud')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Noch nicht verbunden' })).toBeVisible();
      await startConnecting(page, own);
      expect(await storedStates(page)).toHaveLength(1);
      await fillLogin(page, DEMO.owner.email);

      await page.waitForURL(/\/deepcloud\/connection\/[0-9a-f-]{36}$/);
      await expect(h1(page, 'DeepCloud-Verbindung')).toBeVisible();
      expect(await storedStates(page)).toEqual([]);
      await expect(page.getByText('Verbunden', { exact: true })).toBeVisible();
      await expect(page.getByText(DEMO.owner.name, { exact: true })).toBeVisible();
      const organizations = page.getByRole('table', { name: 'Organisationen' });
      await expect(organizations.getByRole('row')).toHaveCount(4);
      await expect(organizations.getByRole('row', { name: /Alpenblick Treuhand AG/ })).toContainText(
        'CHE-526.018.151',
      );
      await expect(organizations.getByRole('row', { name: /Alpenblick Treuhand AG/ })).toContainText(
        'Inhaber',
      );
      const connectionUrl = page.url();

      // Another admin of the account sees the same connection and may change it; an employee only looks.
      for (const [login, actions] of [
        [DEMO.admin.email, 1],
        [DEMO.employee.email, 0],
      ] as const) {
        const context = await browser.newContext();
        const other = await context.newPage();
        await signIn(other, own, login, '/deepcloud');
        await expect(other.getByRole('table', { name: 'Organisationen' }).getByRole('row')).toHaveCount(4);
        await expect(other.getByText(DEMO.owner.name, { exact: true })).toBeVisible();
        await expect(other.getByRole('button', { name: 'Trennen' })).toHaveCount(actions);
        await expect(other.getByRole('button', { name: 'Neu verbinden' })).toHaveCount(actions);
        await context.close();
      }

      await page.getByRole('button', { name: 'Trennen' }).click();
      const dialog = page.getByRole('dialog', { name: 'DeepCloud trennen?' });
      await dialog.getByRole('button', { name: 'Trennen' }).click();
      await expect(page.getByText('DeepCloud wurde getrennt.')).toBeVisible();
      await page.waitForURL(`${own.url}/deepcloud`);
      await expect(connectButton(page)).toBeVisible();

      // The old connection's address says it is gone and leads to the current state.
      await page.goto(connectionUrl);
      await expect(page.getByText('Diese Verbindung gibt es nicht mehr')).toBeVisible();
      await page.getByRole('link', { name: 'Zur aktuellen Verbindung' }).click();
      await expect(connectButton(page)).toBeVisible();
    },
  );
});

test.describe('roles', () => {
  test('an employee sees who can connect, without the button', async ({ page, server }) => {
    await signIn(page, server, DEMO.employee.email, '/deepcloud');
    await expect(h1(page, 'DeepCloud')).toBeVisible();
    await expect(page.getByText(/Rolle Administrator oder Inhaber/)).toBeVisible();
    await expect(connectButton(page)).toHaveCount(0);
  });

  test('the side navigation leads to the page', async ({ page, server }) => {
    await signIn(page, server, DEMO.admin.email);
    await page.getByRole('navigation').getByRole('link', { name: 'DeepCloud' }).click();
    await expect(h1(page, 'DeepCloud')).toBeVisible();
    await expect(connectButton(page)).toBeVisible();
  });
});

// Each refusal starts a real connect and signs in at the cloud, so the cloud hands out a real code: only the
// browser's checks stand between it and a connection.
test.describe('the callback refuses silently, leaving nothing stored', () => {
  test('a tampered state', async ({ page, server }) => {
    const posts = watchExchanges(page);
    await signIn(page, server, DEMO.owner.email, '/deepcloud');
    await startConnecting(page, server);
    const started = await storedStates(page);
    await tamperWithCallback(page, server, (url) =>
      url.searchParams.set('state', `${url.searchParams.get('state')}x`),
    );
    await fillLogin(page, DEMO.owner.email);
    // The attempt that was started stays unused until it expires and is swept.
    await expectSilentDashboard(page, server, posts, { left: started });
  });

  test('a missing verifier', async ({ page, server }) => {
    const posts = watchExchanges(page);
    await signIn(page, server, DEMO.owner.email, '/deepcloud');
    await startConnecting(page, server);
    await changeStoredAttempts(page, 'remove');
    await fillLogin(page, DEMO.owner.email);
    await expectSilentDashboard(page, server, posts);
  });

  test('an entry older than 60 minutes', async ({ page, server }) => {
    const posts = watchExchanges(page);
    await signIn(page, server, DEMO.owner.email, '/deepcloud');
    await startConnecting(page, server);
    await changeStoredAttempts(page, { createdAt: Date.now() - 61 * 60_000 });
    await fillLogin(page, DEMO.owner.email);
    await expectSilentDashboard(page, server, posts);
  });

  test('a state stored for another account', async ({ page, server }) => {
    const posts = watchExchanges(page);
    await signIn(page, server, DEMO.owner.email, '/deepcloud');
    await startConnecting(page, server);
    await changeStoredAttempts(page, { accountUuid: DEMO_ACCOUNTS.beispiel.uuid });
    await fillLogin(page, DEMO.owner.email);
    await expectSilentDashboard(page, server, posts);
  });

  test('a code the cloud does not know', async ({ page, server }) => {
    const posts = watchExchanges(page);
    await signIn(page, server, DEMO.owner.email, '/deepcloud');
    await startConnecting(page, server);
    await tamperWithCallback(page, server, (url) => url.searchParams.set('code', 'forged-code'));
    await fillLogin(page, DEMO.owner.email);
    // The exchange is tried and refused by the server: still the dashboard, without a word.
    await expectSilentDashboard(page, server, posts, { posted: 1 });
  });
});
