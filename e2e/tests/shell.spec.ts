import type { Page } from '@playwright/test';
import { DEMO, expect, expectLoginPage, register, signIn, test, uniqueEmail } from '../fixtures.ts';

// The application shell: toolbars, the inactivity modal, language and theme.

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

async function openUserMenu(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: label }).click();
  await expect(page.getByRole('menu')).toBeVisible();
}

test('a changed /version.json shows the reload toolbar', async ({ page, server }) => {
  const firstCheck = page.waitForResponse((response) => new URL(response.url()).pathname === '/version.json');
  await signIn(page, server, DEMO.admin.email);
  expect((await firstCheck).ok()).toBe(true);
  await expect(h1(page, `Willkommen, ${DEMO.admin.name}`)).toBeVisible();
  // The served version is the built one: no toolbar.
  await expect(page.getByText('Eine neue Version des Portals ist verfügbar.')).toHaveCount(0);

  await page.route('**/version.json', (route) =>
    route.fulfill({ json: { data: { version: '2.7.0+next', maintenance: false } } }),
  );
  await page.reload();
  await expect(page.getByText('Eine neue Version des Portals ist verfügbar.')).toBeVisible();

  // The button reloads the page; with the original document back, the toolbar goes away.
  await page.unroute('**/version.json');
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Neu laden' }).click();
  await reloaded;
  await expect(h1(page, `Willkommen, ${DEMO.admin.name}`)).toBeVisible();
  await expect(page.getByText('Eine neue Version des Portals ist verfügbar.')).toHaveCount(0);
});

test('the maintenance flag leads to /maintenance and back when a later check clears it', async ({
  page,
  server,
}) => {
  await page.clock.install();
  await signIn(page, server, DEMO.admin.email, '/inbox');
  await expect(h1(page, 'Posteingang')).toBeVisible();
  const served = (await (await page.request.get('/version.json')).json()) as { data: { version: string } };
  await page.route('**/version.json', (route) =>
    route.fulfill({ json: { data: { version: served.data.version, maintenance: true } } }),
  );
  await page.reload();
  await page.waitForURL(`${server.url}/maintenance`);
  await expect(h1(page, 'Wartungsarbeiten')).toBeVisible();
  await expect(page.getByText('Eine neue Version des Portals ist verfügbar.')).toHaveCount(0);

  // The next poll (every 30 s) finds maintenance over: back to the page the user was on.
  await page.unroute('**/version.json');
  const check = page.waitForResponse((response) => new URL(response.url()).pathname === '/version.json');
  await page.clock.fastForward('00:31');
  await check;
  await page.waitForURL(`${server.url}/inbox`, { timeout: 10_000 });
  await expect(h1(page, 'Posteingang')).toBeVisible();
});

test('on a small screen the navigation is a drawer', async ({ page, server }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, server, DEMO.admin.email);
  await expect(h1(page, `Willkommen, ${DEMO.admin.name}`)).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  await expect(nav).toBeHidden();

  await page.getByRole('button', { name: 'Navigation öffnen' }).click();
  await expect(nav).toBeVisible();
  await nav.getByRole('link', { name: 'Posteingang' }).click();
  await page.waitForURL(`${server.url}/inbox`);
  await expect(h1(page, 'Posteingang')).toBeVisible();
  await expect(nav).toBeHidden();
});

test('after 30 idle minutes a countdown runs, then the session ends with a Login button', async ({
  page,
  server,
}) => {
  await page.clock.install();
  await signIn(page, server, DEMO.employee.email);
  await expect(h1(page, `Willkommen, ${DEMO.employee.name}`)).toBeVisible();

  await page.clock.fastForward('29:50');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.clock.fastForward('00:15');
  const dialog = page.getByRole('dialog', { name: 'Sie werden wegen Inaktivität abgemeldet' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(/Sie werden in \d+ Sekunden abgemeldet\./);
  await expect(dialog.getByRole('button', { name: 'Angemeldet bleiben' })).toBeVisible();
  // Not dismissible by Escape.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();

  await page.clock.fastForward('01:00');
  const ended = page.getByRole('dialog', { name: 'Abgemeldet' });
  await expect(ended).toContainText('Sie wurden aus Sicherheitsgründen abgemeldet.');
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('kc-token'))).toBeNull();

  // Login asks for the password again, then returns to the page.
  await ended.getByRole('button', { name: 'Anmelden' }).click();
  await expectLoginPage(page, server);
});

test('"Stay logged in" keeps the session', async ({ page, server }) => {
  await page.clock.install();
  await signIn(page, server, DEMO.employee.email, '/inbox');
  await expect(h1(page, 'Posteingang')).toBeVisible();

  await page.clock.fastForward('30:05');
  const dialog = page.getByRole('dialog', { name: 'Sie werden wegen Inaktivität abgemeldet' });
  await dialog.getByRole('button', { name: 'Angemeldet bleiben' }).click();
  await expect(dialog).toHaveCount(0);

  await page.clock.fastForward('01:30');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('kc-token'))).toBeTruthy();
});

