import { DEMO, DEMO_ACCOUNTS, callApi, expect, signIn, testOnOwnServer } from '../fixtures.ts';

// Lesson authoring (issue 26 item 2): teacher@ lands on the courses, edits a lesson in German and Italian beside
// the preview and publishes it; owner@, in a browser of their own and reading Italian, reads the new text. It
// changes the course every account reads, so it runs on a server of its own.
const test = testOnOwnServer;

test('the teacher edits a lesson in German and Italian and publishes; owner@ reads it in Italian', async ({
  browser,
  own,
}) => {
  const teacher = await (await browser.newContext({ baseURL: own.url })).newPage();
  await signIn(teacher, own, DEMO.teacher.email, '/');
  // A teacher has no account: the courses are where they work.
  await teacher.waitForURL(`${own.url}/provider/lessons`);
  await expect(teacher.getByRole('heading', { level: 1, name: 'Kurse und Lektionen' })).toBeVisible();
  await teacher.getByRole('link', { name: 'Konten und Mitglieder' }).click();
  await expect(teacher.getByRole('heading', { level: 1, name: 'Lektion bearbeiten' })).toBeVisible();

  const panel = (name: string) => teacher.getByRole('tabpanel', { name });
  await panel('Deutsch *').getByLabel('Titel').fill('Konten, Mitglieder und Rollen');
  await teacher.getByRole('tab', { name: 'Italienisch' }).click();
  await panel('Italienisch').getByLabel('Titel').fill('Account, membri e ruoli');
  await panel('Italienisch')
    .getByLabel('Text (Markdown)')
    .fill('Un **account** è la sua azienda nel portale.\n\n## Testo nuovo\n\nScritto dal docente.');
  // The preview renders as the lesson page will: Markdown to headings and bold text.
  const preview = teacher.getByRole('region', { name: 'Vorschau' });
  await expect(preview.getByRole('heading', { level: 3, name: 'Testo nuovo' })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('account');

  await teacher.getByRole('button', { name: 'Veröffentlichen' }).click();
  await teacher.getByRole('dialog').getByRole('button', { name: 'Veröffentlichen' }).click();
  await expect(teacher.getByText('Version 2, veröffentlicht am')).toBeVisible();

  // owner@ reads Italian (their own setting) in a browser of their own.
  const owner = await (await browser.newContext({ baseURL: own.url })).newPage();
  await signIn(owner, own, DEMO.owner.email, '/');
  expect(await callApi(owner, 'PATCH', '/api/users/v1/me', { language: 'it' })).toBe(200);
  await owner.goto(`/ncr/lesson/${DEMO_ACCOUNTS.muster.uuid}`);
  await owner.getByRole('link', { name: /Account, membri e ruoli/ }).click();
  await expect(owner.getByRole('heading', { level: 2, name: 'Account, membri e ruoli' })).toBeVisible();
  await expect(owner.getByRole('heading', { level: 3, name: 'Testo nuovo' })).toBeVisible();
  await expect(owner.getByText('Scritto dal docente.')).toBeVisible();
  // Contexts of its own are closed by the test: left open, they went on polling the next test's server.
  await owner.context().close();
  await teacher.context().close();
});
