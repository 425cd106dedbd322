import type { Page } from '@playwright/test';
import { generateSync } from 'otplib';
import {
  DEMO,
  expect,
  expectAccessibleInBothThemes,
  fillLogin,
  signIn,
  testOnOwnServer as test,
} from '../fixtures.ts';

// Two-factor with an authenticator app, end to end: set it up in the security tab (codes computed here from the
// secret the dialog shows as text), keep the recovery codes, sign out, sign in with password and code, and once with
// a recovery code. On its own server: the demo owner gets a second factor only there.

/** The app's code for the next time step: later than any code used so far, and inside the ±1 step window. */
const nextCode = (secret: string) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

async function signOut(page: Page) {
  await page.getByRole('button', { name: `Benutzermenü von ${DEMO.owner.name}` }).click();
  await page.getByRole('menuitem', { name: 'Abmelden' }).click();
  await expect(page.locator('#username')).toBeVisible();
}

test('sets up an authenticator app, signs in with password and code, and once with a recovery code', async ({
  page,
  own,
}) => {
  // A long journey: three sign-ins and axe in both themes on two dialog steps and the provider's page.
  test.setTimeout(180_000);
  await signIn(page, own, DEMO.owner.email, '/settings/users?tab=security');
  const card = page.getByRole('region', { name: 'Zwei-Faktor-Authentifizierung' });
  await expect(card.getByTestId('totp-state')).toHaveText('Ausgeschaltet');
  await card.getByRole('button', { name: 'Einrichten' }).click();

  const dialog = page.getByRole('dialog', { name: 'Authenticator-App einrichten' });
  await expect(
    dialog.getByRole('img', { name: /QR-Code zum Einrichten der Authenticator-App/ }),
  ).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessibleInBothThemes(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Weiter' }).click();

  // A wrong first code is refused at the field; the right one turns the app on.
  const codeField = dialog.getByLabel('Code aus der Authenticator-App');
  await expect(codeField).toBeFocused();
  const right = generateSync({ secret });
  await codeField.fill(right === '000000' ? '111111' : '000000');
  await dialog.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(dialog.getByText('Der Code ist falsch oder abgelaufen.')).toBeVisible();
  await codeField.fill(generateSync({ secret }));
  await dialog.getByRole('button', { name: 'Bestätigen' }).click();

  const list = dialog.getByRole('list', { name: 'Wiederherstellungscodes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = await list.getByRole('listitem').allInnerTexts();
  for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await expectAccessibleInBothThemes(page, '[role="dialog"]');

  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Als .txt herunterladen' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('wiederherstellungscodes.txt');
  const text = await new Response((await file.createReadStream()) as unknown as ReadableStream).text();
  for (const code of codes) expect(text).toContain(code);

  // Closing needs the confirmation that the codes are kept.
  const done = dialog.getByRole('button', { name: 'Fertig' });
  await expect(done).toBeDisabled();
  await dialog.getByLabel('Ich habe die Codes gesichert').check();
  await done.click();
  await expect(dialog).toBeHidden();
  await expect(card.getByTestId('totp-state')).toHaveText('Eingeschaltet');
  await expect(card.getByTestId('recovery-left')).toHaveText('Noch 10 Wiederherstellungscodes übrig.');

  // Signing in now asks for the code after the password.
  await signOut(page);
  await fillLogin(page, DEMO.owner.email);
  const otp = page.getByLabel('Code aus der Authenticator-App');
  await expect(otp).toBeVisible();
  await expect(otp).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(otp).toHaveAttribute('inputmode', 'numeric');
  await expectAccessibleInBothThemes(page);
  await otp.fill(nextCode(secret));
  await page.locator('#kc-login').click();
  await page.waitForURL((url) => url.origin === own.url && !url.pathname.startsWith('/realms/'));
  await expect(page.getByRole('button', { name: `Benutzermenü von ${DEMO.owner.name}` })).toBeVisible();

  // And once with a recovery code instead of the app.
  await signOut(page);
  await fillLogin(page, DEMO.owner.email);
  await page.getByText('Keinen Zugriff auf die App? Wiederherstellungscode verwenden').click();
  await page.getByLabel('Wiederherstellungscode').fill(codes[0]!);
  await page.getByRole('button', { name: 'Mit Wiederherstellungscode anmelden' }).click();
  await page.waitForURL((url) => url.origin === own.url && !url.pathname.startsWith('/realms/'));
  await page.goto('/settings/users?tab=security');
  await expect(card.getByTestId('recovery-left')).toHaveText('Noch 9 Wiederherstellungscodes übrig.');

  // The used code does not work a second time.
  await signOut(page);
  await fillLogin(page, DEMO.owner.email);
  await page.getByText('Keinen Zugriff auf die App? Wiederherstellungscode verwenden').click();
  await page.getByLabel('Wiederherstellungscode').fill(codes[0]!);
  await page.getByRole('button', { name: 'Mit Wiederherstellungscode anmelden' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Dieser Wiederherstellungscode ist falsch oder wurde schon verwendet.',
  );
});
