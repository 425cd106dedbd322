import type { Page } from '@playwright/test';
import {
  DEMO,
  expect,
  expectLoginPage,
  fillLogin,
  signIn,
  testOnOwnServer,
  test as readOnly,
} from '../fixtures.ts';

// The user's own name and the sign-in service. The rename journey changes admin@'s name, so it gets a server and
// database of its own; the sign-in pages' journey changes nothing and uses the worker's.
const test = testOnOwnServer;

const nameField = (page: Page) => page.getByRole('textbox', { name: 'Name', exact: true });

test('a name changed in "Mein Profil" stays after a reload and on the next sign-in', async ({
  browser,
  page,
  own,
}) => {
  await signIn(page, own, DEMO.admin.email, '/settings/users');
  await expect(nameField(page)).toHaveValue(DEMO.admin.name);
  await nameField(page).fill('Adriana Admin-Neu');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Ihr Profil wurde gespeichert.')).toBeVisible();

  await page.reload();
  await expect(nameField(page)).toHaveValue('Adriana Admin-Neu');
  await expect(page.getByRole('button', { name: 'Benutzermenü von Adriana Admin-Neu' })).toBeVisible();

  // Another browser signs in afresh: the sign-in service gives the new name too.
  const other = await browser.newPage();
  try {
    await signIn(other, own, DEMO.admin.email, '/settings/users');
    await expect(nameField(other)).toHaveValue('Adriana Admin-Neu');
  } finally {
    await other.close();
  }
});

readOnly(
  'the sign-in pages load without a failed request; another host than PUBLIC_URL gets a page linking it',
  async ({ page, server: own }) => {
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto('/');
    await expectLoginPage(page, own);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute(
      'href',
      '/realms/portal/resources/favicon.svg',
    );
    await fillLogin(page, DEMO.owner.email);
    await expect(
      page.getByRole('heading', { level: 1, name: `Willkommen, ${DEMO.owner.name}` }),
    ).toBeVisible();
    expect(failed).toEqual([]);

    // PUBLIC_URL names 127.0.0.1; the same server at localhost cannot be signed in to.
    await page.goto(own.url.replace('127.0.0.1', 'localhost'));
    await expect(
      page.getByRole('heading', { level: 1, name: 'Bitte andere Adresse verwenden' }),
    ).toBeVisible();
    await page.getByRole('link', { name: `${own.url} öffnen` }).click();
    await page.waitForURL(`${own.url}/`);
    await expect(
      page.getByRole('heading', { level: 1, name: `Willkommen, ${DEMO.owner.name}` }),
    ).toBeVisible();
  },
);
