import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_USERS } from '../../demo/users.ts';
import { demoOrganizations } from '../../idp/deepcloud-realm.ts';
import {
  CookieJar,
  follow,
  formAction,
  freePort,
  localConfig,
  request,
  signIn,
  type TestIdp,
} from '../../test/idp.ts';
import { freshDatabase } from '../../test/api.ts';

// The whole flow on one server in demo mode: the embedded cloud realm plays the cloud, and the server reaches it
// through PUBLIC_URL as it would reach an external issuer.

const MUSTER = DEMO_ACCOUNTS.muster;
const XSRF = 'embedded-cloud-xsrf';

describe('cloud connection against the embedded cloud realm', () => {
  let app: FastifyInstance;
  let server: TestIdp;
  let drop: () => Promise<void>;
  let portalToken: string;

  beforeAll(async () => {
    const database = await freshDatabase('pglite');
    drop = database.drop;
    const port = await freePort();
    const config = localConfig(port, { WEB_DIST: '/nonexistent-web-dist' });
    expect(config.cloud?.embedded).toBe(true);
    app = await buildApp(config, { db: database.db });
    await app.listen({ host: '127.0.0.1', port });
    server = { app, config, base: config.publicUrl, port, jobs: app.jobs };
    const portal = await signIn(server, new CookieJar(), DEMO_USERS.admin.email, DEMO_PASSWORD);
    portalToken = portal.tokens.body.access_token!;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${server.base}/api/accounts/${MUSTER}/deep-cloud/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${portalToken}`,
        cookie: `XSRF-TOKEN=${XSRF}`,
        'x-xsrf-token': XSRF,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });

  it('connects through the cloud’s sign-in, lists the person’s organisations and disconnects', async () => {
    const state = (await (await api('GET', '/connection')).json()) as {
      data: {
        authorization: {
          authorizationEndpoint: string;
          clientId: string;
          scope: string;
          redirectUri: string;
        };
      };
    };
    const { authorization } = state.data;
    expect(authorization.authorizationEndpoint).toBe(
      `${server.base}/realms/cloud/protocol/openid-connect/auth`,
    );

    // The browser: state and verifier, off to the cloud's sign-in, back at the portal's connect page.
    const verifier = crypto.randomBytes(48).toString('base64url');
    const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL(authorization.authorizationEndpoint);
    authorize.search = new URLSearchParams({
      client_id: authorization.clientId,
      redirect_uri: authorization.redirectUri,
      response_type: 'code',
      scope: authorization.scope,
      state: 'embedded-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    const jar = new CookieJar();
    const page = await follow(server, await request(authorize.href, jar), jar, '/realms/cloud');
    const posted = await request(
      new URL(formAction(await page.text(), 'kc-form-login'), server.base).href,
      jar,
      {
        form: { username: DEMO_USERS.owner.email, password: DEMO_PASSWORD },
      },
    );
    const back = new URL((await follow(server, posted, jar, '/realms/cloud')).headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${server.base}/deepcloud/connect`);
    const code = back.searchParams.get('code')!;

    const connected = await api('POST', '/auth', { code, pkceCodeVerifier: verifier });
    expect(connected.status).toBe(201);
    const connection = ((await connected.json()) as { data: Record<string, unknown> }).data;
    expect(connection).toMatchObject({
      status: 'CONNECTED',
      connectedBy: { uuid: DEMO_USERS.admin.id },
      cloudUser: { email: DEMO_USERS.owner.email, name: DEMO_USERS.owner.name },
    });

    const listed = await api('GET', '/organizations');
    expect(listed.status).toBe(200);
    const organizations = ((await listed.json()) as { data: unknown[] }).data;
    expect(organizations).toEqual(demoOrganizations(DEMO_USERS.owner.email));

    // The code is spent: posting it again is refused, and the connection stays.
    const again = await api('POST', '/auth', { code, pkceCodeVerifier: verifier });
    expect(again.status).toBe(422);

    expect((await api('DELETE', '/connection')).status).toBe(204);
    const after = (await (await api('GET', '/connection')).json()) as { data: { connection: unknown } };
    expect(after.data.connection).toBeNull();
    // The revoked grant no longer yields tokens: nothing of it is left at the cloud.
    const { rows } = await app.db.query<{ count: number }>(
      `select count(*)::int as count from idp_payloads where model = 'cloud:RefreshToken'`,
    );
    expect(rows[0]!.count).toBe(0);
  });
});
