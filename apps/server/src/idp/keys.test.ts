import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeProtectedHeader, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import { createSecrets, parseSecretsKeys, SecretsError } from '../secrets/secrets.ts';
import { freshDatabase } from '../test/api.ts';
import type { Db } from '../db/client.ts';
import { loadSecrets, readSecrets, rotateSigningKeyIfDue } from './keys.ts';
import { CookieJar, freePort, localConfig, refresh, signIn, type TestIdp } from '../test/idp.ts';

const DAY = 86_400;
const secretsKey = (id: string) => ({ id, key: crypto.randomBytes(32) });

async function storedRows(db: Db) {
  const { rows } = await db.query<{ name: string; value: unknown }>(
    `select name, value from idp_secrets order by name`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.value]));
}

describe('identity provider secrets at rest', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDatabase('pglite'));
  });
  afterAll(async () => drop?.());

  it('seals plaintext rows from before encryption on the first start, keeping the keys', async () => {
    const jwk = { kty: 'oct', kid: 'legacy', k: 'private-part-of-the-key' } as JWK;
    await db.query('delete from idp_secrets');
    await db.query(
      `insert into idp_secrets (name, value) values ('signing-keys', $1::jsonb), ('cookie-keys', $2::jsonb)`,
      [JSON.stringify([jwk]), JSON.stringify(['cookie-secret'])],
    );
    const k1 = secretsKey('k1');
    const loaded = await loadSecrets(db, createSecrets([k1]));
    expect(loaded).toEqual({ signingKeys: [jwk], cookieKeys: ['cookie-secret'] });
    const rows = await storedRows(db);
    expect(rows['signing-keys']).toMatch(/^enc:v1:k1:/);
    expect(rows['cookie-keys']).toMatch(/^enc:v1:k1:/);
    expect(JSON.stringify(rows)).not.toMatch(/private-part-of-the-key|cookie-secret/);

    // A new secrets key first: the next start re-seals the rows with it; the old key can then go.
    const k2 = secretsKey('k2');
    expect(await loadSecrets(db, createSecrets([k2, k1]))).toEqual(loaded);
    expect((await storedRows(db))['signing-keys']).toMatch(/^enc:v1:k2:/);
    expect(await loadSecrets(db, createSecrets([k2]))).toEqual(loaded);
    // Without the key the rows do not open, and the start fails rather than making new keys.
    await expect(loadSecrets(db, createSecrets([secretsKey('k3')]))).rejects.toThrow(/"k2"/);

    // Rows swapped (the cookie secret offered as signing keys) do not open.
    await db.query(
      `update idp_secrets set value = (select value from idp_secrets where name = 'cookie-keys')
       where name = 'signing-keys'`,
    );
    await expect(loadSecrets(db, createSecrets([k2]))).rejects.toThrow(SecretsError);
  });
});

const BACKENDS = process.env.TEST_DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const);

describe.each(BACKENDS)('signing key rotation on %s', (backend) => {
  it('rotates once when several instances find the key due at the same time', async () => {
    const { db, drop } = await freshDatabase(backend);
    try {
      const sealer = createSecrets([secretsKey('k1')]);
      const [first] = (await loadSecrets(db, sealer)).signingKeys;
      const policy = { rotateEvery: 30 * DAY, grace: 600 };
      const due = new Date(Date.now() + 31 * DAY * 1000);
      const results = await Promise.all(
        Array.from({ length: 5 }, () => rotateSigningKeyIfDue(db, sealer, policy, due)),
      );
      expect(results.filter((result) => result.rotated)).toHaveLength(1);
      const kids = (await readSecrets(db, sealer))!.signingKeys.map((key) => key.kid);
      expect(kids).toHaveLength(2);
      expect(kids[1]).toBe(first!.kid);
    } finally {
      await drop();
    }
  });
});