test('switching to French applies at once and persists for the user', async ({ browser, page, server }) => {
  // coach@ is used by no other journey: the language is saved on the user.
  await signIn(page, server, DEMO.coach.email);
  await expect(h1(page, `Willkommen, ${DEMO.coach.name}`)).toBeVisible();
  await openUserMenu(page, `Benutzermenü von ${DEMO.coach.name}`);
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/api/users/v1/me') && response.request().method() === 'PATCH',
  );
  await page.getByRole('menuitemradio', { name: 'Français' }).click();
  await expect(h1(page, `Bienvenue, ${DEMO.coach.name}`)).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  expect((await saved).ok()).toBe(true);

  await page.reload();
  await expect(h1(page, `Bienvenue, ${DEMO.coach.name}`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Tableau de bord' })).toBeVisible();

  // A new browser without anything stored locally: the language comes from the user.
  const context = await browser.newContext({ baseURL: server.url, locale: 'de-DE' });
  try {
    const other = await context.newPage();
    await signIn(other, server, DEMO.coach.email);
    await expect(h1(other, `Bienvenue, ${DEMO.coach.name}`)).toBeVisible();
    await expect(other.locator('html')).toHaveAttribute('lang', 'fr');
  } finally {
    await context.close();
  }
});

test('the dark theme renders dark and is remembered', async ({ page, server }) => {
  await signIn(page, server, DEMO.admin.email);
  await expect(h1(page, `Willkommen, ${DEMO.admin.name}`)).toBeVisible();
  const bodyLuminance = () =>
    page.evaluate(() => {
      const [r, g, b] = getComputedStyle(document.body)
        .backgroundColor.match(/\d+(\.\d+)?/g)!
        .map(Number) as [number, number, number];
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    });
  expect(await bodyLuminance()).toBeGreaterThan(0.8);

  await openUserMenu(page, `Benutzermenü von ${DEMO.admin.name}`);
  await page.getByRole('menuitemradio', { name: 'Dunkel' }).click();
  await expect.poll(bodyLuminance).toBeLessThan(0.2);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

  await page.keyboard.press('Escape');
  await page.reload();
  await expect(h1(page, `Willkommen, ${DEMO.admin.name}`)).toBeVisible();
  expect(await bodyLuminance()).toBeLessThan(0.2);
});

test('unverified@ sees the verification toolbar; the mailed link verifies and returns to the page', async ({
  page,
  server,
}) => {
  // unverified@ is used by no other journey: this one verifies the address.
  await signIn(page, server, DEMO.unverified.email, '/inbox');
  await expect(h1(page, 'Inbox')).toBeVisible();
  await expect(page.getByText('Please verify your email address.')).toBeVisible();
  const verify = page.getByRole('link', { name: 'Verify' });
  await expect(verify).toHaveAttribute('href', /kc_action=VERIFY_EMAIL/);
  const href = new URL((await verify.getAttribute('href'))!, server.url);
  expect(href.origin).toBe(server.url);
  expect(href.pathname).toBe('/realms/portal/protocol/openid-connect/auth');
  expect(href.searchParams.get('kc_locale')).toBe('en');

  await verify.click();
  await expect(page.locator('#kc-verify-text')).toContainText(DEMO.unverified.email);
  const mails = await page.request.get(`/dev/mail.json?to=${encodeURIComponent(DEMO.unverified.email)}`);
  const { data } = (await mails.json()) as { data: { text: string }[] };
  const link = data[0]?.text.match(/https?:\/\/\S+\/verify-email\S*/)?.[0];
  expect(link).toBeDefined();

  await page.goto(link!);
  await page.waitForURL(`${server.url}/inbox`);
  await expect(h1(page, 'Inbox')).toBeVisible();
  await expect(page.getByText('Please verify your email address.')).toHaveCount(0);
  const claims = await page.evaluate(() => {
    const token = sessionStorage.getItem('kc-token') ?? '';
    const payload = token.split('.')[1] ?? '';
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { email_verified?: boolean };
  });
  expect(claims.email_verified).toBe(true);
});

// Own settings belong to the person, not to an account: a user without accounts (a new registration, as fresh@)
// and a staff member (agent@) open them from the user menu and stay there.
test('"Mein Profil" opens the own settings for a user without accounts', async ({ page, server }) => {
  await register(page, server, { firstName: 'Paula', lastName: 'Profil', email: uniqueEmail('profile') });
  await openUserMenu(page, 'Benutzermenü von Paula Profil');
  await page.getByRole('menuitem', { name: 'Mein Profil' }).click();
  await page.waitForURL(`${server.url}/settings/users`);
  await expect(h1(page, 'Mein Profil')).toBeVisible();
});

test('"Mein Profil" opens the own settings for staff without accounts (agent@)', async ({ page, server }) => {
  await signIn(page, server, DEMO.agent.email);
  await openUserMenu(page, `Benutzermenü von ${DEMO.agent.name}`);
  await page.getByRole('menuitem', { name: 'Mein Profil' }).click();
  await page.waitForURL(`${server.url}/settings/users`);
  await expect(h1(page, 'Mein Profil')).toBeVisible();
});

/** The page does not scroll sideways: nothing is wider than the window. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

test('a very long unbroken name wraps in the headings instead of widening the page', async ({
  page,
  server,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const long = 'Donaudampfschifffahrtsgesellschaftskapitän'.repeat(2);
  await register(page, server, { firstName: 'Lia', lastName: long, email: uniqueEmail('long') });
  await expect(h1(page, `Willkommen, Lia ${long}`)).toBeVisible();
  await expectNoSidewaysScroll(page);

  const form = page.getByRole('form', { name: 'Konto erstellen' });
  await form.getByLabel('Firmenname').fill(`${long}AG`);
  await form.getByRole('button', { name: 'Konto erstellen' }).click();
  await page.waitForURL((url) => url.pathname === '/accept-agb');
  await page.getByRole('checkbox', { name: /Allgemeinen Geschäftsbedingungen/ }).check();
  await page.getByRole('checkbox', { name: /Datenschutzerklärung/ }).check();
  await page.getByRole('button', { name: 'Akzeptieren und weiter' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('heading', { level: 2, name: `${long}AG` })).toBeVisible();
  await expectNoSidewaysScroll(page);

  await page.goto('/accounts');
  await expect(h1(page, 'Konten')).toBeVisible();
  await expectNoSidewaysScroll(page);
});
