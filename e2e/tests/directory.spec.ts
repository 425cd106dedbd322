import { DEMO, DEMO_ACCOUNTS, expect, signIn, test } from '../fixtures.ts';

// The account directory: an agent finds a customer's account by its UID and reads its summary without opening it.

test('an agent finds Muster AG by its UID, typed with spaces, and sees its summary', async ({
  page,
  server,
}) => {
  await signIn(page, server, DEMO.agent.email, '/accounts/directory');
  await expect(page.getByRole('heading', { level: 1, name: 'Kontoverzeichnis' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Kontoverzeichnis' }),
  ).toBeVisible();

  await page.getByRole('searchbox', { name: 'Konto suchen' }).fill('che 123 456 788');
  await page.getByRole('button', { name: 'Suchen' }).click();
  await expect(page).toHaveURL(/\/accounts\/directory\?q=che\+123\+456\+788$/);
  const hits = page.getByRole('list', { name: 'Gefundene Konten' }).getByRole('listitem');
  await expect(hits).toHaveCount(1);
  const hit = hits.first();
  await expect(hit.getByRole('heading', { name: DEMO_ACCOUNTS.muster.name })).toBeVisible();
  await expect(hit.getByText('CHE-123.456.788 · Schweiz')).toBeVisible();
  await expect(hit.getByText('Gefunden über die UID')).toBeVisible();
  await expect(hit.getByText(DEMO.owner.email)).toBeVisible();
  // An agent answers customers: the owner's address, but no amounts (those are billing staff's).
  await expect(hit.getByText(/CHF/)).toHaveCount(0);
  // The customer allows support in on an open ticket: the account opens with the guard's rules.
  await expect(hit.getByRole('link', { name: `Konto ${DEMO_ACCOUNTS.muster.name} öffnen` })).toHaveAttribute(
    'href',
    `/?uuid=${DEMO_ACCOUNTS.muster.uuid}`,
  );
});
