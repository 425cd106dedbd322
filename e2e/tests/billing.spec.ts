import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { DEMO, DEMO_ACCOUNTS, expect, signIn, test, testOnOwnServer, watchNetwork } from '../fixtures.ts';

// The billing page: an admin filters the invoices and downloads a PDF; edits the billing address (a bad postcode
// and an empty street are refused on their fields and change nothing, a good address is saved); the owner of an
// overdue account sees the past-due banner in the shell, an employee of that account neither sees it nor asks.

const field = (page: Page, name: RegExp) => page.getByRole('textbox', { name });
const invoices = (page: Page) => page.getByRole('table', { name: 'Rechnungen' });
const numbers = async (page: Page) =>
  (await invoices(page).locator('tbody th').allTextContents()).map((text) => text.trim());

/** The requests for the account's billing status (the past-due banner's), as the page sends them. */
function statusRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/billing/v1/status')) asked.push(request.url());
  });
  return asked;
}

test('an admin filters the invoices by status and year and downloads a PDF', async ({ page, server }) => {
  const network = watchNetwork(page);
  await signIn(page, server, DEMO.admin.email, '/billing');
  await expect(page.getByRole('heading', { level: 1, name: 'Rechnungen' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Aktuelles Abo' })).toContainText('Professional');
  await expect(
    invoices(page)
      .getByRole('button', { name: /^\d{4}-\d{6}$/ })
      .first(),
  ).toBeVisible();
  await expect(page.getByText('Zeilen pro Seite')).toBeVisible();

  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Bezahlt' }).click();
  await expect(page).toHaveURL(/[?&]status=PAID/);
  await network.quiet();
  await expect(invoices(page).getByText('Offen', { exact: true })).toHaveCount(0);
  const paid = await numbers(page);
  expect(paid.length).toBeGreaterThan(0);

  const year = paid.at(-1)!.slice(0, 4);
  await page.getByRole('combobox', { name: 'Jahr' }).click();
  await page.getByRole('option', { name: year }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]year=${year}`));
  // The list shows the year's invoices once its answer is in (the previous rows stay until then).
  await expect
    .poll(async () => {
      const shown = await numbers(page);
      return shown.length > 0 && shown.every((number) => number.startsWith(`${year}-`));
    })
    .toBe(true);
  const ofYear = await numbers(page);
  // The filters live in the address: a reload keeps them.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Jahr' })).toHaveText(year);

  const number = ofYear[0]!;
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `PDF der Rechnung ${number} herunterladen` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  expect(
    fs
      .readFileSync((await download.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  // The detail opens and closes from the keyboard; the address names the invoice while it is open.
  const opener = invoices(page).getByRole('button', { name: number, exact: true });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: new RegExp(`Rechnung ${number}`) });
  await expect(dialog.getByRole('heading', { name: 'Positionen' })).toBeVisible();
  await expect(dialog.getByText('Total CHF inkl. MWST')).toBeVisible();
  await expect(page).toHaveURL(/[?&]invoice=/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]invoice=/);
});

testOnOwnServer(
  'an admin edits the billing address: bad input is refused on its fields, a good address is saved',
  async ({ page, own }) => {
    await signIn(page, own, DEMO.admin.email, '/billing');
    const card = page.getByRole('region', { name: 'Rechnungsadresse' });
    await expect(card).toContainText('8001 Zürich');
    await card.getByRole('button', { name: 'Bearbeiten' }).click();

    await field(page, /^PLZ/).fill('80');
    await field(page, /^Strasse/).fill('');
    await card.getByRole('button', { name: 'Speichern' }).click();
    await expect(card.getByText('Die Postleitzahl passt nicht zum gewählten Land')).toBeVisible();
    await expect(card.getByText('Dieses Feld ist erforderlich')).toBeVisible();
    await expect(field(page, /^Strasse/)).toHaveAttribute('aria-invalid', 'true');
    await page.reload();
    await expect(card).toContainText('8001 Zürich');

    await card.getByRole('button', { name: 'Bearbeiten' }).click();
    await field(page, /^Strasse/).fill('Seefeldstrasse');
    await field(page, /^Hausnummer/).fill('7a');
    await field(page, /^PLZ/).fill('8008');
    await card.getByRole('button', { name: 'E-Mail-Adresse hinzufügen' }).click();
    await field(page, /^E-Mail-Adresse 3/).fill('kreditoren@example.com');
    await card.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Die Rechnungsangaben wurden gespeichert.')).toBeVisible();
    await expect(card).toContainText('Seefeldstrasse 7a');
    await page.reload();
    await expect(card).toContainText('Seefeldstrasse 7a');
    await expect(card).toContainText('8008 Zürich');
    await expect(page.getByRole('region', { name: 'Zahlungsart' })).toContainText('kreditoren@example.com');
  },
);

test('the owner of an overdue account sees the past-due banner, asked for once, with a link to the invoices', async ({
  page,
  server,
}) => {
  const asked = statusRequests(page);
  await signIn(page, server, DEMO.inhaber.email, `/?uuid=${DEMO_ACCOUNTS.beispiel.uuid}`);
  const banner = page.getByRole('alert').filter({ hasText: /factures? (est|sont) en retard/ });
  await expect(banner).toContainText(/EUR [\d']+\.\d\d ouverts depuis le/);
  await banner.getByRole('link', { name: 'Voir les factures' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Facturation' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Factures' }).getByText('En retard')).toBeVisible();
  // One request for the account, however often the user moves on.
  await page.getByRole('link', { name: 'Journal' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Journal' })).toBeVisible();
  await expect(banner).toBeVisible();
  expect(asked).toHaveLength(1);
});

test('an employee of the overdue account sees no banner and sends no status request', async ({
  page,
  server,
}) => {
  const asked = statusRequests(page);
  const network = watchNetwork(page);
  // Olivia owns Muster AG and works in Beispiel GmbH as an employee.
  await signIn(page, server, DEMO.owner.email, `/?uuid=${DEMO_ACCOUNTS.beispiel.uuid}`);
  await expect(page.getByRole('button', { name: 'Konto wechseln' })).toContainText('Beispiel GmbH');
  // The shell is there for this account (its dashboard), with every request it makes answered.
  await expect(page.getByRole('heading', { level: 1, name: /Willkommen/ })).toBeVisible();
  await network.quiet();
  await expect(page.getByText(/Rechnungen? (ist|sind) überfällig/)).toHaveCount(0);
  expect(asked).toEqual([]);
});
