import type { Page } from '@playwright/test';
import { DEMO, DEMO_ACCOUNTS, expect, signIn, test } from '../fixtures.ts';

// The account in use: switching, the list of accounts, the deletion toolbar.

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const accountSwitcher = (page: Page) => page.getByRole('button', { name: 'Konto wechseln' });

test('switching account reloads the root with ?uuid= and a new tab opens in it', async ({ page, server }) => {
  const { muster, beispiel } = DEMO_ACCOUNTS;
  await signIn(page, server, DEMO.owner.email, '/inbox');
  await expect(h1(page, 'Posteingang')).toBeVisible();
  // The owner's own account is the default.
  await expect(accountSwitcher(page)).toHaveText(/Muster AG.*Inhaber/);
  expect(await page.evaluate(() => sessionStorage.getItem('accountUuid'))).toBe(muster.uuid);

  await accountSwitcher(page).click();
  await page.getByRole('menuitem', { name: /Beispiel GmbH/ }).click();
  await page.waitForURL(`${server.url}/?uuid=${beispiel.uuid}`);
  await expect(h1(page, `Willkommen, ${DEMO.owner.name}`)).toBeVisible();
  await expect(accountSwitcher(page)).toHaveText(/Beispiel GmbH.*Mitarbeiter/);
  expect(await page.evaluate(() => localStorage.getItem('accountUuid'))).toBe(beispiel.uuid);

  // A new tab has no sessionStorage of its own: it signs in silently and opens the last-used account.
  const tab = await page.context().newPage();
  await tab.goto('/');
  await expect(h1(tab, `Willkommen, ${DEMO.owner.name}`)).toBeVisible();
  await expect(accountSwitcher(tab)).toHaveText(/Beispiel GmbH.*Mitarbeiter/);
});

test('the accounts page lists every account with role and invitation state', async ({ page, server }) => {
  await signIn(page, server, DEMO.employee.email, '/accounts');
  await expect(h1(page, 'Konten')).toBeVisible();
  const list = page.getByRole('list', { name: 'Konten' });
  const items = list.getByRole('listitem');
  await expect(items).toHaveCount(2);
  const muster = items.filter({ hasText: DEMO_ACCOUNTS.muster.name });
  await expect(muster).toContainText('Ihre Rolle: Mitarbeiter');
  const beispiel = items.filter({ hasText: DEMO_ACCOUNTS.beispiel.name });
  await expect(beispiel).toContainText('Einladung offen');
  await expect(beispiel.getByRole('link', { name: 'Einladung beantworten' })).toBeVisible();
});

test('inhaber@ sees the deletion toolbar in French and cancels the deletion', async ({ page, server }) => {
  // This journey cancels Beispiel GmbH's scheduled deletion on the shared server: no other journey may rely on it.
  const { beispiel } = DEMO_ACCOUNTS;
  await signIn(page, server, DEMO.inhaber.email);
  await expect(h1(page, `Bienvenue, ${DEMO.inhaber.name}`)).toBeVisible();

  // The date the server holds, as the portal formats it for fr (fr-CH, long).
  const expected = await page.evaluate(async (id) => {
    const response = await fetch(`/api/accounts/v1/accounts/${id}`, {
      headers: { Authorization: `Bearer ${sessionStorage.getItem('kc-token')}` },
    });
    const { data } = (await response.json()) as { data: { availableUntil: string } };
    const date = new Intl.DateTimeFormat('fr-CH', { dateStyle: 'long' }).format(
      new Date(data.availableUntil),
    );
    return `Ce compte sera supprimé après le ${date}.`;
  }, beispiel.uuid);
  await expect(page.getByText(expected)).toBeVisible();

  await page.getByRole('button', { name: 'Annuler la suppression' }).click();
  const dialog = page.getByRole('dialog', { name: 'Annuler la suppression ?' });
  await expect(dialog).toContainText(`Le compte « ${beispiel.name} » est conservé`);
  await dialog.getByRole('button', { name: 'Annuler la suppression' }).click();
  await expect(page.getByText('La suppression a été annulée.')).toBeVisible();
  await expect(page.getByText(expected)).toHaveCount(0);

  await page.reload();
  await expect(h1(page, `Bienvenue, ${DEMO.inhaber.name}`)).toBeVisible();
  await expect(page.getByText(/Ce compte sera supprimé/)).toHaveCount(0);
});
