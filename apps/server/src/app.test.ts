import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './db/demo-users.ts';
import { CookieJar, freePort, signIn } from './idp/test-support.ts';
import { freshDatabase } from './test/api.ts';

// The whole seam on one server: the embedded provider issues the token, the API verifies it with the
// provider's keys from the database and knows the demo user.
describe('embedded identity provider and API together', () => {
  let app: FastifyInstance;
  let base: string;
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
    base = config.publicUrl;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  it('signs in owner@example.com and reads /api/users/v1/me with the access token', async () => {
    const idp = { app, config: app.config, base, port: Number(new URL(base).port) };
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
    const idp = { app, config: app.config, base, port: Number(new URL(base).port) };
    const { tokens } = await signIn(idp, new CookieJar(), 'admin@example.com', DEMO_PASSWORD);
    const res = await fetch(`${base}/api/users/v1/me`, {
      headers: { authorization: `Bearer ${tokens.body.id_token}` },
    });
    expect(res.status).toBe(401);
  });
});
