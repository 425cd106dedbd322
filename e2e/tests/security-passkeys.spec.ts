import type { Page } from '@playwright/test';
import {
  DEMO,
  expect,
  expectAccessibleInBothThemes,
  expectLoginPage,
  fillLogin,
  type PortalServer,
  signIn,
  startServer,
} from '../fixtures.ts';
import { test as base } from '@playwright/test';

// Passkeys end to end in Chromium, with its virtual authenticator (DevTools protocol, WebAuthn domain) standing in
// for a platform authenticator that verifies the person: register one in settings/users, sign in with it alone,
// then with the password and the passkey as the second factor.

/**
 * Each journey on a server of its own, addressed as `localhost`: a WebAuthn relying party is a domain name, never
 * an IP address, so the browser refuses passkeys on http://127.0.0.1.
 */
const test = base.extend<{ own: PortalServer }>({
  // eslint-disable-next-line no-empty-pattern
  own: async ({}, use) => {
    const { server, stop } = await startServer({}, 'localhost');
    await use(server);
    await stop();
  },
  baseURL: async ({ own }, use) => use(own.url),
});

async function signOut(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Benutzermenü von ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Abmelden' }).click();
}

test('registers a passkey, then signs in with it alone and as the second factor', async ({ page, own }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await signIn(page, own, DEMO.coach.email, '/settings/users?tab=security');
  const card = page.getByRole('region', { name: 'Passkeys' });
  await expect(card.getByText('Sie haben noch keinen Passkey.')).toBeVisible();
  await expectAccessibleInBothThemes(page, 'main');

  await card.getByRole('button', { name: 'Passkey hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Passkey hinzufügen' });
  const name = dialog.getByRole('textbox', { name: 'Name' });
  await expect(name).toHaveValue('Passkey 1');
  await expectAccessibleInBothThemes(page, '[role="dialog"]');
  await name.fill('Laptop von Conrad');
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await expect(page.getByText('Passkey «Laptop von Conrad» hinzugefügt.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Laptop von Conrad')).toBeVisible();
  await expect(card.getByText(/noch nie verwendet/)).toBeVisible();

  // Without a password: the login page's passkey button finds the person by the passkey.
  await signOut(page, DEMO.coach.name);
  await expectLoginPage(page, own);
  const passkeyLogin = page.getByRole('button', { name: 'Mit Passkey anmelden' });
  await expect(passkeyLogin).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await passkeyLogin.click();
  await page.waitForURL((url) => url.origin === own.url && url.pathname === '/');
  await expect(page.getByRole('heading', { level: 1, name: `Willkommen, ${DEMO.coach.name}` })).toBeVisible();

  // With the password, the passkey is asked for as the second factor.
  await signOut(page, DEMO.coach.name);
  await expectLoginPage(page, own);
  await fillLogin(page, DEMO.coach.email);
  const confirm = page.getByRole('button', { name: 'Mit Passkey bestätigen' });
  await expect(confirm).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Anmeldung bestätigen' })).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await confirm.click();
  await page.waitForURL((url) => url.origin === own.url && url.pathname === '/');

  // The card now shows the last use; removing the passkey asks first.
  await page.goto('/settings/users?tab=security');
  await expect(card.getByText(/zuletzt verwendet am/)).toBeVisible();
  await card.getByRole('button', { name: 'Passkey «Laptop von Conrad» entfernen' }).click();
  await page
    .getByRole('dialog', { name: 'Passkey entfernen?' })
    .getByRole('button', { name: 'Entfernen' })
    .click();
  await expect(card.getByText('Sie haben noch keinen Passkey.')).toBeVisible();
});

test('keeps the passkey buttons hidden where the browser has no WebAuthn', async ({ page, own }) => {
  await page.addInitScript(() => {
    // A browser without WebAuthn.
    Object.defineProperty(window, 'PublicKeyCredential', { value: undefined });
  });
  await page.goto('/');
  await expectLoginPage(page, own);
  await expect(page.locator('#kc-passkey-section')).toBeHidden();
  await fillLogin(page, DEMO.coach.email);
  await page.waitForURL((url) => url.origin === own.url && !url.pathname.startsWith('/realms/'));
  await page.goto('/settings/users?tab=security');
  const card = page.getByRole('region', { name: 'Passkeys' });
  await expect(card.getByText('Dieser Browser unterstützt keine Passkeys.', { exact: false })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Passkey hinzufügen' })).toHaveCount(0);
});
