import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { DEMO, expect, signIn, test as shared, testOnOwnServer } from '../fixtures.ts';

// The shop configuration: an admin connects a shop (a tiny shop API this test starts on 127.0.0.1, reachable
// because the journey's server runs with demo data), tests the connection, saves, syncs and sees the counts; a
// wrong address gets its German error on the field; an employee cannot reach the page.
const test = testOnOwnServer;

const PATH = '/peppershop/config';
const KEY = 'journey-shop-key-5678';

/** A shop API with 3 products, 2 orders and 1 customer, answering only to KEY. */
async function startShop(): Promise<{ url: string; stop: () => Promise<void> }> {
  const records: Record<string, { id: string }[]> = {
    products: [{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }],
    orders: [{ id: 'o1' }, { id: 'o2' }],
    customers: [{ id: 'c1' }],
  };
  const server = http.createServer((request, response) => {
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${KEY}`) return json(401, {});
    const path = new URL(request.url ?? '/', 'http://shop').pathname;
    if (path === '/api/v1/shop') return json(200, { name: 'Journey Shop' });
    const kind = /^\/api\/v1\/(products|orders|customers)$/.exec(path)?.[1];
    if (!kind) return json(404, {});
    json(200, { items: records[kind], nextCursor: null });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const urlField = (page: Page) => page.getByRole('textbox', { name: /^Shop-Adresse/ });
const keyField = (page: Page) => page.getByLabel(/^API-Schlüssel/);
const count = (page: Page, kind: string) => page.getByTestId(`shop-${kind}`);

test('an admin connects a shop, tests it, saves, syncs and sees the counts; then disconnects', async ({
  page,
  own,
}) => {
  const shop = await startShop();
  try {
    await signIn(page, own, DEMO.admin.email, PATH);
    await expect(h1(page, 'Shop-Konfiguration')).toBeVisible();
    // The demo connection: its key only as its last four characters, its records counted.
    await expect(urlField(page)).toHaveValue('https://shop.muster-ag.example');
    await expect(page.getByText('Gespeichert: ••••7421. Leer lassen, um ihn zu behalten.')).toBeVisible();
    await expect(count(page, 'products')).toHaveText('128');

    // An address that is none: the German error on the field, nothing saved.
    await urlField(page).fill('shop ohne adresse');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(
      page.getByText('Bitte geben Sie eine vollständige Adresse ein, z. B. https://shop.example.ch.'),
    ).toBeVisible();
    await expect(urlField(page)).toHaveAttribute('aria-invalid', 'true');

    await urlField(page).fill(shop.url);
    await keyField(page).fill('a-wrong-key-0000');
    await page.getByRole('button', { name: 'Verbindung testen' }).click();
    await expect(page.getByTestId('shop-test-result')).toHaveText(
      'Der Shop hat den API-Schlüssel abgelehnt. Prüfen Sie den Schlüssel.',
    );
    await keyField(page).fill(KEY);
    await page.getByRole('button', { name: 'Verbindung testen' }).click();
    await expect(page.getByTestId('shop-test-result')).toHaveText(
      'Die Verbindung funktioniert: «Journey Shop» hat geantwortet.',
    );
    await page.getByRole('checkbox', { name: 'Kunden' }).uncheck();
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Shop-Verbindung gespeichert')).toBeVisible();
    await expect(page.getByText('Gespeichert: ••••5678. Leer lassen, um ihn zu behalten.')).toBeVisible();
    await expect(keyField(page)).toHaveValue('');

    await page.getByRole('button', { name: 'Jetzt synchronisieren' }).click();
    // The sync runs on the server's jobs runner; the page reads its state again until it has ended.
    await expect(page.getByTestId('shop-sync-status')).toHaveText('Erfolgreich', { timeout: 20_000 });
    await expect(count(page, 'products')).toHaveText('3');
    await expect(count(page, 'orders')).toHaveText('2');
    // Customers were not chosen; the demo shop's records went with its address.
    await expect(count(page, 'customers')).toHaveText('0');

    await page.reload();
    await expect(urlField(page)).toHaveValue(shop.url);
    await expect(page.getByRole('checkbox', { name: 'Kunden' })).not.toBeChecked();

    await page.getByRole('button', { name: 'Verbindung trennen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Shop-Verbindung trennen?' });
    await dialog.getByRole('button', { name: 'Verbindung trennen' }).click();
    await expect(page.getByText('Shop-Verbindung getrennt')).toBeVisible();
    await expect(urlField(page)).toHaveValue('');
    await expect(page.getByText('Übernommene Datensätze')).toHaveCount(0);
  } finally {
    await shop.stop();
  }
});

shared(
  'an employee cannot reach the shop configuration (the API refusal is tested on the server)',
  async ({ page, server }) => {
    await signIn(page, server, DEMO.employee.email, PATH);
    await page.waitForURL(`${server.url}/`);
    await expect(h1(page, `Willkommen, ${DEMO.employee.name}`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Shop-Konfiguration' })).toHaveCount(0);
  },
);
