import type { Page } from '@playwright/test';
import {
  DEMO,
  DEMO_PASSWORD,
  expect,
  expectLoginPage,
  fillLogin,
  signIn,
  testOnOwnServer as test,
  type PortalServer,
} from '../fixtures.ts';

// The password and email cards of the security tab against the real provider: a changed password signs in, the old
// one no longer does; a changed email applies once the mailed link is opened, and then signs in.

const SECURITY = '/settings/users?tab=security';
const NEW_PASSWORD = 'Kiesel-Ampel-Gurke-19';

async function signOut(page: Page, name: string, server: PortalServer) {
  await page.getByRole('button', { name: `Benutzermenü von ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Abmelden' }).click();
  await expectLoginPage(page, server);
}

/** The newest link to `path` in the demo outbox's mails to `to`. */
async function mailedLink(page: Page, to: string, path: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const response = await page.request.get(`/dev/mail.json?to=${encodeURIComponent(to)}`);
      const { data } = (await response.json()) as { data: { text: string }[] };
      link = data.map((mail) => new RegExp(`http\\S+${path}\\?key=\\S+`).exec(mail.text)?.[0]).find(Boolean);
      return link;
    })
    .toBeTruthy();
  return link!;
}

test('change the password, sign out, sign in with the new one', async ({ page, own }) => {
  await signIn(page, own, DEMO.employee.email, SECURITY);
  const card = page.getByRole('region', { name: 'Passwort' });
  await card.getByRole('textbox', { name: 'Aktuelles Passwort' }).fill('falsch-falsch-falsch');
  await card.getByRole('textbox', { name: 'Neues Passwort', exact: true }).fill(NEW_PASSWORD);
  await card.getByRole('textbox', { name: 'Neues Passwort bestätigen' }).fill(NEW_PASSWORD);
  await card.getByRole('button', { name: 'Passwort ändern' }).click();
  await expect(card.getByText('Das Passwort ist nicht korrekt.')).toBeVisible();

  await card.getByRole('textbox', { name: 'Aktuelles Passwort' }).fill(DEMO_PASSWORD);
  await card.getByRole('textbox', { name: 'Neues Passwort', exact: true }).fill('passwort1234');
  await card.getByRole('textbox', { name: 'Neues Passwort bestätigen' }).fill('passwort1234');
  await card.getByRole('button', { name: 'Passwort ändern' }).click();
  await expect(card.getByText(/Das Passwort ist zu leicht zu erraten/)).toBeVisible();

  await card.getByRole('textbox', { name: 'Neues Passwort', exact: true }).fill(NEW_PASSWORD);
  await card.getByRole('textbox', { name: 'Neues Passwort bestätigen' }).fill(NEW_PASSWORD);
  await card.getByRole('button', { name: 'Passwort ändern' }).click();
  await expect(page.getByText('Ihr Passwort wurde geändert. Andere Sitzungen wurden beendet.')).toBeVisible();

  await signOut(page, DEMO.employee.name, own);
  await fillLogin(page, DEMO.employee.email, DEMO_PASSWORD);
  await expect(page.locator('#kc-login')).toBeVisible();
  await fillLogin(page, DEMO.employee.email, NEW_PASSWORD);
  await page.waitForURL((url) => url.origin === own.url && !url.pathname.startsWith('/realms/'));

  // The history shows the failed attempt and the sign-ins.
  await page.goto(SECURITY);
  const history = page.getByRole('region', { name: 'Anmeldeverlauf' });
  await expect(history.getByText('Falsches Passwort · Passwort')).toBeVisible();
  await expect(history.getByText('Angemeldet · Passwort').first()).toBeVisible();
});

test('change the email address through the mailed link, then sign in with it', async ({ page, own }) => {
  const newEmail = 'conrad.neu@example.org';
  await signIn(page, own, DEMO.coach.email, SECURITY);
  const card = page.getByRole('region', { name: 'E-Mail-Adresse' });
  await card.getByRole('textbox', { name: 'Neue E-Mail-Adresse' }).fill(newEmail);
  await card.getByRole('textbox', { name: 'Aktuelles Passwort' }).fill(DEMO_PASSWORD);
  await card.getByRole('button', { name: 'Bestätigungslink senden' }).click();
  await expect(
    card.getByText(`Änderung zu ${newEmail} wartet auf Bestätigung.`, { exact: false }),
  ).toBeVisible();

  const link = await mailedLink(page, newEmail, '/email-change');
  await signOut(page, DEMO.coach.name, own);
  await page.goto(link);
  await expect(
    page.getByText(`Ihre E-Mail-Adresse wurde zu ${newEmail} geändert.`, { exact: false }),
  ).toBeVisible();

  await page.goto('/');
  await fillLogin(page, DEMO.coach.email);
  await expect(page.locator('#kc-login')).toBeVisible();
  await fillLogin(page, newEmail);
  await page.waitForURL((url) => url.origin === own.url && !url.pathname.startsWith('/realms/'));
  await page.goto(SECURITY);
  await expect(
    page
      .getByRole('region', { name: 'E-Mail-Adresse' })
      .getByRole('textbox', { name: 'Aktuelle E-Mail-Adresse' }),
  ).toHaveValue(newEmail);
});
