import {
  DEMO,
  expect,
  expectLoginPage,
  confirmRegistration,
  fillLogin,
  startServer,
  test,
  type PortalServer,
} from '../fixtures.ts';

const AUTHORIZE = '/realms/portal/protocol/openid-connect/auth';
const TOKEN = '/realms/portal/protocol/openid-connect/token';

test('a deep link survives sign-in; reload keeps the session; sign-out ends it', async ({ page, server }) => {
  const deepLink = '/inbox?filter=unread&page=2';
  await page.goto(deepLink);

  // Not signed in: the provider's login page, not the portal.
  await expectLoginPage(page, server);

  await fillLogin(page, DEMO.owner.email);
  await page.waitForURL(`${server.url}${deepLink}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Posteingang' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('requestedLocation'))).toBeNull();

  await page.getByRole('navigation').getByRole('link', { name: 'Übersicht', exact: true }).click();
  await page.waitForURL(`${server.url}/`);
  await expect(page.getByRole('heading', { level: 1, name: `Willkommen, ${DEMO.owner.name}` })).toBeVisible();

  // A reload must reuse the stored tokens: no trip to the provider's authorize endpoint.
  const authorizeVisits: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && new URL(request.url()).pathname === AUTHORIZE)
      authorizeVisits.push(request.url());
  });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `Willkommen, ${DEMO.owner.name}` })).toBeVisible();
  expect(authorizeVisits).toEqual([]);
  expect(await page.evaluate(() => sessionStorage.getItem('kc-token'))).toBeTruthy();

  await page.getByRole('button', { name: `Benutzermenü von ${DEMO.owner.name}` }).click();
  await page.getByRole('menuitem', { name: 'Abmelden' }).click();
  await expectLoginPage(page, server);
  expect(await page.evaluate(() => sessionStorage.getItem('kc-token'))).toBeNull();

  // The provider's session ended too: opening the portal asks for the password again.
  await page.goto('/');
  await expectLoginPage(page, server);
});

test('a new registration lands signed in on onboarding after the mailed link', async ({ page, server }) => {
  const email = `new-${Date.now()}@example.org`;
  await page.goto('/signup');
  await expect(page.locator('#firstName')).toBeVisible();
  await page.locator('#firstName').fill('Rita');
  await page.locator('#lastName').fill('Register');
  await page.locator('#email').fill(email);
  // A weak password is refused with the reason; the other fields keep their values.
  await page.locator('#password').fill('passwordpassword');
  await page.locator('#password-confirm').fill('passwordpassword');
  await page.locator('#kc-register').click();
  await expect(page.locator('#password-error')).toContainText('Dieses Passwort ist zu leicht zu erraten.');
  await expect(page.locator('#lastName')).toHaveValue('Register');
  await page.locator('#password').fill('Another-Secret-2026');
  await page.locator('#password-confirm').fill('Another-Secret-2026');
  await page.locator('#kc-register').click();

  // The answer does not tell whether the address had an account: check your mail, whose link signs in.
  await expect(page.getByRole('heading', { level: 1, name: 'Prüfen Sie Ihr Postfach' })).toBeVisible();
  await confirmRegistration(page, server, email);
  await expect(page.getByRole('heading', { level: 1, name: 'Willkommen, Rita Register' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  // Opening the mailed link verified the address.
  await expect(page.getByText('Bitte bestätigen Sie Ihre E-Mail-Adresse.')).toHaveCount(0);
});

test.describe('token refresh', () => {
  // Own server: access tokens live 75 s, so the 70 s threshold refreshes about 5 s after sign-in.
  let shortLived: { server: PortalServer; stop: () => Promise<void> };
  test.beforeAll(async () => {
    shortLived = await startServer({ ACCESS_TOKEN_TTL: '75' });
  });
  test.afterAll(async () => {
    await shortLived?.stop();
  });

  test('a token refresh replaces the stored token and the API accepts the new one', async ({ page }) => {
    const { url } = shortLived.server;
    await page.goto(`${url}/`);
    await fillLogin(page, DEMO.admin.email);
    await page.waitForURL(`${url}/`);
    await expect(
      page.getByRole('heading', { level: 1, name: `Willkommen, ${DEMO.admin.name}` }),
    ).toBeVisible();
    const first = await page.evaluate(() => sessionStorage.getItem('kc-token'));
    expect(first).toBeTruthy();

    const refresh = await page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === TOKEN &&
        response.request().postData()?.includes('grant_type=refresh_token') === true,
      { timeout: 20_000 },
    );
    expect(refresh.status()).toBe(200);
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('kc-token'))).not.toBe(first);

    const me = await page.evaluate(async () => {
      const response = await fetch('/api/users/v1/me', {
        headers: { Authorization: `Bearer ${sessionStorage.getItem('kc-token')}` },
      });
      return { status: response.status, body: (await response.json()) as { data: { email: string } } };
    });
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(DEMO.admin.email);

    // The app keeps working with the new token: a client-side navigation loads its data.
    await page.getByRole('link', { name: 'Alle Konten' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Konten' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Konten' }).getByText('Muster AG')).toBeVisible();
  });

  test('a refresh answered 400 clears the token and signs in again', async ({ page }) => {
    const { url } = shortLived.server;
    await page.goto(`${url}/inbox`);
    await fillLogin(page, DEMO.employee.email);
    await page.waitForURL(`${url}/inbox`);
    await expect(page.getByRole('heading', { level: 1, name: 'Posteingang' })).toBeVisible();

    let refused = 0;
    await page.route('**/protocol/openid-connect/token', async (route) => {
      if (refused === 0 && route.request().postData()?.includes('grant_type=refresh_token')) {
        refused += 1;
        await route.fulfill({ status: 400, json: { error: 'invalid_grant' } });
      } else await route.continue();
    });
    // The provider's session is still alive, so the new login returns without asking for the password.
    const authorize = page.waitForRequest(
      (request) => request.isNavigationRequest() && new URL(request.url()).pathname === AUTHORIZE,
      { timeout: 20_000 },
    );
    const throughCallback = page.waitForURL((address) => address.pathname === '/oauthcb', {
      timeout: 20_000,
    });
    await authorize;
    expect(refused).toBe(1);
    await throughCallback;
    await page.waitForURL(`${url}/inbox`);
    await expect(page.getByRole('heading', { level: 1, name: 'Posteingang' })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('kc-token'))).toBeTruthy();
  });
});
