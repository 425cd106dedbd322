import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO, DEMO_ACCOUNTS, expect, signIn, test, watchNetwork } from '../fixtures.ts';

// AbaClik pairing as a member does it: the page shows a code, the journey plays the app (it reads the code from the
// page and calls the app's API), the device appears, reports in, is revoked, and the app is refused from then on.

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

const heartbeat = (request: APIRequestContext, url: string, token: string) =>
  request.post(`${url}/api/abaclik/v1/app/heartbeat`, {
    headers: { authorization: `Bearer ${token}` },
    data: { appVersion: '3.5.0' },
  });

test('a member pairs their phone, it reports in, they revoke it and the app is refused', async ({
  page,
  server,
  request,
}) => {
  await signIn(page, server, DEMO.employee.email, '/abaclik');
  await expect(h1(page, 'AbaClik')).toBeVisible();
  const devices = page.getByRole('table', { name: 'Meine Geräte' });
  await expect(devices.getByRole('row', { name: /Galaxy A54/ })).toBeVisible();
  // A member sees their own devices only: no choice of every member's, no admin's phone.
  await expect(page.getByRole('tab', { name: 'Alle Geräte' })).toHaveCount(0);
  await expect(devices.getByText('Pixel 8')).toHaveCount(0);

  await page.getByRole('button', { name: 'Gerät koppeln' }).click();
  const dialog = page.getByRole('dialog', { name: 'Smartphone mit AbaClik koppeln' });
  await expect(dialog.getByRole('img', { name: 'QR-Code zum Koppeln mit AbaClik' })).toBeVisible();
  await expect(dialog.getByRole('timer')).toHaveText(/Noch (10:00|9:\d\d) Minuten gültig/);
  await expect(dialog.getByText('Warten auf die App …')).toBeVisible();
  const code = (await dialog.getByTestId('activation-code').textContent())!;
  expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);

  // The app exchanges the code: no portal sign-in, no cookie, no XSRF header.
  const exchange = await request.post(`${server.url}/api/abaclik/v1/app/pairings`, {
    data: { code, deviceName: 'Emmas iPhone', platform: 'IOS', appVersion: '3.4.1' },
  });
  expect(exchange.status()).toBe(201);
  const pairing = await exchange.json();
  expect(pairing.account).toEqual({ uuid: DEMO_ACCOUNTS.muster.uuid, name: DEMO_ACCOUNTS.muster.name });

  await expect(dialog.getByText('«Emmas iPhone» ist jetzt gekoppelt')).toBeVisible();
  await dialog.getByRole('button', { name: 'Fertig' }).click();
  await expect(dialog).toHaveCount(0);
  const row = devices.getByRole('row', { name: /Emmas iPhone/ });
  await expect(row).toContainText('iOS');
  await expect(row).toContainText('3.4.1');
  // The code was used: a second exchange is refused.
  const again = await request.post(`${server.url}/api/abaclik/v1/app/pairings`, {
    data: { code, deviceName: 'Someone else', platform: 'ANDROID', appVersion: '1.0.0' },
  });
  expect(again.status()).toBe(401);

  // The app reports in: the list shows the version it reported.
  expect((await heartbeat(request, server.url, pairing.token)).status()).toBe(200);
  const network = watchNetwork(page);
  await page.reload();
  await network.quiet();
  await expect(row).toContainText('3.5.0');

  await page.getByRole('button', { name: '«Emmas iPhone» entkoppeln' }).click();
  const confirm = page.getByRole('dialog', { name: 'Gerät entkoppeln?' });
  await expect(confirm).toContainText('«Emmas iPhone» kann danach keine Zeiten mehr an dieses Konto senden.');
  await confirm.getByRole('button', { name: 'Entkoppeln' }).click();
  await expect(page.getByText('«Emmas iPhone» ist entkoppelt.')).toBeVisible();
  await expect(row).toHaveCount(0);

  const refused = await heartbeat(request, server.url, pairing.token);
  expect(refused.status()).toBe(401);
});

test('an admin sees every member’s devices with the person', async ({ page, server }) => {
  await signIn(page, server, DEMO.admin.email, '/abaclik');
  await expect(h1(page, 'AbaClik')).toBeVisible();
  await page.getByRole('tab', { name: 'Alle Geräte' }).click();
  const all = page.getByRole('table', { name: 'Alle Geräte' });
  await expect(all.getByRole('row', { name: /Galaxy A54.*Emma Employee/ })).toBeVisible();
  await expect(all.getByRole('row', { name: /Pixel 8.*Adrian Admin \(Sie\)/ })).toBeVisible();
});
