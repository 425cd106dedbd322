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
// customer and writes an internal note — and the customer sees the reply but never the note; solving the request
// ends the customer's consent to open their account, and only the customer gives it again (decision 195). The
// journeys change the demo tickets, so each gets a server and database of its own.
const test = testOnOwnServer;

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const SUBJECT = 'CSV-Export des Protokolls bricht ab';
/** Muster AG's open request, whose creator (admin@) allows support into the account. */
const CSV_TICKET = '6f1c2b1e-0005-4000-8000-000000000002';

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
  // One unread already: the demo's maintenance announcement.
  await expect(badge).toHaveText('2');

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
  await expect(h1(page, /Nr\. \d+ · CSV-Export des Protokolls bricht ab/)).toBeVisible();
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
  await expect(admin.getByTestId('notification-row').first()).toContainText(
    /Anfrage Nr\. \d+ wartet auf Sie/,
  );
  await expect(badge).toHaveText('3');
  await expect(admin).toHaveTitle(/^\(3\) Posteingang/);

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
  await expect(badge).toHaveText('3');
  await admin.getByRole('link', { name: /Anfrage Nr\. \d+ wartet auf Sie/ }).click();
  await expect(admin.getByRole('link', { name: 'Anfrage öffnen' })).toBeVisible();
  await admin.getByRole('link', { name: 'Anfrage öffnen' }).click();
  await expect(admin).toHaveURL(/\/support\/tickets\//);
  await expect(admin.getByText('Der Fehler ist behoben.')).toBeVisible();
  await expect(admin.getByRole('button', { name: /anleitung\.txt/ })).toBeVisible();
  await expect(admin.getByText('Proxy-Timeout')).toHaveCount(0);
  await customer.close();
});

test('an agent who solved the ticket gets the refusal when opening the account, also after setting it open again', async ({
  page,
  own,
}) => {
  // Two people, two sign-ins and a look at the log.
  const muster = DEMO_ACCOUNTS.muster.uuid;
  const refused = async () => {
    await page.goto(`/?uuid=${muster}`);
    await page.waitForURL((url) => url.pathname === '/accounts');
    await expect(page.getByRole('textbox', { name: 'Konto-ID' })).toHaveValue(muster);
    await expect(page.getByText(/Dieses Konto können Sie nicht öffnen/)).toBeVisible();
  };

  await signIn(page, own, DEMO.agent.email, `/support/queue/${CSV_TICKET}`);
  await expect(h1(page, /Nr\. \d+ · CSV-Export des Protokolls bricht ab/)).toBeVisible();
  const details = page.getByRole('complementary', { name: 'Angaben' });
  const openAccount = details.getByRole('link', { name: 'Kundenkonto öffnen' });
  await expect(openAccount).toBeVisible();
  const setStatus = async (label: string) => {
    await details.getByRole('combobox', { name: 'Status ändern' }).click();
    await page.getByRole('option', { name: label }).click();
    // The first "Übernehmen" applies the status (the second the owner).
    await details.getByRole('button', { name: 'Übernehmen' }).first().click();
    await expect(page.getByText('Der Status wurde geändert.')).toBeVisible();
    await expect(details.getByRole('combobox', { name: 'Status ändern' })).toHaveText(label);
  };

  // Solving ends the customer's consent; setting the ticket open again does not bring it back.
  await setStatus('Gelöst');
  await expect(openAccount).toHaveCount(0);
  await setStatus('Offen');
  await expect(openAccount).toHaveCount(0);
  await expect(details.getByText(/Der Kunde hat für diese Anfrage keinen Zugriff/)).toBeVisible();
  await refused();

  // Only the customer allows it again, on their ticket page, and ends it when they like.
  const customer = await page.context().browser()!.newContext({ locale: 'de-DE', baseURL: own.url });
  const admin = await customer.newPage();
  await signIn(admin, own, DEMO.admin.email, `/support/tickets/${CSV_TICKET}`);
  const access = admin.getByRole('region', { name: 'Zugriff des Supports' });
  await expect(access).toContainText('Der Support hat keinen Zugriff auf Ihr Konto.');
  await access.getByRole('button', { name: 'Zugriff erlauben' }).click();
  await expect(access).toContainText('Der Support hat Zugriff auf Ihr Konto, bis die Anfrage gelöst ist.');

  await page.goto(`/?uuid=${muster}`);
  await expect(h1(page, `Willkommen, ${DEMO.agent.name}`)).toBeVisible();

  await access.getByRole('button', { name: 'Zugriff beenden' }).click();
  await expect(access.getByRole('button', { name: 'Zugriff erlauben' })).toBeVisible();
  await refused();

  // Every grant and end is in the customer's log.
  await admin
    .getByRole('navigation', { name: 'Hauptnavigation' })
    .getByRole('link', { name: 'Protokoll' })
    .click();
  await expect(h1(admin, 'Protokoll')).toBeVisible();
  const rows = admin.getByRole('table', { name: 'Protokoll' }).locator('tbody > tr:has(time)');
  const only = async (action: string, count: number) => {
    await admin.getByRole('combobox', { name: 'Aktion' }).click();
    await admin.getByRole('option', { name: action, exact: true }).click();
    await expect(rows.filter({ hasNotText: action })).toHaveCount(0);
    await expect(rows).toHaveCount(count);
  };
  await only('Zugriff des Supports erlaubt', 1);
  // The agent's solving and the customer's own end.
  await only('Zugriff des Supports beendet', 2);
  await expect(rows.filter({ hasText: DEMO.agent.name })).toHaveCount(1);
  await expect(rows.filter({ hasText: DEMO.admin.name })).toHaveCount(1);
  await customer.close();
});