describe('signing key rotation with two instances', () => {
  const SECRETS_KEYS = `k1:${crypto.randomBytes(32).toString('base64')}`;
  const sealer = createSecrets(parseSecretsKeys(SECRETS_KEYS));
  let db: Db;
  let drop: () => Promise<void>;
  const apps: FastifyInstance[] = [];
  let a: TestIdp;
  let b: TestIdp;
  let config: Config;

  beforeAll(async () => {
    ({ db, drop } = await freshDatabase('pglite'));
    const [portA, portB] = [await freePort(), await freePort()];
    // Two instances behind one address (one PUBLIC_URL, so one issuer), sharing the database.
    const start = async (port: number) => {
      const instance = localConfig(portA, { WEB_DIST: '/nonexistent', SECRETS_KEYS });
      instance.port = port;
      instance.idp.signingKeyCheck = 1;
      const app = await buildApp(instance, { db });
      await app.listen({ host: '127.0.0.1', port });
      apps.push(app);
      return { app, config: instance, base: `http://127.0.0.1:${port}`, port, jobs: app.jobs };
    };
    a = await start(portA);
    b = await start(portB);
    config = a.config;
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    await drop?.();
  });

  const kidsAt = async (idp: TestIdp) => {
    const certs = (await (await fetch(`${idp.base}/realms/portal/protocol/openid-connect/certs`)).json()) as {
      keys: JWK[];
    };
    return certs.keys.map((key) => key.kid);
  };
  const statusOf = async (idp: TestIdp, path: string, token: string) =>
    (await fetch(`${idp.base}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;
  const api = (idp: TestIdp, token: string) => statusOf(idp, '/api/users/v1/me', token);
  const userinfo = (idp: TestIdp, token: string) =>
    statusOf(idp, '/realms/portal/protocol/openid-connect/userinfo', token);
  const account = (idp: TestIdp, token: string) => statusOf(idp, '/realms/portal/account', token);

  it('signs with a new key after rotation, keeps the old one until its tokens expire, then drops it', async () => {
    const [oldKid] = await kidsAt(a);
    expect(await kidsAt(b)).toEqual([oldKid]);
    const { tokens } = await signIn(a, new CookieJar(), DEMO_USERS.employee.email, DEMO_PASSWORD);
    const oldToken = tokens.body.access_token!;
    expect(decodeProtectedHeader(oldToken).kid).toBe(oldKid);
    // Every verifier has read the key set before the rotation (it holds the old key only).
    for (const idp of [a, b]) {
      expect([await api(idp, oldToken), await userinfo(idp, oldToken), await account(idp, oldToken)]).toEqual(
        [200, 200, 200],
      );
    }

    const policy = { rotateEvery: config.idp.signingKeyRotation, grace: 600 };
    const now = Date.now();
    expect(await rotateSigningKeyIfDue(db, sealer, policy, new Date(now + DAY * 1000))).toEqual({
      rotated: false,
      removed: [],
    });
    const due = new Date(now + config.idp.signingKeyRotation * 1000);
    expect((await rotateSigningKeyIfDue(db, sealer, policy, due)).rotated).toBe(true);
    const newKid = (await readSecrets(db, sealer))!.signingKeys[0]!.kid!;

    // Both instances publish both keys, newest first, once they reloaded (each on its own).
    for (const idp of [a, b]) {
      await vi.waitFor(async () => expect(await kidsAt(idp)).toEqual([newKid, oldKid]), { timeout: 10_000 });
    }
    // New tokens, from either instance, are signed with the new key and accepted by the other one.
    const fromB = await refresh(b, tokens.body.refresh_token!);
    expect(fromB.status).toBe(200);
    expect(decodeProtectedHeader(fromB.body.access_token!).kid).toBe(newKid);
    expect(decodeProtectedHeader(fromB.body.id_token!).kid).toBe(newKid);
    const fromA = await refresh(a, fromB.body.refresh_token!);
    expect(decodeProtectedHeader(fromA.body.access_token!).kid).toBe(newKid);
    for (const idp of [a, b]) {
      for (const token of [oldToken, fromA.body.access_token!, fromB.body.access_token!]) {
        expect(await api(idp, token)).toBe(200);
        expect(await userinfo(idp, token)).toBe(200);
        expect(await account(idp, token)).toBe(200);
      }
    }

    // Before the grace has passed the old key stays; after it, it goes from both instances' key sets.
    const graceLeft = new Date(due.getTime() + (policy.grace - 1) * 1000);
    expect((await rotateSigningKeyIfDue(db, sealer, policy, graceLeft)).removed).toEqual([]);
    const graceOver = new Date(due.getTime() + policy.grace * 1000);
    expect(await rotateSigningKeyIfDue(db, sealer, policy, graceOver)).toEqual({
      rotated: false,
      removed: [oldKid],
    });
    for (const idp of [a, b]) {
      await vi.waitFor(async () => expect(await kidsAt(idp)).toEqual([newKid]), { timeout: 10_000 });
    }
    const again = await refresh(a, fromA.body.refresh_token!);
    expect(decodeProtectedHeader(again.body.access_token!).kid).toBe(newKid);
    expect(await api(b, again.body.access_token!)).toBe(200);
  }, 60_000);
});
