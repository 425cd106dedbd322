import { decodeJwt } from 'jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../../db/demo-users.ts';
import { CookieJar, freePort, refresh, signIn, type TestIdp } from '../../idp/test-support.ts';
import { freshDatabase } from '../../test/api.ts';

// The portal and the embedded sign-in service agree on the user's name: a name changed in the profile stays on
// every later request and is the name the sign-in service's next tokens carry.
describe('the user name with the embedded sign-in service', () => {
  let app: FastifyInstance;
  let idp: TestIdp;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const port = await freePort();
    const config = loadConfig({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: 'memory://',
      LOG_LEVEL: 'silent',
      WEB_DIST: '/nonexistent',
    });
    const database = await freshDatabase('pglite');
    drop = database.drop;
    app = await buildApp(config, { db: database.db });
    await app.listen({ host: '127.0.0.1', port });
    idp = { app, config, base: config.publicUrl, port };
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  const api = (method: string, token: string, body?: unknown) =>
    fetch(`${idp.base}/api/users/v1/me`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        cookie: 'XSRF-TOKEN=xsrf',
        'x-xsrf-token': 'xsrf',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    }).then(async (res) => ({
      status: res.status,
      name: ((await res.json()) as { data: { name: string } }).data.name,
    }));

  it('keeps the name changed in the profile, and the next token carries it', async () => {
    const { tokens } = await signIn(idp, new CookieJar(), DEMO_USERS.employee.email, DEMO_PASSWORD);
    const before = tokens.body.access_token!;
    expect(decodeJwt(before).name).toBe(DEMO_USERS.employee.name);

    expect(await api('PATCH', before, { name: 'Eva Eigenname' })).toEqual({
      status: 200,
      name: 'Eva Eigenname',
    });
    // The token from before the change still carries the old name: the change stays.
    expect(await api('GET', before)).toEqual({ status: 200, name: 'Eva Eigenname' });

    const refreshed = await refresh(idp, tokens.body.refresh_token!);
    const after = refreshed.body.access_token!;
    expect(decodeJwt(after)).toMatchObject({
      name: 'Eva Eigenname',
      given_name: 'Eva',
      family_name: 'Eigenname',
    });
    expect(await api('GET', after)).toEqual({ status: 200, name: 'Eva Eigenname' });
    // The older token, used again after the newer one (another tab), still changes nothing.
    expect(await api('GET', before)).toEqual({ status: 200, name: 'Eva Eigenname' });
  });
});
