import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import {
  ABACLIK_CODE_ALPHABET,
  normalizeActivationCode,
  type AbaclikActivationCode,
  type AbaclikPairing,
} from '@portal/contract';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { describeApi, type DemoLogin, type TestApi } from '../../test/api.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const BEISPIEL = DEMO_ACCOUNTS.beispiel;
const base = (account: string) => `/api/accounts/${account}/abaclik/v1`;
const PAIR = '/api/abaclik/v1/app/pairings';
const HEARTBEAT = '/api/abaclik/v1/app/heartbeat';

/** A client address of its own for each call, unless a test names one: the per-address limit stays out of the way. */
const someAddress = () => `10.20.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

/** A call as the app makes it: no portal sign-in, no cookie, no XSRF header. */
function appCall(
  api: TestApi,
  url: string,
  body: unknown,
  options: { token?: string; address?: string; app?: TestApi['app'] } = {},
): Promise<LightMyRequestResponse> {
  return (options.app ?? api.app).inject({
    method: 'POST',
    url,
    payload: body as object,
    remoteAddress: options.address ?? someAddress(),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  });
}

const device = (code: string) => ({ code, deviceName: 'iPhone 15', platform: 'IOS', appVersion: '3.4.1' });

async function newCode(
  api: TestApi,
  as: DemoLogin,
  account: string = MUSTER,
): Promise<AbaclikActivationCode> {
  const res = await api.request('POST', `${base(account)}/activation-codes`, { as });
  expect(res.statusCode).toBe(201);
  return res.json().data;
}

async function pair(api: TestApi, as: DemoLogin, name = 'iPhone 15'): Promise<AbaclikPairing> {
  const { code } = await newCode(api, as);
  const res = await appCall(api, PAIR, { ...device(code), deviceName: name });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const listOf = async (api: TestApi, as: DemoLogin, query = '') =>
  api.request('GET', `${base(MUSTER)}/devices${query}`, { as });

describeApi('AbaClik API', (api) => {
  it('issues a code of the unambiguous alphabet, valid 10 minutes, with a QR code of the pairing address', async () => {
    const before = Date.now();
    const code = await newCode(api, 'employee');
    expect(code.code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect([...code.code.replace('-', '')].every((c) => ABACLIK_CODE_ALPHABET.includes(c))).toBe(true);
    const minutes = (Date.parse(code.expiresAt) - before) / 60_000;
    expect(minutes).toBeGreaterThan(9.9);
    expect(minutes).toBeLessThan(10.1);
    expect(code.pairingUri).toBe(
      `abaclik://pair?server=${encodeURIComponent('http://portal.test')}&code=${code.code}`,
    );
    expect(code.qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // Only the hash is stored.
    const { rows } = await api.db.query<{ code_hash: string }>(
      'select code_hash from abaclik_codes where uuid = $1',
      [code.uuid],
    );
    expect(rows[0]!.code_hash).not.toContain(code.code.replace('-', ''));
    expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps one open code per person: a new code replaces the earlier one', async () => {
    const first = await newCode(api, 'employee');
    const second = await newCode(api, 'employee');
    expect((await appCall(api, PAIR, device(first.code))).statusCode).toBe(401);
    const old = await api.request('GET', `${base(MUSTER)}/activation-codes/${first.uuid}`, {
      as: 'employee',
    });
    expect(old.statusCode).toBe(404);
    expect((await appCall(api, PAIR, device(second.code))).statusCode).toBe(201);
  });

  it('pairs a device with the code (typed in lower case without dash too) and answers its token once', async () => {
    const code = await newCode(api, 'employee');
    const res = await appCall(api, PAIR, {
      ...device(code.code.replace('-', '').toLowerCase()),
      deviceName: '  Emmas iPhone  ',
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const pairing: AbaclikPairing = res.json();
    expect(pairing.token).toMatch(/^abaclik_[A-Za-z0-9_-]{43}$/);
    expect(pairing).toMatchObject({
      device: { name: 'Emmas iPhone', platform: 'IOS', appVersion: '3.4.1' },
      account: { uuid: MUSTER, name: 'Muster AG' },
      person: { uuid: DEMO_USERS.employee.id, email: DEMO_USERS.employee.email },
    });
    // The token is kept as its hash only, and no later answer carries it.
    const { rows } = await api.db.query<{ token_hash: string }>(
      'select token_hash from abaclik_devices where uuid = $1',
      [pairing.device.uuid],
    );
    expect(rows[0]!.token_hash).toBe(crypto.createHash('sha256').update(pairing.token).digest('hex'));
    const status = await api.request('GET', `${base(MUSTER)}/activation-codes/${code.uuid}`, {
      as: 'employee',
    });
    expect(status.json().data).toMatchObject({ status: 'USED', device: { uuid: pairing.device.uuid } });
    const list = await listOf(api, 'employee');
    const audit = await api.audit(MUSTER);
    for (const later of [status.body, list.body, JSON.stringify(audit)])
      expect(later).not.toContain(pairing.token);
    expect(audit[0]).toMatchObject({
      action: 'abaclik.device-paired',
      actor_uuid: DEMO_USERS.employee.id,
      target: `user:${DEMO_USERS.employee.id}`,
    });
    expect(audit[0]!.client_address).toMatch(/^10\.20\./);
  });

  it('lets a code be used once: a second exchange gets the answer of an unknown code', async () => {
    const code = await newCode(api, 'employee');
    expect((await appCall(api, PAIR, device(code.code))).statusCode).toBe(201);
    const again = await appCall(api, PAIR, device(code.code));
    const unknown = await appCall(api, PAIR, device('ABCD-EFGH'));
    const malformed = await appCall(api, PAIR, device('not a code'));
    expect(again.statusCode).toBe(401);
    expect([again.json(), malformed.json()]).toEqual([unknown.json(), unknown.json()]);
  });

  it('refuses a code after 10 minutes, the same way as an unknown one (time moved in the database)', async () => {
    const code = await newCode(api, 'employee');
    const move = (interval: string) =>
      api.db.query(
        `update abaclik_codes set created_at = created_at - $2::interval, expires_at = expires_at - $2::interval
          where uuid = $1`,
        [code.uuid, interval],
      );
    await move('9 minutes 50 seconds');
    const open = await api.request('GET', `${base(MUSTER)}/activation-codes/${code.uuid}`, {
      as: 'employee',
    });
    expect(open.json().data.status).toBe('OPEN');
    await move('11 seconds');
    const expired = await api.request('GET', `${base(MUSTER)}/activation-codes/${code.uuid}`, {
      as: 'employee',
    });
    expect(expired.json().data).toMatchObject({ status: 'EXPIRED', device: null });
    const res = await appCall(api, PAIR, device(code.code));
    expect([res.statusCode, res.json()]).toEqual([
      401,
      (await appCall(api, PAIR, device('ABCD-EFGH'))).json(),
    ]);
  });

  it('refuses a device payload before looking at the code, so the code survives for a corrected try', async () => {
    const code = await newCode(api, 'employee');
    const blank = await appCall(api, PAIR, { ...device(code.code), deviceName: '   ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().details.fields).toHaveProperty('deviceName');
    const platform = await appCall(api, PAIR, { ...device(code.code), platform: 'WINDOWS' });
    expect(platform.statusCode).toBe(422);
    expect((await appCall(api, PAIR, device(code.code))).statusCode).toBe(201);
  });

  it('needs no XSRF header on the app routes, which the OpenAPI document describes with the device scheme', async () => {
    const document = (await api.request('GET', '/api/openapi.json')).json();
    const pairing = document.paths[PAIR].post;
    const beat = document.paths[HEARTBEAT].post;
    expect(pairing.summary).toMatch(/exchange an activation code/);
    expect(pairing.description).toMatch(/Retry-After/);
    expect(pairing.security).toBeUndefined();
    expect(Object.keys(pairing.responses)).toEqual(expect.arrayContaining(['201', '401', '422', '429']));
    expect(Object.keys(pairing.responses)).not.toContain('403');
    expect(beat.security).toEqual([{ abaclikDevice: [] }]);
    expect(beat.description).toMatch(/Bearer/);
    expect(document.components.securitySchemes.abaclikDevice).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect((beat.parameters ?? []).map((p: { name: string }) => p.name)).not.toContain('x-xsrf-token');
    // A browser route still needs it.
    const code = await api.request('POST', `${base(MUSTER)}/activation-codes`, {
      as: 'employee',
      xsrf: false,
    });
    expect(code.statusCode).toBe(403);
  });

  it('updates last seen and the app version with the heartbeat; a revoked device gets 401', async () => {
    const pairing = await pair(api, 'employee', 'Heartbeat phone');
    await api.db.query(
      `update abaclik_devices set last_seen_at = now() - interval '3 hours' where uuid = $1`,
      [pairing.device.uuid],
    );
    const before = Date.now();
    const beat = await appCall(api, HEARTBEAT, { appVersion: '3.5.0' }, { token: pairing.token });
    expect(beat.statusCode).toBe(200);
    expect(beat.json().data).toMatchObject({ deviceUuid: pairing.device.uuid, accountUuid: MUSTER });
    const listed = (await listOf(api, 'employee'))
      .json()
      .data.find((d: { uuid: string }) => d.uuid === pairing.device.uuid);
    expect(listed.appVersion).toBe('3.5.0');
    expect(Date.parse(listed.lastSeenAt)).toBeGreaterThanOrEqual(before - 1000);

    const revoke = await api.request('DELETE', `${base(MUSTER)}/devices/${pairing.device.uuid}`, {
      as: 'employee',
    });
    expect(revoke.statusCode).toBe(204);
    const refused = await appCall(api, HEARTBEAT, { appVersion: '3.5.0' }, { token: pairing.token });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="abaclik"');
    expect((await appCall(api, HEARTBEAT, { appVersion: '3.5.0' })).statusCode).toBe(401);
    // A user's sign-in is no device token.
    const userToken = await api.token('employee');
    expect((await appCall(api, HEARTBEAT, { appVersion: '1' }, { token: userToken })).statusCode).toBe(401);
    const audit = await api.audit(MUSTER);
    expect(audit[0]).toMatchObject({
      action: 'abaclik.device-revoked',
      actor_uuid: DEMO_USERS.employee.id,
      target: `user:${DEMO_USERS.employee.id}`,
    });
  });

  it("shows a member their own devices only, and ADMIN and above every member's", async () => {
    const own = await pair(api, 'employee', 'Employee phone');
    const admins = await pair(api, 'admin', 'Admin phone');
    const employee = (await listOf(api, 'employee')).json().data.map((d: { uuid: string }) => d.uuid);
    expect(employee).toContain(own.device.uuid);
    expect(employee).not.toContain(admins.device.uuid);
    expect((await listOf(api, 'employee', '?scope=all')).statusCode).toBe(403);
    const all = (await listOf(api, 'admin', '?scope=all')).json();
    const rows = all.data as { uuid: string; isOwn: boolean; person: { uuid: string } }[];
    expect(rows.find((d) => d.uuid === own.device.uuid)).toMatchObject({
      isOwn: false,
      person: { uuid: DEMO_USERS.employee.id },
    });
    expect(rows.find((d) => d.uuid === admins.device.uuid)?.isOwn).toBe(true);
    expect(all.meta.total).toBeGreaterThanOrEqual(rows.length);
    const mine = (await listOf(api, 'admin')).json().data.map((d: { uuid: string }) => d.uuid);
    expect(mine).toContain(admins.device.uuid);
    expect(mine).not.toContain(own.device.uuid);
  });

  it('pages the list on the server, newest pairing first', async () => {
    const total = (await listOf(api, 'owner', '?scope=all')).json().meta.total as number;
    const first = (await listOf(api, 'owner', '?scope=all&pageSize=2&page=1')).json();
    const second = (await listOf(api, 'owner', '?scope=all&pageSize=2&page=2')).json();
    expect(first.meta).toEqual({ total, page: 1, pageSize: 2 });
    expect(first.data).toHaveLength(2);
    const times = [...first.data, ...second.data].map((d: { pairedAt: string }) => Date.parse(d.pairedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((await listOf(api, 'owner', '?pageSize=101')).statusCode).toBe(422);
  });

  it("lets ADMIN revoke anyone's device, but an EMPLOYEE not another member's (404: not theirs to see)", async () => {
    const admins = await pair(api, 'admin', 'Admin phone 2');
    const employees = await pair(api, 'employee', 'Employee phone 2');
    const byEmployee = await api.request('DELETE', `${base(MUSTER)}/devices/${admins.device.uuid}`, {
      as: 'employee',
    });
    expect(byEmployee.statusCode).toBe(404);
    expect((await appCall(api, HEARTBEAT, { appVersion: '3' }, { token: admins.token })).statusCode).toBe(
      200,
    );
    const byAdmin = await api.request('DELETE', `${base(MUSTER)}/devices/${employees.device.uuid}`, {
      as: 'admin',
    });
    expect(byAdmin.statusCode).toBe(204);
    expect((await appCall(api, HEARTBEAT, { appVersion: '3' }, { token: employees.token })).statusCode).toBe(
      401,
    );
    expect((await api.audit(MUSTER))[0]).toMatchObject({
      action: 'abaclik.device-revoked',
      actor_uuid: DEMO_USERS.admin.id,
      target: `user:${DEMO_USERS.employee.id}`,
    });
  });

  it("never shows or touches another account's devices (404)", async () => {
    const musters = await pair(api, 'owner', 'Owner phone');
    // The owner is an EMPLOYEE of Beispiel GmbH: the Muster AG device is not in that account.
    const beispiel = await api.request('GET', `${base(BEISPIEL)}/devices?scope=mine`, { as: 'owner' });
    expect(beispiel.json().data.map((d: { uuid: string }) => d.uuid)).not.toContain(musters.device.uuid);
    const across = await api.request('DELETE', `${base(BEISPIEL)}/devices/${musters.device.uuid}`, {
      as: 'owner',
    });
    expect(across.statusCode).toBe(404);
    const outsider = await api.request('GET', `${base(MUSTER)}/devices?scope=all`, { as: 'newowner' });
    expect(outsider.statusCode).toBe(404);
    const code = await newCode(api, 'owner');
    const foreign = await api.request('GET', `${base(BEISPIEL)}/activation-codes/${code.uuid}`, {
      as: 'owner',
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses a device whose person left the account', async () => {
    const code = await newCode(api, 'unverified');
    const pairing: AbaclikPairing = (await appCall(api, PAIR, device(code.code))).json();
    await api.db.query('delete from account_members where account_uuid = $1 and user_uuid = $2', [
      MUSTER,
      DEMO_USERS.unverified.id,
    ]);
    expect((await appCall(api, HEARTBEAT, { appVersion: '3' }, { token: pairing.token })).statusCode).toBe(
      401,
    );
    const all = (await listOf(api, 'owner', '?scope=all&pageSize=100')).json().data;
    expect(all.map((d: { uuid: string }) => d.uuid)).not.toContain(pairing.device.uuid);
  });

  it('limits the attempts of one client address per window (429 with Retry-After), until the window passes', async () => {
    const address = '192.0.2.7';
    for (let i = 0; i < 10; i += 1) {
      expect((await appCall(api, PAIR, device('ABCD-EFGH'), { address })).statusCode).toBe(401);
    }
    const code = await newCode(api, 'employee');
    const limited = await appCall(api, PAIR, device(code.code), { address });
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(600);
    // Other addresses are not affected; the limited one may try again once its window has passed.
    expect((await appCall(api, PAIR, device('ABCD-EFGH'))).statusCode).toBe(401);
    await api.db.query(
      `update limit_hits set at = at - interval '10 minutes' where name = 'abaclik-pairing' and key = $1`,
      [address],
    );
    expect((await appCall(api, PAIR, device(code.code), { address })).statusCode).toBe(201);
  });

  it('counts the attempts in the database, so a second instance sees them (PostgreSQL)', async ({ skip }) => {
    if (api.backend !== 'postgres') skip();
    const second = await api.secondInstance();
    const address = '192.0.2.99';
    for (let i = 0; i < 10; i += 1) {
      const app = i % 2 ? second : api.app;
      expect((await appCall(api, PAIR, device('ABCD-EFGH'), { address, app })).statusCode).toBe(401);
    }
    expect((await appCall(api, PAIR, device('ABCD-EFGH'), { address, app: second })).statusCode).toBe(429);
    expect((await appCall(api, PAIR, device('ABCD-EFGH'), { address })).statusCode).toBe(429);
  });

  it('normalises codes as typed: case, dashes and spaces do not matter, look-alikes are not codes', () => {
    expect(normalizeActivationCode(' abcd-efgh ')).toBe('ABCDEFGH');
    expect(normalizeActivationCode('ABCD EFGH')).toBe('ABCDEFGH');
    expect(normalizeActivationCode('ABCD-EFG0')).toBeNull();
    expect(normalizeActivationCode('ABCD-EFG')).toBeNull();
  });
});

describeApi(
  'AbaClik pairing under attack from many addresses',
  (api) => {
    it('stops every exchange once the failed attempts of all addresses reach the overall limit', async () => {
      for (let i = 0; i < 3; i += 1) {
        expect((await appCall(api, PAIR, device('ABCD-EFGH'))).statusCode).toBe(401);
      }
      const code = await newCode(api, 'employee');
      const limited = await appCall(api, PAIR, device(code.code));
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The code was not used up by the refused attempt.
      await api.db.query(
        `update limit_hits set at = at - interval '10 minutes' where name = 'abaclik-failures'`,
      );
      expect((await appCall(api, PAIR, device(code.code))).statusCode).toBe(201);
    });
  },
  { env: { ABACLIK_FAILURES_GLOBAL: '3' } },
);
