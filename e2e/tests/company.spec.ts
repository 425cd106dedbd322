import type { Page } from '@playwright/test';
import { DEMO, expect, signIn, testOnOwnServer } from '../fixtures.ts';

// The company profile: an admin edits the details (a wrong UID is refused on its field, in German), uploads and
// replaces the logo; the owner schedules the account's deletion and the shell shows the date. Each journey changes
// Muster AG, so each gets a server and database of its own.
const test = testOnOwnServer;

const PATH = '/settings/company-profile';
// The smallest valid PNG (1×1 pixel).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const field = (page: Page, name: RegExp) => page.getByRole('textbox', { name });
const uid = (page: Page) => field(page, /^UID-Nummer/);

test('an admin edits the profile; a wrong UID shows the German error on the field', async ({ page, own }) => {
  await signIn(page, own, DEMO.admin.email, PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Firmenprofil' })).toBeVisible();
  await expect(field(page, /^Firmenname/)).toHaveValue('Muster AG');
  await expect(uid(page)).toHaveValue('CHE-123.456.788');
  await expect(page.getByRole('img', { name: 'Logo von Muster AG' })).toBeVisible();

  await uid(page).fill('CHE-123.456.789');
  await field(page, /^Ort/).fill('Winterthur');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Die UID-Nummer ist ungültig: Die Prüfziffer stimmt nicht')).toBeVisible();
  await expect(uid(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(uid(page)).toBeFocused();

  // Nestlé's UID, typed without separators: saved in its written form.
  await uid(page).fill('CHE105909036');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Das Firmenprofil wurde gespeichert.')).toBeVisible();
  await expect(uid(page)).toHaveValue('CHE-105.909.036');

  await page.reload();
  await expect(field(page, /^Ort/)).toHaveValue('Winterthur');
  await expect(uid(page)).toHaveValue('CHE-105.909.036');
});

test('an admin uploads a logo; an HTML file named .png is refused', async ({ page, own }) => {
  await signIn(page, own, DEMO.admin.email, PATH);
  const input = page.locator('input[type=file]');
  await expect(page.getByRole('img', { name: 'Logo von Muster AG' })).toBeVisible();

  await input.setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<html>Hallo</html>'),
  });
  await expect(page.getByText('Das Logo muss eine PNG-, JPEG- oder SVG-Datei sein')).toBeVisible();

  await input.setInputFiles({ name: 'neues-logo.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Das Logo wurde gespeichert.')).toBeVisible();
  const logo = page.getByRole('img', { name: 'Logo von Muster AG' });
  await expect(logo).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(page.getByText('Das Logo muss eine PNG-, JPEG- oder SVG-Datei sein')).toHaveCount(0);

  await page.getByRole('button', { name: 'Logo entfernen' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Logo entfernen' }).click();
  await expect(page.getByText('Noch kein Logo')).toBeVisible();
});

test('the owner schedules the deletion by typing the name; the shell shows the date; then cancels', async ({
  page,
  own,
}) => {
  await signIn(page, own, DEMO.owner.email, PATH);
  await page.getByRole('button', { name: 'Konto löschen …' }).click();
  const dialog = page.getByRole('dialog', { name: 'Konto «Muster AG» löschen?' });
  const schedule = dialog.getByRole('button', { name: 'Löschung planen' });
  await expect(schedule).toBeDisabled();
  await dialog.getByRole('textbox', { name: /Kontoname/ }).fill('Muster AG');
  await schedule.click();
  await expect(page.getByText('Das Konto «Muster AG» wird in 30 Tagen gelöscht.')).toBeVisible();

  const date = new Date(Date.now() + 30 * 24 * 3600 * 1000).toLocaleDateString('de-CH', {
    timeZone: 'Europe/Zurich',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
  await expect(page.getByText(`Dieses Konto wird nach dem ${date} gelöscht.`, { exact: true })).toBeVisible();
  await expect(page.getByText(/Dieses Konto wird nach dem .* gelöscht\. Bis dahin/)).toBeVisible();

  await page
    .getByRole('alert')
    .filter({ hasText: 'Bis dahin' })
    .getByRole('button', { name: 'Löschung abbrechen' })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Löschung abbrechen' }).click();
  await expect(page.getByText('Die Löschung wurde abgebrochen.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Konto löschen …' })).toBeVisible();
  await expect(page.getByText(`Dieses Konto wird nach dem ${date} gelöscht.`, { exact: true })).toHaveCount(
    0,
  );
});
