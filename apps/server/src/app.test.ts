import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { buildApp } from './app.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './demo/users.ts';
import { CookieJar, freePort, localConfig, refresh, signIn } from './test/idp.ts';
import { freshDatabase } from './test/api.ts';

// The whole seam on one server: the embedded provider issues the token, the API verifies it with the
// provider's keys from the database and knows the demo user.
describe('embedded identity provider and API together', () => {
  let app: FastifyInstance;
  let base: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const port = await freePort();
    const config = localConfig(port, { WEB_DIST: '/nonexistent' });
    const database = await freshDatabase('pglite');
    drop = database.drop;
    app = await buildApp(config, { db: database.db });
    await app.listen({ host: '127.0.0.1', port });
    base = config.publicUrl;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  const idpOf = () => ({ app, config: app.config, base, port: Number(new URL(base).port), jobs: app.jobs });

  const api = (method: string, token: string, body?: unknown) =>
    fetch(`${base}/api/users/v1/me`, {
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

  // The portal and the sign-in service agree on the user's name: a name changed in the profile stays on every later
  // request and is the name the sign-in service's next tokens carry.
  it('keeps the name changed in the profile, and the next token carries it', async () => {
    const { tokens } = await signIn(idpOf(), new CookieJar(), DEMO_USERS.employee.email, DEMO_PASSWORD);
    const before = tokens.body.access_token!;
    expect(decodeJwt(before).name).toBe(DEMO_USERS.employee.name);

    expect(await api('PATCH', before, { name: 'Eva Eigenname' })).toEqual({
      status: 200,
      name: 'Eva Eigenname',
    });
    // The token from before the change still carries the old name: the change stays.
    expect(await api('GET', before)).toEqual({ status: 200, name: 'Eva Eigenname' });

    const refreshed = await refresh(idpOf(), tokens.body.refresh_token!);
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

  it('signs in owner@example.com and reads /api/users/v1/me with the access token', async () => {
    const idp = idpOf();
    const { tokens } = await signIn(idp, new CookieJar(), 'owner@example.com', DEMO_PASSWORD);
    expect(tokens.status).toBe(200);
    const res = await fetch(`${base}/api/users/v1/me`, {
      headers: { authorization: `bearer ${tokens.body.access_token}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { uuid: string; email: string } };
    expect(body.data).toMatchObject({ uuid: DEMO_USERS.owner.id, email: 'owner@example.com' });
  });

  it('refuses the id token (wrong audience) at the API', async () => {
    const idp = idpOf();
    const { tokens } = await signIn(idp, new CookieJar(), 'admin@example.com', DEMO_PASSWORD);
    const res = await fetch(`${base}/api/users/v1/me`, {
      headers: { authorization: `Bearer ${tokens.body.id_token}` },
    });
    expect(res.status).toBe(401);
  });
});
