import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { DEMO, expect, signIn, testOnOwnServer } from '../fixtures.ts';

// Payments, staff side: the billing staff uploads the bank's camt.054 file that pays Muster AG's open demo
// invoice, sees it matched and the invoice paid, then uploads the same file again and is told it was imported
// already, with nothing booked twice. The journey books payments, so it gets a server and database of its own.
const test = testOnOwnServer;

const TEMPLATE = fs.readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'camt054-template.xml'),
  'utf8',
);

/** The camt.054 fixture filled in for one credit. */
function camtFile(credit: { amount: string; currency: string; reference: string }): Buffer {
  const referenceType = credit.reference.startsWith('RF') ? '<Cd>SCOR</Cd>' : '<Prtry>QRR</Prtry>';
  const values: Record<string, string> = {
    ...credit,
    referenceType,
    messageId: 'CAMT054-JOURNEY-0001',
    bankRef: 'ZV20261120/375204/1',
    bookedOn: new Date().toISOString().slice(0, 10),
  };
  return Buffer.from(TEMPLATE.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name]!));
}

/** The money of a table cell ("CHF 1'234.50") as the file writes it ("1234.50"). */
const plainAmount = (text: string) => text.replace(/[^\d.]/g, '');

async function upload(page: Page, file: Buffer) {
  await page.getByTestId('camt-file').setInputFiles({
    name: 'camt054-muster.xml',
    mimeType: 'application/xml',
    buffer: file,
  });
}

test('staff books the bank file that pays an open invoice, and a second upload books nothing', async ({
  page,
  own,
}) => {
  await signIn(page, own, DEMO.billing.email, '/');
  await page
    .getByRole('navigation', { name: 'Hauptnavigation' })
    .getByRole('link', { name: 'Zahlungen' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Zahlungen' })).toBeVisible();
  await expect(page.getByText('Keine Gutschriften zu bearbeiten.')).toBeVisible();

  // Muster AG's open invoice, found across accounts.
  await page.getByRole('tab', { name: 'Rechnungen' }).click();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Offen' }).click();
  await page.getByRole('searchbox', { name: 'Rechnung suchen' }).fill('Muster AG');
  const table = page.getByRole('table', { name: 'Rechnungen' });
  await expect(table.getByRole('row')).toHaveCount(2);
  const row = table.getByRole('row').nth(1);
  await expect(row).toContainText('Offen');
  const cells = row.getByRole('cell');
  const number = (await cells.nth(0).locator('span').first().innerText()).trim();
  const reference = (await cells.nth(0).locator('p').last().innerText()).trim();
  const totalText = await cells.nth(3).innerText();
  const currency = totalText.includes('EUR') ? 'EUR' : 'CHF';
  const file = camtFile({ amount: plainAmount(totalText), currency, reference });

  // The bank's file pays it.
  await upload(page, file);
  const result = page.getByRole('status');
  await expect(result).toContainText('camt054-muster.xml importiert');
  await expect(page.getByTestId('count-matched')).toHaveText('Zugeordnet: 1');
  await expect(page.getByTestId('count-unmatched')).toHaveText('Nicht zugeordnet: 0');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Alle' }).click();
  await page.getByRole('searchbox', { name: 'Rechnung suchen' }).fill(number);
  await expect(table.getByRole('row').nth(1)).toContainText('Bezahlt');

  await page.getByRole('tab', { name: 'Gutschriften' }).click();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Alle' }).click();
  const credit = page
    .getByRole('table', { name: 'Gutschriften' })
    .getByRole('row', { name: new RegExp(number) });
  await expect(credit).toContainText('Zugeordnet');
  await expect(credit).toContainText('Muster AG');

  // The same file again: refused, nothing booked twice.
  await upload(page, file);
  await expect(result).toContainText(
    'Diese Datei wurde bereits importiert. Es wurde nichts erneut verbucht.',
  );
  await page.getByRole('tab', { name: 'Importe' }).click();
  const imports = page.getByRole('table', { name: 'Importe' });
  await expect(imports.getByRole('row')).toHaveCount(2);
  await expect(imports.getByRole('row').nth(1)).toContainText('camt054-muster.xml');
  await expect(imports.getByRole('row').nth(1)).toContainText(DEMO.billing.name);
});
