import { DEMO, DEMO_ACCOUNTS, expect, signIn, test } from '../fixtures.ts';
import type { Page } from '@playwright/test';

// The navigation rules (guard, redirects, account selection) for the demo users. Journeys that change a user's state use a user of their own:
// fresh@ (creates an account) and newowner@ (accepts the terms) appear nowhere else in the suite.

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const accountSwitcher = (page: Page) => page.getByRole('button', { name: 'Konto wechseln' });

/** Where the guard sent the browser: path and query, without the origin. */
function location(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

test('fresh@ lands on onboarding and creates an account', async ({ page, server }) => {
  await signIn(page, server, DEMO.fresh.email, '/');
  await page.waitForURL(`${server.url}/onboarding`);
  await expect(h1(page, `Willkommen, ${DEMO.fresh.name}`)).toBeVisible();
  await expect(accountSwitcher(page)).toHaveText(/Kein Konto/);

  const form = page.getByRole('form', { name: 'Konto erstellen' });
  await form.getByLabel('Firmenname').fill('Frisch Bau AG');
  await form.getByRole('button', { name: 'Konto erstellen' }).click();

  // The creator owns the new account, and an owner accepts the terms before working in it.
  await page.waitForURL((url) => url.pathname === '/accept-agb');
  await expect(page.getByText('Das Konto Frisch Bau AG wurde erstellt.')).toBeVisible();
  await expect(accountSwitcher(page)).toHaveText(/Frisch Bau AG.*Inhaber/);
  const stored = await page.evaluate(() => sessionStorage.getItem('accountUuid'));
  expect(stored).toMatch(/^[0-9a-f-]{36}$/);

  // Onboarding is refused now that the user has an account.
  await page.goto('/onboarding');
  await page.waitForURL((url) => url.pathname !== '/onboarding');
  expect(new URL(page.url()).pathname).toBe('/accept-agb');
});

test('newowner@ is sent to accept the terms and then reaches the dashboard', async ({ page, server }) => {
  await signIn(page, server, DEMO.newowner.email, '/');
  await page.waitForURL((url) => url.pathname === '/accept-agb');
  await expect(h1(page, 'AGB und Datenschutz akzeptieren')).toBeVisible();
  await expect(page.getByText(DEMO_ACCOUNTS.neu.name, { exact: false }).first()).toBeVisible();

  await page.getByRole('checkbox', { name: /Allgemeinen Geschäftsbedingungen/ }).check();
  await page.getByRole('checkbox', { name: /Datenschutzerklärung/ }).check();
  await page.getByRole('button', { name: 'Akzeptieren und weiter' }).click();

  await page.waitForURL(`${server.url}/`);
  await expect(h1(page, `Willkommen, ${DEMO.newowner.name}`)).toBeVisible();
  const card = page.getByRole('region', { name: DEMO_ACCOUNTS.neu.name });
  await expect(card).toContainText('Akzeptiert');

  // Stored on the server: a reload does not ask again.
  await page.reload();
  await expect(h1(page, `Willkommen, ${DEMO.newowner.name}`)).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/');
});

test('employee@ opening admin pages lands on the dashboard', async ({ page, server }) => {
  await signIn(page, server, DEMO.employee.email, '/billing');
  await page.waitForURL(`${server.url}/`);
  await expect(h1(page, `Willkommen, ${DEMO.employee.name}`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Rechnungen' })).toHaveCount(0);

  await page.goto('/settings/company-profile');
  await page.waitForURL(`${server.url}/`);
  await expect(h1(page, `Willkommen, ${DEMO.employee.name}`)).toBeVisible();
});

test('admin@ reaches billing but not ownership', async ({ page, server }) => {
  await signIn(page, server, DEMO.admin.email, '/billing');
  await expect(h1(page, 'Rechnungen')).toBeVisible();
  expect(location(page)).toBe('/billing');
  // The title leads with the unread count of the inbox, if any.
  await expect(page).toHaveTitle(/^(\(\d+\) )?Rechnungen \| Portal$/);

  await page.goto('/settings/ownership');
  await page.waitForURL(`${server.url}/`);
  await expect(h1(page, `Willkommen, ${DEMO.admin.name}`)).toBeVisible();
});

test('owner@ reaches ownership', async ({ page, server }) => {
  await signIn(page, server, DEMO.owner.email, '/settings/ownership');
  await expect(h1(page, 'Inhaberschaft')).toBeVisible();
  expect(location(page)).toBe('/settings/ownership');
});

test('an unknown path shows the 404 page with that path', async ({ page, server }) => {
  await signIn(page, server, DEMO.admin.email, '/no/such/page?x=1');
  await page.waitForURL((url) => url.pathname === '/404');
  expect(new URL(page.url()).searchParams.get('path')).toBe('/no/such/page?x=1');
  await expect(h1(page, 'Seite nicht gefunden')).toBeVisible();
  await expect(page.locator('main code')).toHaveText('/no/such/page?x=1');

  await page.getByRole('main').getByRole('link', { name: 'Zur Übersicht' }).click();
  await page.waitForURL(`${server.url}/`);
  await expect(h1(page, `Willkommen, ${DEMO.admin.name}`)).toBeVisible();
});

test('?uuid= selects that account', async ({ page, server }) => {
  const beispiel = DEMO_ACCOUNTS.beispiel;
  await signIn(page, server, DEMO.owner.email, `/?uuid=${beispiel.uuid}`);
  await expect(h1(page, `Willkommen, ${DEMO.owner.name}`)).toBeVisible();
  await expect(accountSwitcher(page)).toHaveText(/Beispiel GmbH.*Mitarbeiter/);
  const card = page.getByRole('region', { name: beispiel.name });
  await expect(card).toContainText('Mitarbeiter');
  expect(await page.evaluate(() => sessionStorage.getItem('accountUuid'))).toBe(beispiel.uuid);

  // The choice is stored: the root without the query stays in Beispiel GmbH instead of the owned account.
  await page.goto('/');
  await expect(accountSwitcher(page)).toHaveText(/Beispiel GmbH/);
});

test('agent@ (staff) is never sent to onboarding and opens a consenting account by ?uuid= as Support', async ({
  page,
  server,
}) => {
  // Staff without an account of their own land where they work: the support queue (decision 213).
  await signIn(page, server, DEMO.agent.email, '/');
  await page.waitForURL((url) => url.pathname === '/support/queue');
  await expect(h1(page, 'Support-Warteschlange')).toBeVisible();

  const muster = DEMO_ACCOUNTS.muster;
  await page.goto(`/?uuid=${muster.uuid}`);
  await expect(h1(page, `Willkommen, ${DEMO.agent.name}`)).toBeVisible();
  await expect(accountSwitcher(page)).toHaveText(/Muster AG.*Support/);
  await expect(page.getByRole('region', { name: muster.name })).toContainText('Support');
  // What the page and the switcher say is true for staff in a customer's account.
  await expect(page.getByText('Sie arbeiten als Support in diesem Konto.', { exact: false })).toBeVisible();
  await expect(page.getByText(/Sie gehören zu 0 Konten/)).toHaveCount(0);
  await accountSwitcher(page).click();
  await expect(page.getByRole('menuitem', { name: /Muster AG.*Support/ })).toBeVisible();
  await expect(page.getByText('Kein Konto gefunden')).toHaveCount(0);

  // Neu Sàrl allows support in no open request: the accounts page says so instead of staying silent.
  await page.goto(`/?uuid=${DEMO_ACCOUNTS.neu.uuid}`);
  await page.waitForURL((url) => url.pathname === '/accounts');
  const field = page.getByRole('textbox', { name: 'Konto-ID' });
  await expect(field).toHaveValue(DEMO_ACCOUNTS.neu.uuid);
  await expect(page.getByText(/Dieses Konto können Sie nicht öffnen/)).toBeVisible();
});

test('staff open an account by ID while the customer allows it; otherwise it is said on the field', async ({
  page,
  server,
}) => {
  await signIn(page, server, DEMO.agent.email, '/accounts');
  const form = page.getByRole('form', { name: 'Konto per ID öffnen' });
  const field = form.getByRole('textbox', { name: 'Konto-ID' });
  await field.fill('6f1c2b1e-0002-4000-8000-00000000ffff');
  await form.getByRole('button', { name: 'Konto öffnen' }).click();
  const refused = form.getByText(/Dieses Konto können Sie nicht öffnen/);
  await expect(refused).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(location(page)).toBe('/accounts');

  // Beispiel GmbH exists, but allows support in no open request: the same message.
  await field.fill(DEMO_ACCOUNTS.beispiel.uuid);
  await form.getByRole('button', { name: 'Konto öffnen' }).click();
  await expect(refused).toBeVisible();
  expect(location(page)).toBe('/accounts');

  // Muster AG's open request allows it.
  await field.fill(DEMO_ACCOUNTS.muster.uuid);
  await form.getByRole('button', { name: 'Konto öffnen' }).click();
  await page.waitForURL(`${server.url}/?uuid=${DEMO_ACCOUNTS.muster.uuid}`);
  await expect(accountSwitcher(page)).toHaveText(/Muster AG.*Support/);
});

test('legacy /v3 links and ncr/lesson?uuid= links land on the right page', async ({ page, server }) => {
  const muster = DEMO_ACCOUNTS.muster;
  await signIn(page, server, DEMO.admin.email, '/v3/inbox?filter=unread');
  await page.waitForURL(`${server.url}/inbox?filter=unread`);
  await expect(h1(page, 'Posteingang')).toBeVisible();

  await page.goto(`/ncr/lesson?uuid=${muster.uuid}&utm_source=mail`);
  await page.waitForURL(`${server.url}/ncr/lesson/${muster.uuid}`);
  await expect(h1(page, 'Lektion')).toBeVisible();
});
