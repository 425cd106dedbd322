import type { Page } from '@playwright/test';
import {
  DEMO,
  DEMO_ACCOUNTS,
  expect,
  expectNoSeriousViolations,
  signIn,
  testOnOwnServer,
} from '../fixtures.ts';

// Handing Muster AG over and leaving it change the demo data: each journey gets a server and database of its own.
const test = testOnOwnServer;

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const accountSwitcher = (page: Page) => page.getByRole('button', { name: 'Konto wechseln' });

test('the owner hands the account to an admin, who accepts; the roles swap in both sessions', async ({
  browser,
  own,
}) => {
  const { muster } = DEMO_ACCOUNTS;
  // One session in each theme, for the axe checks of the offer.
  const ownerContext = await browser.newContext({ baseURL: own.url, colorScheme: 'light' });
  const adminContext = await browser.newContext({ baseURL: own.url, colorScheme: 'dark' });
  const owner = await ownerContext.newPage();
  const admin = await adminContext.newPage();

  // The owner offers the ownership to Adrian, confirming with the account's name.
  await signIn(owner, own, DEMO.owner.email, '/settings/ownership');
  await expect(h1(owner, 'Inhaberschaft')).toBeVisible();
  await expect(owner.getByRole('region', { name: 'Inhaber des Kontos' })).toContainText(DEMO.owner.name);
  await owner.getByRole('link', { name: 'Inhaberschaft übertragen' }).click();
  await expect(h1(owner, 'Inhaberschaft übertragen')).toBeVisible();
  await owner.getByRole('combobox', { name: /Neuer Inhaber/ }).click();
  await owner.getByRole('option', { name: `${DEMO.admin.name} (${DEMO.admin.email})` }).click();
  const confirmName = owner.getByRole('textbox', { name: /Kontoname zur Bestätigung/ });
  await confirmName.fill('Muster');
  await owner.getByRole('button', { name: 'Übertragung anbieten' }).click();
  await expect(
    owner.getByText('Der eingegebene Name stimmt nicht mit dem Kontonamen überein.'),
  ).toBeVisible();
  await confirmName.fill(muster.name);
  await owner.getByRole('button', { name: 'Übertragung anbieten' }).click();
  await owner.waitForURL(`${own.url}/settings/ownership`);
  await expect(owner.getByText('Übertragung ausstehend')).toBeVisible();
  await expectNoSeriousViolations(owner);

  // Adrian gets a mail in his language that leads to the account's dashboard.
  const mails = await owner.request.get(`/dev/mail.json?to=${encodeURIComponent(DEMO.admin.email)}`);
  const { data } = (await mails.json()) as { data: { subject: string; text: string }[] };
  expect(data[0]?.subject).toContain(`Inhaberschaft von «${muster.name}» übernehmen?`);
  const link = data[0]?.text.match(/https?:\/\/\S+\?uuid=\S+/)?.[0];
  expect(link).toBe(`${own.url}/?uuid=${muster.uuid}`);

  // Adrian accepts on his dashboard and is asked to accept the terms as the new owner.
  await signIn(admin, own, DEMO.admin.email, `/?uuid=${muster.uuid}`);
  const offer = admin.getByRole('region', { name: `Inhaberschaft von ${muster.name} übernehmen?` });
  await expect(offer).toContainText(`${DEMO.owner.name} möchte Ihnen die Inhaberschaft übertragen.`);
  await expectNoSeriousViolations(admin);
  await offer.getByRole('button', { name: 'Inhaberschaft annehmen' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Inhaberschaft annehmen?' });
  await dialog.getByRole('button', { name: 'Inhaberschaft annehmen' }).click();
  await expect(admin.getByText(`Sie sind jetzt Inhaber von ${muster.name}.`)).toBeVisible();
  await admin.waitForURL((url) => url.pathname === '/accept-agb');
  await admin.getByRole('checkbox', { name: /Allgemeinen Geschäftsbedingungen/ }).check();
  await admin.getByRole('checkbox', { name: /Datenschutzerklärung/ }).check();
  await admin.getByRole('button', { name: 'Akzeptieren und weiter' }).click();
  await admin.waitForURL(`${own.url}/`);
  await expect(accountSwitcher(admin)).toHaveText(/Muster AG.*Inhaber/);
  await admin.goto('/settings/ownership');
  await expect(admin.getByRole('region', { name: 'Inhaber des Kontos' })).toContainText(DEMO.admin.name);

  // Olivia's session learns of the change on her next navigation: the ownership page finds she is no longer the
  // owner (or the guard, with the roles refetched, sends her to the dashboard) and her role reads Administrator.
  const nav = owner.getByRole('navigation', { name: 'Hauptnavigation' });
  // The dashboard is shown before going back: a click while its navigation is pending would keep the ownership
  // page mounted, with nothing to read it anew.
  await nav.getByRole('link', { name: 'Übersicht', exact: true }).click();
  await expect(h1(owner, `Willkommen, ${DEMO.owner.name}`)).toBeVisible();
  await nav.getByRole('link', { name: 'Inhaberschaft', exact: true }).click();
  await expect(accountSwitcher(owner)).toHaveText(/Muster AG.*Administrator/);
  await expect(nav.getByRole('link', { name: 'Inhaberschaft', exact: true })).toHaveCount(0);
  // After a reload too: the owner's pages send her to the dashboard.
  await owner.goto('/settings/ownership');
  await owner.waitForURL(`${own.url}/`);
  await expect(accountSwitcher(owner)).toHaveText(/Muster AG.*Administrator/);

  await ownerContext.close();
  await adminContext.close();
});

test('a member leaves the account after confirming; the owner is shown the transfer instead', async ({
  page,
  own,
}) => {
  const { muster } = DEMO_ACCOUNTS;
  await signIn(page, own, DEMO.employee.email, `/settings/users?uuid=${muster.uuid}`);
  await expect(h1(page, 'Mein Profil')).toBeVisible();
  const leave = page.getByRole('region', { name: 'Konto verlassen' });
  await expect(leave).toContainText(`Wenn Sie ${muster.name} verlassen`);
  await leave.getByRole('button', { name: 'Konto verlassen' }).click();
  const dialog = page.getByRole('dialog', { name: `${muster.name} verlassen?` });
  await dialog.getByRole('button', { name: 'Verlassen' }).click();
  await expect(page.getByText(`Sie haben ${muster.name} verlassen.`)).toBeVisible();
  // Emma's only other account is an open invitation: she lands on her accounts list.
  await page.waitForURL(`${own.url}/accounts`);
  await expect(page.getByRole('list', { name: 'Konten' })).not.toContainText(muster.name);

  await page.context().clearCookies();
  const ownerPage = await page.context().browser()!.newPage();
  await signIn(ownerPage, own, DEMO.owner.email, '/settings/users');
  const ownerLeave = ownerPage.getByRole('region', { name: 'Konto verlassen' });
  await expect(ownerLeave).toContainText(`Als Inhaber können Sie ${muster.name} nicht verlassen.`);
  await ownerLeave.getByRole('link', { name: 'Inhaberschaft übertragen' }).click();
  await ownerPage.waitForURL(`${own.url}/settings/ownership/transfer`);
  await ownerPage.close();
});
