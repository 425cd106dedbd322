import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { TEST_SECRETS_KEYS, describeApi, type TestApi } from '../../test/api.ts';
import { StandInShop } from '../../test/stand-in-shop.ts';
import { createSecrets, parseSecretsKeys } from '../../secrets/secrets.ts';
import { queueDueSyncs, runShopSyncJob } from './peppershop-sync.ts';
import { resealStaleKeys, type ShopDeps } from './peppershop.service.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const BEISPIEL = DEMO_ACCOUNTS.beispiel;
const base = (account: string) => `/api/accounts/${account}/shop/v1/connection`;
const KEY = StandInShop.KEY;

const options = (url: string, apiKey = KEY) => ({
  url,
  apiKey,
  syncProducts: true,
  syncOrders: true,
  syncCustomers: true,
  interval: 'HOURS_1',
  enabled: true,
});

async function stateOf(api: TestApi, account = MUSTER) {
  const res = await api.request('GET', base(account), { as: 'admin' });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

async function connectionRow(api: TestApi) {
  const { rows } = await api.db.query<{ api_key_sealed: string; next_sync_at: Date | null }>(
    'select api_key_sealed, next_sync_at from shop_connections where account_uuid = $1',
    [MUSTER],
  );
  return rows[0];
}

// Demo mode: plain http to loopback is allowed, so the stand-in shop on 127.0.0.1 is reachable. A short timeout
// keeps the hanging shop's test quick (production keeps 5 s; see shop-address.test.ts).
describeApi(
  'shop API (demo mode, a stand-in shop on 127.0.0.1)',
  (api) => {
    const shop = new StandInShop();
    beforeAll(() => shop.start());
    afterAll(() => shop.stop());

    it('shows the seeded connection of Muster AG with its record counts, the key only as its last four', async () => {
      const state = await stateOf(api);
      expect(state.allowsLocalShops).toBe(true);
      expect(state.connection).toMatchObject({
        url: 'https://shop.muster-ag.example',
        apiKeyLastFour: '7421',
        interval: 'MANUAL',
        nextSyncAt: null,
        lastSync: { status: 'OK', error: null, counts: { products: 128, orders: 342, customers: 87 } },
        records: { products: 128, orders: 342, customers: 87 },
      });
    });

    it('refuses an employee (403) and a member of another account (404) on every route', async () => {
      const calls = [
        ['GET', base(MUSTER), undefined],
        ['PUT', base(MUSTER), options(shop.url())],
        ['POST', `${base(MUSTER)}/test`, { url: shop.url(), apiKey: KEY }],
        ['POST', `${base(MUSTER)}/sync`, undefined],
        ['DELETE', base(MUSTER), undefined],
      ] as const;
      for (const [method, url, body] of calls) {
        expect((await api.request(method, url, { as: 'employee', body })).statusCode, url).toBe(403);
        const stranger = await api.request(method, url, { as: 'inhaber', body });
        expect(stranger.statusCode, url).toBe(404);
        expect(stranger.body).not.toContain('Muster');
      }
      expect(shop.requests).toEqual([]);
      expect((await stateOf(api)).connection.url).toBe('https://shop.muster-ag.example');
    });

    it('tests the entered address and key: ok with the shop name, wrong key, timeout, unreachable, not a shop', async () => {
      const test = async (url: string, apiKey: string) => {
        const res = await api.request('POST', `${base(MUSTER)}/test`, { as: 'admin', body: { url, apiKey } });
        expect(res.statusCode).toBe(200);
        return res.json().data;
      };
      expect(await test(shop.url(), KEY)).toEqual({ result: 'OK', shopName: 'Stand-in Shop' });
      expect(await test(shop.url(), 'a-wrong-key-0000')).toEqual({ result: 'WRONG_KEY', shopName: null });
      const started = Date.now();
      expect(await test(shop.url('/hang'), KEY)).toEqual({ result: 'TIMEOUT', shopName: null });
      expect(Date.now() - started).toBeGreaterThanOrEqual(api.config.shop.timeoutMs - 20);
      expect(await test(shop.url('/html'), KEY)).toEqual({ result: 'NOT_A_SHOP', shopName: null });
      // A port nobody listens on: the connection is refused.
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      expect(await test(`http://127.0.0.1:${port}`, KEY)).toEqual({ result: 'UNREACHABLE', shopName: null });
      // Local shops are allowed in demo mode, the rest of the internal network is not.
      const internal = await api.request('POST', `${base(MUSTER)}/test`, {
        as: 'admin',
        body: { url: 'http://169.254.169.254/latest', apiKey: KEY },
      });
      expect(internal.statusCode).toBe(422);
      expect(internal.json().details.fields).toEqual({ url: 'peppershop.errors.urlAddress' });
    });

    it('refuses a bad form with field errors and changes nothing; a new connection needs a key', async () => {
      for (const [url, problem] of [
        ['', 'peppershop.errors.urlRequired'],
        ['shop.example.com', 'peppershop.errors.urlInvalid'],
        ['ftp://shop.example.com', 'peppershop.errors.urlInvalid'],
        ['https://user:pw@shop.example.com', 'peppershop.errors.urlInvalid'],
        ['https://[fd00::1]', 'peppershop.errors.urlAddress'],
      ]) {
        const res = await api.request('PUT', base(MUSTER), { as: 'admin', body: options(url!, 'short') });
        expect(res.statusCode, url).toBe(422);
        expect(res.json().details.fields).toEqual({ url: problem, apiKey: 'peppershop.errors.keyLength' });
      }
      const beispiel = await api.request('PUT', base(BEISPIEL), {
        as: 'inhaber',
        body: options(shop.url(), ''),
      });
      expect(beispiel.statusCode).toBe(422);
      expect(beispiel.json().details.fields).toEqual({ apiKey: 'peppershop.errors.keyRequired' });
      expect((await stateOf(api)).connection.url).toBe('https://shop.muster-ag.example');
      expect((await api.audit(MUSTER)).filter((entry) => entry.action === 'shop.save')).toEqual([]);
    });

    it('saves address and key sealed (answers only the last four), keeps the key when it is left empty', async () => {
      const res = await api.request('PUT', base(MUSTER), { as: 'admin', body: options(`${shop.url()}/`) });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.connection).toMatchObject({
        url: shop.url(),
        apiKeyLastFour: '1234',
        interval: 'HOURS_1',
        enabled: true,
      });
      expect(res.body).not.toContain(KEY);
      const sealed = (await connectionRow(api))!.api_key_sealed;
      expect(sealed).toMatch(/^enc:v1:/);
      expect(sealed).not.toContain(KEY);
      // Another address is another shop: the demo shop's records and last sync are gone.
      expect(res.json().data.connection).toMatchObject({
        lastSync: null,
        records: { products: 0, orders: 0, customers: 0 },
      });
      const [entry] = await api.audit(MUSTER);
      expect(entry).toMatchObject({ action: 'shop.save', actor_uuid: DEMO_USERS.admin.id, target: 'shop' });
      const { rows } = await api.db.query<{ after: Record<string, unknown> }>(
        `select after from audit_log where account_uuid = $1 and action = 'shop.save' order by id desc limit 1`,
        [MUSTER],
      );
      expect(rows[0]!.after).toMatchObject({ apiKeyLastFour: '1234', keyChanged: true });
      expect(JSON.stringify(rows[0])).not.toContain(KEY);

      const again = await api.request('PUT', base(MUSTER), {
        as: 'admin',
        body: { ...options(shop.url(), '   '), interval: 'MANUAL' },
      });
      expect(again.statusCode).toBe(200);
      expect(again.json().data.connection).toMatchObject({ apiKeyLastFour: '1234', interval: 'MANUAL' });
      expect((await connectionRow(api))!.api_key_sealed).toBe(sealed);
      // The stored key never goes to another host: a new host needs the key again, to save and to test.
      const elsewhere = await api.request('PUT', base(MUSTER), {
        as: 'admin',
        body: options('http://localhost:9', ''),
      });
      expect(elsewhere.statusCode).toBe(422);
      expect(elsewhere.json().details.fields).toEqual({ apiKey: 'peppershop.errors.keyNewAddress' });
      const testElsewhere = await api.request('POST', `${base(MUSTER)}/test`, {
        as: 'admin',
        body: { url: 'http://localhost:9', apiKey: '' },
      });
      expect(testElsewhere.statusCode).toBe(422);
      expect(testElsewhere.json().details.fields).toEqual({ apiKey: 'peppershop.errors.keyNewAddress' });
      // Empty fields test the stored address and key.
      const stored = await api.request('POST', `${base(MUSTER)}/test`, {
        as: 'admin',
        body: { url: '', apiKey: '' },
      });
      expect(stored.json().data).toEqual({ result: 'OK', shopName: 'Stand-in Shop' });
    });

    it('syncs on the jobs runner: counts per kind, upserts on the second run, once however often it is asked', async () => {
      const first = await api.request('POST', `${base(MUSTER)}/sync`, { as: 'admin' });
      expect(first.statusCode).toBe(202);
      expect(first.json().data.connection.lastSync).toMatchObject({ status: 'QUEUED', finishedAt: null });
      expect((await api.request('POST', `${base(MUSTER)}/sync`, { as: 'admin' })).statusCode).toBe(202);
      const { rows: queued } = await api.db.query<{ count: number }>(
        `select count(*)::int as count from jobs where kind = 'shop.sync' and state in ('pending', 'running')`,
      );
      expect(queued[0]!.count).toBe(1);
      await api.app.jobs.drain();
      const synced = (await stateOf(api)).connection;
      expect(synced.lastSync).toMatchObject({
        status: 'OK',
        error: null,
        counts: { products: 250, orders: 42, customers: 17 },
      });
      // The demo records of the old address are gone; the shop's are kept.
      expect(synced.records).toEqual({ products: 250, orders: 42, customers: 17 });

      shop.records.products[0]!.name = 'Renamed product';
      shop.records.products.splice(200, 50);
      shop.records.customers.push({ id: 'c99', name: 'New customer' });
      await api.request('POST', `${base(MUSTER)}/sync`, { as: 'admin' });
      await api.app.jobs.drain();
      const second = (await stateOf(api)).connection;
      expect(second.records).toEqual({ products: 200, orders: 42, customers: 18 });
      const { rows } = await api.db.query<{ data: { name: string } }>(
        `select data from shop_records where account_uuid = $1 and kind = 'PRODUCTS' and shop_id = 'p1'`,
        [MUSTER],
      );
      expect(rows).toEqual([{ data: { id: 'p1', name: 'Renamed product' } }]);
    });

    it('records a failed sync with its reason and keeps what it read before the failure', async () => {
      await api.request('PUT', base(MUSTER), { as: 'admin', body: options(shop.url('/broken-orders'), '') });
      await api.request('POST', `${base(MUSTER)}/sync`, { as: 'admin' });
      await api.app.jobs.drain();
      const failed = (await stateOf(api)).connection;
      expect(failed.lastSync).toMatchObject({ status: 'FAILED', error: 'NOT_A_SHOP' });
      expect(failed.lastSync.finishedAt).not.toBeNull();
      // Another address dropped the records of the old one; the products came in before the orders failed.
      expect(failed.records).toEqual({ products: 200, orders: 0, customers: 0 });

      await api.request('PUT', base(MUSTER), {
        as: 'admin',
        body: options(shop.url(), 'a-key-the-shop-refuses'),
      });
      await api.request('POST', `${base(MUSTER)}/sync`, { as: 'admin' });
      await api.app.jobs.drain();
      expect((await stateOf(api)).connection.lastSync).toMatchObject({
        status: 'FAILED',
        error: 'WRONG_KEY',
      });
    });

    it('gives a sync up as FAILED after its last attempt when something other than the shop breaks', async () => {
      await api.request('PUT', base(MUSTER), { as: 'admin', body: options(shop.url()) });
      await api.db.query(`update shop_connections set last_sync_status = 'QUEUED' where account_uuid = $1`, [
        MUSTER,
      ]);
      const broken: ShopDeps = {
        db: api.db,
        secrets: createSecrets(parseSecretsKeys(TEST_SECRETS_KEYS)),
        config: api.config.shop,
        adapter: () => ({
          test: () => Promise.reject(new TypeError('broken')),
          fetchPage: () => Promise.reject(new TypeError('broken')),
        }),
      };
      await expect(runShopSyncJob(broken, MUSTER, false)).rejects.toThrow('broken');
      expect((await stateOf(api)).connection.lastSync.status).toBe('RUNNING');
      await expect(runShopSyncJob(broken, MUSTER, true)).rejects.toThrow('broken');
      expect((await stateOf(api)).connection.lastSync).toMatchObject({ status: 'FAILED', error: null });
    });

    it('seals the stored key again with the new key after a change of SECRETS_KEYS', async () => {
      await api.request('PUT', base(MUSTER), { as: 'admin', body: options(shop.url()) });
      const [current] = parseSecretsKeys(TEST_SECRETS_KEYS);
      const added = { id: 'k2', key: crypto.randomBytes(32) };
      const rotated = createSecrets([added, current!]);
      expect(await resealStaleKeys(api.db, rotated)).toBeGreaterThanOrEqual(1);
      const { rows } = await api.db.query<{ uuid: string; api_key_sealed: string }>(
        'select uuid, api_key_sealed from shop_connections where account_uuid = $1',
        [MUSTER],
      );
      expect(rows[0]!.api_key_sealed).toMatch(/^enc:v1:k2:/);
      // Only the new key is needed now: the old one can go.
      expect(createSecrets([added]).open(rows[0]!.api_key_sealed, `shop_connections:${rows[0]!.uuid}`)).toBe(
        KEY,
      );
      expect(await resealStaleKeys(api.db, rotated)).toBe(0);
      // Back to the suite's key for whatever runs after.
      expect(await resealStaleKeys(api.db, createSecrets([current!, added]))).toBeGreaterThanOrEqual(1);
    });

    it('the scheduler queues the connections that are due, and plans the next run by the interval', async () => {
      await api.request('PUT', base(MUSTER), { as: 'admin', body: options(shop.url()) });
      await api.db.query(`update shop_connections set next_sync_at = now() - interval '1 minute'`);
      expect(await queueDueSyncs(api.db, api.app.jobs)).toBe(1);
      // Asked again before the sync ran: still one.
      await queueDueSyncs(api.db, api.app.jobs);
      await api.app.jobs.drain();
      const connection = (await stateOf(api)).connection;
      expect(connection.lastSync.status).toBe('OK');
      const next = new Date(connection.nextSyncAt).getTime() - Date.now();
      expect(next).toBeGreaterThan(55 * 60_000);
      expect(next).toBeLessThanOrEqual(60 * 60_000);
      expect(await queueDueSyncs(api.db, api.app.jobs)).toBe(0);
    });

    it('disconnects: the connection, its key and every record are deleted, with an audit entry', async () => {
      const res = await api.request('DELETE', base(MUSTER), { as: 'admin' });
      expect(res.statusCode).toBe(204);
      expect((await stateOf(api)).connection).toBeNull();
      const { rows } = await api.db.query<{ count: number }>(
        'select count(*)::int as count from shop_records where account_uuid = $1',
        [MUSTER],
      );
      expect(rows[0]!.count).toBe(0);
      expect(await connectionRow(api)).toBeUndefined();
      expect((await api.audit(MUSTER))[0]).toMatchObject({ action: 'shop.disconnect', target: 'shop' });
      expect((await api.request('POST', `${base(MUSTER)}/sync`, { as: 'admin' })).statusCode).toBe(409);
      const untested = await api.request('POST', `${base(MUSTER)}/test`, {
        as: 'admin',
        body: { url: '', apiKey: '' },
      });
      expect(untested.statusCode).toBe(409);
    });
  },
  { env: { DEMO_DATA: 'force', SHOP_TIMEOUT_MS: '300' } },
);

