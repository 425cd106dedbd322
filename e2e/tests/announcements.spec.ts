import { DEMO, expect, signIn, testOnOwnServer, watchNetwork } from '../fixtures.ts';

// The provider's announcements (issue 26 item 1): portal-admin@ publishes a maintenance that has started, and
// owner@, signed in meanwhile in another browser, sees its bar and the inbox entry arrive live, then reads its text.
// It reaches every account, so it runs on a server of its own.
const test = testOnOwnServer;

/** An instant in Swiss time as German writes it in a date and time field: "27.11.2026 23:20". */
function typedSwissTime(instant: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Zurich',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day}.${parts.month}.${parts.year} ${parts.hour}:${parts.minute}`;
}

test('the admin publishes a maintenance; owner@ sees the bar and the inbox entry live', async ({
  browser,
  own,
}) => {
  const owner = await (await browser.newContext({ baseURL: own.url })).newPage();
  await signIn(owner, own, DEMO.owner.email, '/');
  await watchNetwork(owner).quiet();
  const badge = owner.getByTestId('inbox-badge');
  const unreadBefore = Number((await badge.textContent())?.match(/\d+/)?.[0] ?? 0);

  const admin = await (await browser.newContext({ baseURL: own.url })).newPage();
  await signIn(admin, own, DEMO.portalAdmin.email, '/provider/announcements');
  // The provider's own menu group, with its page.
  const nav = admin.getByRole('navigation', { name: 'Hauptnavigation' });
  await expect(
    nav.getByRole('list', { name: 'Anbieter' }).getByRole('link', { name: 'Ankündigungen' }),
  ).toBeVisible();
  await expect(admin.getByRole('link', { name: 'Wartung der Rechnungsstellung' })).toBeVisible();
  await admin.getByRole('link', { name: 'Neue Ankündigung' }).click();

  const title = `Wartung der Datenbank ${Date.now() % 100_000}`;
  await admin
    .getByRole('textbox', { name: /^Titel/ })
    .first()
    .fill(title);
  await admin.getByRole('textbox', { name: /^Text/ }).first().fill('Das Portal ist **kurz** langsamer.');
  // Started five minutes ago, in Swiss time, typed as German writes it: 27.11.2026 23:20.
  const start = typedSwissTime(Date.now() - 5 * 60_000);
  await admin.getByRole('textbox', { name: /^Beginn/ }).fill(start);
  await admin.getByRole('button', { name: 'Veröffentlichen' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Ankündigung veröffentlichen?' });
  await dialog.getByRole('button', { name: 'Veröffentlichen' }).click();
  await expect(admin.getByText('Ankündigung veröffentlicht.')).toBeVisible();
  await expect(admin.getByText('Veröffentlicht', { exact: true })).toBeVisible();

  // owner@ did nothing: the bar and the badge follow the live stream.
  const bar = owner.getByRole('alert').filter({ hasText: title });
  await expect(bar).toContainText('Wartung:');
  await expect(badge).toContainText(String(unreadBefore + 1));
  await bar.getByRole('link', { name: 'Mehr lesen' }).click();
  await expect(owner.getByRole('heading', { level: 2, name: `Wartung: ${title}` })).toBeVisible();
  await expect(owner.locator('strong', { hasText: 'kurz' })).toBeVisible();
  // Closed, it stays closed after a reload.
  await owner.getByRole('button', { name: `Hinweis «${title}» ausblenden` }).click();
  await expect(bar).toHaveCount(0);
  await owner.reload();
  await expect(owner.getByRole('heading', { level: 2, name: `Wartung: ${title}` })).toBeVisible();
  await expect(owner.getByRole('alert').filter({ hasText: title })).toHaveCount(0);
  // Contexts of its own are closed by the test: left open, they went on polling the next test's server.
  await owner.context().close();
  await admin.context().close();
});
