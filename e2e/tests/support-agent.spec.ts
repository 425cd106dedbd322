import type { Page } from '@playwright/test';
import {
  DEMO,
  DEMO_ACCOUNTS,
  expect,
  expectAccessibleInBothThemes,
  signIn,
  testOnOwnServer,
} from '../fixtures.ts';

// The agents' side of support: the demo agent works Muster AG's open request from the queue — replies to the
// customer and writes an internal note — and the customer sees the reply but never the note. The journey changes
// the demo tickets, so it gets a server and database of its own.
const test = testOnOwnServer;
test.setTimeout(90_000);

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const SUBJECT = 'CSV-Export des Protokolls bricht ab';

test('the agent replies from the queue and writes an internal note the customer never sees', async ({
  page,
  own,
}) => {
  // The customer (the ticket's creator) keeps the inbox open in a browser of their own the whole time.
  const customer = await page.context().browser()!.newContext({ locale: 'de-DE', baseURL: own.url });
  const admin = await customer.newPage();
  await signIn(admin, own, DEMO.admin.email, `/inbox?uuid=${DEMO_ACCOUNTS.muster.uuid}`);
  await expect(h1(admin, 'Posteingang')).toBeVisible();
  const badge = admin.getByTestId('inbox-badge').locator('.MuiBadge-badge');
  await expect(badge).toHaveText('1');

  await signIn(page, own, DEMO.agent.email, '/');
  await page
    .getByRole('navigation', { name: 'Hauptnavigation' })
    .getByRole('link', { name: 'Support-Warteschlange' })
    .click();
  await expect(h1(page, 'Support-Warteschlange')).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(SUBJECT) });
  await expect(row).toContainText('Muster AG');
  await expect(row).toContainText('Hoch');

  // Filters narrow the queue and live in the address.
  await page.getByRole('combobox', { name: 'Dringlichkeit' }).click();
  await page.getByRole('option', { name: 'Kritisch' }).click();
  await expect(page.getByText('Keine Anfrage passt zu diesen Filtern.')).toBeVisible();
  expect(new URL(page.url()).search).toBe('?severity=CRITICAL');
  await page.getByRole('combobox', { name: 'Dringlichkeit' }).click();
  await page.getByRole('option', { name: 'Alle' }).click();

  await row.getByRole('link', { name: SUBJECT }).click();
  await expect(h1(page, /#\d+ CSV-Export des Protokolls bricht ab/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Kundenkonto öffnen' })).toBeVisible();

  // The reply, answered and waiting for the customer.
  await page
    .getByRole('textbox', { name: 'Antwort' })
    .fill('Der Fehler ist behoben. Bitte versuchen Sie es erneut.');
  // With a file, picked as the customer picks theirs.
  await page.locator('input[type=file]').setInputFiles({
    name: 'anleitung.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Schritt 1: erneut exportieren'),
  });
  await expect(page.getByRole('list', { name: 'Ausgewählte Dateien' })).toContainText('anleitung.txt');
  await page.getByRole('button', { name: 'Antwort senden' }).click();
  await expect(page.getByText('Die Antwort wurde gesendet.')).toBeVisible();
  const details = page.getByRole('complementary', { name: 'Angaben' });
  await expect(details.getByRole('combobox', { name: 'Status ändern' })).toHaveText('Wartet auf Kunde');
  const answer = page.getByRole('listitem', { name: `Antwort von ${DEMO.agent.name} (Support)` }).last();
  await expect(answer).toContainText('Der Fehler ist behoben.');
  await expect(answer).toContainText('anleitung.txt');

  // The answer reaches the customer's open inbox without a reload, and the badge counts it.
  await expect(admin.getByTestId('notification-row').first()).toContainText(/Anfrage #\d+ wartet auf Sie/);
  await expect(badge).toHaveText('2');
  await expect(admin).toHaveTitle(/^\(2\) Posteingang/);

  // The internal note, marked in words.
  await page.getByRole('button', { name: 'Interne Notiz' }).click();
  await page.getByRole('textbox', { name: 'Interne Notiz' }).fill('Ursache: Proxy-Timeout, Ticket INFRA-42.');
  await page.getByRole('button', { name: 'Notiz speichern' }).click();
  await expect(page.getByText('Die interne Notiz wurde gespeichert.')).toBeVisible();
  const note = page.getByRole('listitem', {
    name: `Interne Notiz von ${DEMO.agent.name}, nur für den Support sichtbar`,
  });
  await expect(note).toContainText('Ursache: Proxy-Timeout');
  await expect(note).toContainText('Interne Notiz – nur für den Support');
  // The note's look passes axe too (the demo data has no note for the theme checks of a11y.spec.ts).
  await expectAccessibleInBothThemes(page);

  // The customer follows the notification to the ticket and reads the reply, not the note; the inbox's internal
  // note produced no second notification.
  await expect(badge).toHaveText('2');
  await admin.getByRole('link', { name: /Anfrage #\d+ wartet auf Sie/ }).click();
  await expect(admin.getByRole('link', { name: 'Anfrage öffnen' })).toBeVisible();
  await admin.getByRole('link', { name: 'Anfrage öffnen' }).click();
  await expect(admin).toHaveURL(/\/support\/tickets\//);
  await expect(admin.getByText('Der Fehler ist behoben.')).toBeVisible();
  await expect(admin.getByRole('button', { name: /anleitung\.txt/ })).toBeVisible();
  await expect(admin.getByText('Proxy-Timeout')).toHaveCount(0);
  await customer.close();
});