// Outside demo mode the server never reaches its own network: only https, and no private address, whether
// written as an IP or reached through a name that resolves to one.
describeApi('shop API (production rules for the address)', (api) => {
  const shop = new StandInShop();
  beforeAll(() => shop.start());
  afterAll(() => shop.stop());

  it('refuses plain http and internal IP addresses in the form', async () => {
    for (const [url, problem] of [
      [shop.url(), 'peppershop.errors.urlHttps'],
      [`https://127.0.0.1:${shop.port}`, 'peppershop.errors.urlAddress'],
      ['https://[::1]', 'peppershop.errors.urlAddress'],
      ['https://[::ffff:127.0.0.1]', 'peppershop.errors.urlAddress'],
      ['https://10.1.2.3', 'peppershop.errors.urlAddress'],
      ['https://192.168.1.10', 'peppershop.errors.urlAddress'],
      ['https://169.254.169.254', 'peppershop.errors.urlAddress'],
    ]) {
      const res = await api.request('PUT', base(MUSTER), { as: 'admin', body: options(url!) });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().details.fields, url).toEqual({ url: problem });
      const test = await api.request('POST', `${base(MUSTER)}/test`, {
        as: 'admin',
        body: { url, apiKey: KEY },
      });
      expect(test.statusCode, url).toBe(422);
    }
    expect((await stateOf(api)).allowsLocalShops).toBe(false);
  });

  it('refuses a name that resolves to a loopback address, before connecting', async () => {
    const res = await api.request('POST', `${base(MUSTER)}/test`, {
      as: 'admin',
      body: { url: `https://localhost:${shop.port}`, apiKey: KEY },
    });
    expect(res.json().data).toEqual({ result: 'ADDRESS_REFUSED', shopName: null });
    expect(shop.requests).toEqual([]);
  });

  it('asks for the key again when the stored one cannot be opened with the server keys', async () => {
    // The demo connection is sealed with the development key; this server has another one.
    const res = await api.request('POST', `${base(MUSTER)}/test`, {
      as: 'admin',
      body: { url: '', apiKey: '' },
    });
    expect(res.json().data).toEqual({ result: 'KEY_UNREADABLE', shopName: null });
  });
});
