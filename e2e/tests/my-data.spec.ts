import fs from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { DEMO, DEMO_PASSWORD, expect, signIn, test } from '../fixtures.ts';

// The person's own data (issue 27, decisions 231 and 232), on the worker's server: newowner@ (owner of Neu Sàrl,
// whom no other journey reads the inbox of) asks for their data, downloads the ZIP once it is ready and opens it
// with the library that wrote it; the same page refuses to delete the only owner's login.
test('a person downloads their data as a ZIP that opens, and the only owner cannot delete the login', async ({
  page,
  server,
}) => {
  await signIn(page, server, DEMO.newowner.email, '/settings/users?tab=data');
  const card = page.getByRole('region', { name: 'Meine Daten herunterladen' });
  await card.getByLabel('Aktuelles Passwort').fill(DEMO_PASSWORD);
  await card.getByRole('button', { name: 'Daten zusammenstellen' }).click();
  await expect(card.getByText(/Eine neue Zusammenstellung ist ab .* möglich/)).toBeVisible();

  // The card asks again while the job prepares it; the button comes once it is ready.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'ZIP herunterladen' }).click({ timeout: 30_000 }),
  ]);
  expect(download.suggestedFilename()).toMatch(/^portal-data-\d{4}-\d\d-\d\d\.zip$/);
  const files = unzipSync(new Uint8Array(fs.readFileSync((await download.path())!)));
  expect(strFromU8(files['README.txt']!)).toContain('Ihre Daten im Portal');
  expect(JSON.parse(strFromU8(files['profile.json']!)).email).toBe(DEMO.newowner.email);
  const memberships = JSON.parse(strFromU8(files['memberships.json']!));
  expect(memberships.map((m: { accountName: string }) => m.accountName)).toEqual(['Neu Sàrl']);

  const deletion = page.getByRole('region', { name: 'Login löschen' });
  await expect(deletion.getByText('Sie sind Inhaber/in von «Neu Sàrl».', { exact: false })).toBeVisible();
  await expect(deletion.getByRole('link', { name: 'Inhaberschaft übertragen' })).toBeVisible();
  await expect(deletion.getByRole('button', { name: 'Login endgültig löschen' })).toHaveCount(0);
});
