import { DEMO, expect, signIn, testOnOwnServer } from '../fixtures.ts';

// Support, the customer's side: an employee opens a ticket with an attachment, sees its number on the
// confirmation and finds it in the list and its conversation; a file the picker cannot take is refused before
// anything is sent. The journey adds a ticket to Muster AG, so it gets a server and database of its own.
const test = testOnOwnServer;

test('an employee opens a ticket with an attachment and finds it by its number', async ({ page, own }) => {
  await signIn(page, own, DEMO.employee.email, '/support');
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  await page.getByRole('link', { name: 'Anfrage zu «Technisches Problem» stellen' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Anfrage erstellen' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Kategorie/ })).toHaveText('Technisches Problem');

  // Nothing filled in: the fields say what is missing, nothing is sent.
  await page.getByRole('button', { name: 'Anfrage senden' }).click();
  await expect(page.getByRole('textbox', { name: /^Betreff/ })).toHaveAttribute('aria-invalid', 'true');

  await page.getByRole('textbox', { name: /^Betreff/ }).fill('Import der Kundendaten schlägt fehl');
  await page
    .getByRole('textbox', { name: /^Beschreibung/ })
    .fill('Beim Import der CSV-Datei erscheint «Ungültiges Format». Die Datei hängt an.');
  const input = page.locator('input[type=file]');
  await input.setInputFiles({
    name: 'setup.exe',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('MZ'),
  });
  await expect(page.getByText('«setup.exe» ist keine PDF-, PNG-, JPEG-, TXT- oder CSV-Datei.')).toBeVisible();
  await input.setInputFiles({
    name: 'kunden.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Name;Ort\nMuster AG;Zürich\n'),
  });
  const chosen = page.getByRole('list', { name: 'Ausgewählte Dateien' });
  await expect(chosen.getByText('kunden.csv')).toBeVisible();
  await expect(page.getByText('«setup.exe» ist keine')).toBeHidden();
  await page.getByRole('checkbox', { name: /Support-Mitarbeitende dürfen mein Konto öffnen/ }).check();
  await page.getByRole('button', { name: 'Anfrage senden' }).click();

  const number = page.getByTestId('ticket-number');
  await expect(number).toHaveText(/^Ihre Anfrage Nr\. \d{5,} ist eingegangen\.$/);
  const ticketNumber = /Nr\. (\d+)/.exec((await number.textContent()) ?? '')![1]!;

  await page.getByRole('link', { name: 'Alle Anfragen' }).click();
  const row = page.getByRole('row', { name: new RegExp(`^${ticketNumber} `) });
  await expect(row).toContainText('Import der Kundendaten schlägt fehl');
  await expect(row).toContainText('Offen');

  await row.getByRole('link', { name: 'Import der Kundendaten schlägt fehl' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Import der Kundendaten schlägt fehl' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /kunden\.csv herunterladen/ })).toBeVisible();
  // The consent given with the ticket: said on its page, with the way to end it.
  const access = page.getByRole('region', { name: 'Zugriff des Supports' });
  await expect(access).toContainText('Der Support hat Zugriff auf Ihr Konto, bis die Anfrage gelöst ist.');
  await expect(access.getByRole('button', { name: 'Zugriff beenden' })).toBeVisible();

  // A direct visit of the confirmation shows no number.
  await page.goto('/support/ticket/success');
  await expect(page.getByRole('heading', { name: 'Vielen Dank für Ihre Anfrage.' })).toBeVisible();
  await expect(page.getByTestId('ticket-number')).toHaveCount(0);
});
