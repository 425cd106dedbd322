import type { Page } from '@playwright/test';
import { DEMO, DEMO_ACCOUNTS, expect, signIn, testOnOwnServer } from '../fixtures.ts';

// Answering an invitation, on the invitations page, on the dashboard and in the shell's bar: the same hooks and texts. Each journey
// answers employee@'s one pending invitation (Beispiel GmbH), so each gets a server and database of its own.
const test = testOnOwnServer;
test.setTimeout(90_000);

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const accountSwitcher = (page: Page) => page.getByRole('button', { name: 'Konto wechseln' });
const invitationBar = (page: Page) =>
  page.getByText(`Sie wurden zum Konto «${DEMO_ACCOUNTS.beispiel.name}» eingeladen.`);

test('accepting on /invite/verify opens the account', async ({ page, own }) => {
  const { beispiel } = DEMO_ACCOUNTS;
  await signIn(page, own, DEMO.employee.email, '/invite/verify');
  await expect(h1(page, 'Einladungen')).toBeVisible();
  await page.getByRole('button', { name: `Einladung zu ${beispiel.name} annehmen` }).click();
  await page.waitForURL(`${own.url}/?uuid=${beispiel.uuid}`);
  await expect(page.getByText(`Sie sind jetzt Mitglied von ${beispiel.name}.`)).toBeVisible();
  await expect(h1(page, `Willkommen, ${DEMO.employee.name}`)).toBeVisible();
  await expect(accountSwitcher(page)).toHaveText(/Beispiel GmbH.*Mitarbeiter/);
  await expect(invitationBar(page)).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('accountUuid'))).toBe(beispiel.uuid);
});

test('declining in the shell bar asks first, then goes to another account', async ({ page, own }) => {
  const { beispiel, muster } = DEMO_ACCOUNTS;
  await signIn(page, own, DEMO.employee.email, `/?uuid=${beispiel.uuid}`);
  await expect(invitationBar(page)).toBeVisible();
  await page.getByRole('button', { name: 'Ablehnen', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Einladung ablehnen?' });
  await expect(dialog).toContainText(`Sie erhalten keinen Zugang zu ${beispiel.name}.`);
  await dialog.getByRole('button', { name: 'Ablehnen' }).click();
  await expect(page.getByText(`Die Einladung zu ${beispiel.name} wurde abgelehnt.`)).toBeVisible();
  await page.waitForURL(`${own.url}/`);
  await expect(accountSwitcher(page)).toHaveText(/Muster AG.*Mitarbeiter/);
  await expect(invitationBar(page)).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('accountUuid'))).toBe(muster.uuid);
});

test('the dashboard lists the open invitation and accepting there opens the account', async ({
  page,
  own,
}) => {
  const { beispiel } = DEMO_ACCOUNTS;
  await signIn(page, own, DEMO.employee.email, '/');
  await expect(accountSwitcher(page)).toHaveText(/Muster AG.*Mitarbeiter/);
  const invitations = page.getByRole('region', { name: 'Offene Einladung' });
  await expect(invitations).toContainText(`${beispiel.name}Eingeladen als Mitarbeiter`);
  await invitations.getByRole('button', { name: `Einladung zu ${beispiel.name} annehmen` }).click();
  await page.waitForURL(`${own.url}/?uuid=${beispiel.uuid}`);
  await expect(page.getByText(`Sie sind jetzt Mitglied von ${beispiel.name}.`)).toBeVisible();
  await expect(accountSwitcher(page)).toHaveText(/Beispiel GmbH.*Mitarbeiter/);
  await expect(invitations).toHaveCount(0);
});
