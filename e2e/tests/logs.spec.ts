import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { DEMO, expect, signIn, test } from '../fixtures.ts';

// The account log: an admin filters and exports; an employee sees only the entries about themselves.

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
/** The table's entry rows (each entry has a second row for its details). */
const entryRows = (page: Page) =>
  page.getByRole('table', { name: 'Protokoll' }).locator('tbody > tr:has(time)');

test('an admin filters the log, reads a change and exports what the filters select', async ({
  page,
  server,
}) => {
  await signIn(page, server, DEMO.admin.email, '/logs');
  await expect(h1(page, 'Protokoll')).toBeVisible();
  await expect(entryRows(page)).toHaveCount(50);
  await expect(page.getByRole('status')).toHaveText('50 Einträge angezeigt');
  await page.getByRole('button', { name: 'Weitere laden' }).click();
  await expect(entryRows(page)).toHaveCount(100);

  // Only role changes by the admin.
  await page.getByRole('combobox', { name: 'Aktion' }).click();
  await page.getByRole('option', { name: 'Rolle geändert' }).click();
  await page.getByRole('combobox', { name: 'Person' }).click();
  await page.getByRole('option', { name: DEMO.admin.name }).click();
  // Both filters answered: rows, each a role change by the admin (the list is replaced while it loads).
  await expect
    .poll(async () => {
      const texts = await entryRows(page).allTextContents();
      return (
        texts.length > 0 &&
        texts.every((text) => text.includes('Rolle geändert') && text.includes(DEMO.admin.name))
      );
    })
    .toBe(true);

  // What each entry concerns reads as words: the person, never a key or a request line (issue 23 item 6).
  await expect(page.getByRole('table', { name: 'Protokoll' })).not.toContainText(/user:|terms:|GET \/api/);

  // The change of the newest one, field by field.
  await entryRows(page).first().getByRole('button', { name: '1 Änderung anzeigen' }).click();
  const changes = page.getByRole('table', { name: 'Änderungen: Rolle geändert' });
  await expect(changes.getByRole('row', { name: /role/ })).toContainText(/(EMPLOYEE|ADMIN)/);

  // A search that finds nothing says so.
  await page.getByRole('searchbox', { name: 'Suchen' }).fill('gibt-es-nicht');
  await expect(page.getByText('Keine Einträge passen zu diesen Filtern.')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Suchen' }).fill('');
  await expect(entryRows(page).first()).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Als CSV exportieren' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^log-Muster-AG-\d{4}-\d\d-\d\d\.csv$/);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\n');
  // Semicolons, as Swiss Excel splits a row; the page's words, then the raw values.
  expect(lines[0]).toBe(
    'Zeit;Person;E-Mail;Aktion;Betroffen;Vorher;Nachher;IP-Adresse;Browser;Zeit (UTC);Aktion (Schlüssel);Ziel (ID);Person (ID)',
  );
  // The file holds what the table shows.
  await expect(entryRows(page)).toHaveCount(lines.length - 1);
  expect(
    lines
      .slice(1)
      .every((line) => line.includes(';Rolle geändert;') && line.includes(';member.role.change;')),
  ).toBe(true);

  // The date filters show and take the German form, whatever the browser's language (issue 23 item 7).
  const from = page.getByRole('textbox', { name: 'Von' });
  await from.click();
  await page.keyboard.type('01012020');
  await page.keyboard.press('Tab');
  await expect(from).toHaveValue('01.01.2020');
});

test('an employee sees only the entries in which they act or are concerned', async ({ page, server }) => {
  await signIn(page, server, DEMO.employee.email, '/logs');
  await expect(h1(page, 'Protokoll')).toBeVisible();
  await expect(
    page.getByText('Sie sehen die Einträge, in denen Sie gehandelt haben oder betroffen sind.', {
      exact: false,
    }),
  ).toBeVisible();
  await expect(entryRows(page).first()).toBeVisible();
  // The demo history has between 50 and 100 entries about the employee: two pages.
  await expect(entryRows(page)).toHaveCount(50);
  await page.getByRole('button', { name: 'Weitere laden' }).click();
  await expect(page.getByRole('button', { name: 'Weitere laden' })).toBeHidden();
  expect(await entryRows(page).count()).toBeGreaterThan(50);
  for (const row of await entryRows(page).all()) {
    await expect(row).toContainText(DEMO.employee.name);
  }
});
