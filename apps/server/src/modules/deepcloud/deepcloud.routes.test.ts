import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { freePort } from '../../test/idp.ts';
import { createSecrets, parseSecretsKeys } from '../../secrets/secrets.ts';
import { describeApi, TEST_SECRETS_KEYS, type TestApi } from '../../test/api.ts';
import { FAKE_CLOUD_PERSON, FAKE_ORGANIZATIONS, startFakeCloud } from '../../test/fake-cloud.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import { createCloudService } from './deepcloud.service.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const BEISPIEL = DEMO_ACCOUNTS.beispiel;
const base = (account: string) => `/api/accounts/${account}/deep-cloud/v1`;
const REDIRECT_URI = 'http://portal.test/deepcloud/connect';

// The cloud's authorization server and API on a local port: the server talks to it over HTTP.
const cloud = await startFakeCloud({ redirectUri: REDIRECT_URI });
afterAll(() => cloud.close());

/** Every line the cloud module logged through the request's logger in this suite. */
const logged: string[] = [];

/** A logger that keeps what it is given (as JSON), in place of the request's own. */
function capturingLogger(): FastifyBaseLogger {
  const keep =
    (level: string) =>
    (object: unknown, message?: string): void => {
      logged.push(
        JSON.stringify({ level, object, message }, (_key, value: unknown) =>
          value instanceof Error ? { message: value.message, stack: value.stack } : value,
        ),
      );
    };
  const logger = {
    level: 'info',
    info: keep('info'),
    warn: keep('warn'),
    error: keep('error'),
    fatal: keep('fatal'),
    debug: keep('debug'),
    trace: keep('trace'),
    silent: () => undefined,
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}

function pkce() {
  const verifier = crypto.randomBytes(48).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

/** The person signed in at the cloud; the callback posts the code and the verifier as the browser would. */
function connect(api: TestApi, as: 'owner' | 'admin' | 'employee' = 'admin', account: string = MUSTER) {
  const { verifier, challenge } = pkce();
  const code = cloud.issueCode(challenge);
  return api.request('POST', `${base(account)}/auth`, { as, body: { code, pkceCodeVerifier: verifier } });
}

async function storedRows(api: TestApi, account = MUSTER) {
  const { rows } = await api.db.query<{
    uuid: string;
    status: string;
    access_token: string;
    refresh_token: string | null;
  }>('select uuid, status, access_token, refresh_token from cloud_connections where account_uuid = $1', [
    account,
  ]);
  return rows;
}

/** The access token is about to expire (as if time had passed). */
const expireAccessToken = (api: TestApi, seconds = 0) =>
  api.db.query(
    `update cloud_connections set access_expires_at = now() + make_interval(secs => $2::float8)
     where account_uuid = $1`,
    [MUSTER, seconds],
  );

describeApi(
  'cloud connection API',
  (api) => {
    beforeEach(() => {
      cloud.revocationDown = false;
    });

    it('tells the page where to start connecting: the issuer’s authorization endpoint, client and scopes', async () => {
      const state = await api.request('GET', `${base(MUSTER)}/connection`, { as: 'employee' });
      expect(state.statusCode).toBe(200);
      expect(state.json().data).toEqual({
        authorization: {
          authorizationEndpoint: `${cloud.url}/authorize`,
          clientId: 'portal-test',
          scope: 'openid profile email offline_access organizations',
          redirectUri: REDIRECT_URI,
        },
        connection: null,
      });
    });

    it('refuses a code with the wrong verifier (422) and stores nothing', async () => {
      const code = cloud.issueCode(pkce().challenge);
      const refused = await api.request('POST', `${base(MUSTER)}/auth`, {
        as: 'admin',
        body: { code, pkceCodeVerifier: pkce().verifier },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().code).toBe('CLOUD_CODE_REFUSED');
      expect(cloud.grants.at(-1)).toEqual({ grantType: 'authorization_code', status: 400 });
      expect(await storedRows(api)).toEqual([]);
      expect((await api.audit(MUSTER)).filter((entry) => entry.action.startsWith('cloud.'))).toEqual([]);
    });

    it('refuses connecting and disconnecting to an employee (403), who may read the state', async () => {
      expect((await connect(api, 'employee')).statusCode).toBe(403);
      expect((await api.request('DELETE', `${base(MUSTER)}/connection`, { as: 'employee' })).statusCode).toBe(
        403,
      );
      expect(await storedRows(api)).toEqual([]);
    });

    it('answers 404 for an account the caller does not belong to', async () => {
      expect((await connect(api, 'admin', BEISPIEL)).statusCode).toBe(404);
      for (const [method, path] of [
        ['GET', '/connection'],
        ['GET', '/organizations'],
        ['DELETE', '/connection'],
      ] as const) {
        expect((await api.request(method, `${base(BEISPIEL)}${path}`, { as: 'admin' })).statusCode).toBe(404);
      }
    });

    it('lists organisations only once connected (409)', async () => {
      const none = await api.request('GET', `${base(MUSTER)}/organizations`, { as: 'admin' });
      expect(none.statusCode).toBe(409);
      expect(none.json().code).toBe('CLOUD_NOT_CONNECTED');
    });

    it('connects with the verifier: tokens sealed, the cloud person from the verified ID token, audited', async () => {
      const connected = await connect(api, 'admin');
      expect(connected.statusCode).toBe(201);
      const connection = connected.json().data;
      expect(connection).toMatchObject({
        status: 'CONNECTED',
        connectedBy: { uuid: DEMO_USERS.admin.id, name: DEMO_USERS.admin.name },
        cloudUser: {
          subject: FAKE_CLOUD_PERSON.subject,
          name: FAKE_CLOUD_PERSON.name,
          email: FAKE_CLOUD_PERSON.email,
        },
        scopes: ['openid', 'profile', 'email', 'organizations'],
      });
      const [row] = await storedRows(api);
      expect(row!.uuid).toBe(connection.uuid);
      expect(row!.access_token).toMatch(/^enc:v1:/);
      expect(row!.refresh_token).toMatch(/^enc:v1:/);
      expect(cloud.issued.some((token) => row!.access_token.includes(token))).toBe(false);
      const [entry] = await api.audit(MUSTER);
      expect(entry).toMatchObject({
        action: 'cloud.connected',
        actor_uuid: DEMO_USERS.admin.id,
        target: `cloud_connection:${connection.uuid}`,
      });

      const state = await api.request('GET', `${base(MUSTER)}/connection`, { as: 'employee' });
      expect(state.json().data.connection).toEqual(connection);
    });

    it('lists the organisations the connection reaches, also to an employee', async () => {
      const listed = await api.request('GET', `${base(MUSTER)}/organizations`, { as: 'employee' });
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toEqual({
        data: FAKE_ORGANIZATIONS,
        meta: { total: 2, page: 1, pageSize: 2 },
      });
    });

    it('refreshes an access token that expires within a minute before using it', async () => {
      await expireAccessToken(api, 30);
      const before = (await storedRows(api))[0]!;
      const grants = cloud.grants.length;
      const listed = await api.request('GET', `${base(MUSTER)}/organizations`, { as: 'admin' });
      expect(listed.statusCode).toBe(200);
      expect(cloud.grants.slice(grants)).toEqual([{ grantType: 'refresh_token', status: 200 }]);
      const after = (await storedRows(api))[0]!;
      expect(after.access_token).not.toBe(before.access_token);
      expect(after.refresh_token).not.toBe(before.refresh_token);
    });

    it('refreshes tokens about to expire in the recurring job', async () => {
      await expireAccessToken(api, 120);
      const grants = cloud.grants.length;
      await api.db.query(
        `update jobs set run_at = now() where kind = 'cloud.refresh-tokens' and state = 'pending'`,
      );
      await api.app.jobs.drain();
      expect(cloud.grants.slice(grants)).toEqual([{ grantType: 'refresh_token', status: 200 }]);
      const { rows } = await api.db.query<{ later: boolean }>(
        `select access_expires_at > now() + interval '4 minutes' as later from cloud_connections where account_uuid = $1`,
        [MUSTER],
      );
      expect(rows[0]!.later).toBe(true);
    });

    it('cancels the call to the cloud when the caller aborts the request', async () => {
      const hanging = cloud.hangNext();
      await api.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = api.app.server.address() as AddressInfo;
      const controller = new AbortController();
      const answer = fetch(`http://127.0.0.1:${port}${base(MUSTER)}/organizations`, {
        headers: { authorization: `Bearer ${await api.token('admin')}` },
        signal: controller.signal,
      }).catch((error: unknown) => error);
      await hanging.started;
      controller.abort();
      // The server closes its call to the cloud: the hanging endpoint sees its connection end.
      await hanging.closed;
      expect(await answer).toBeInstanceOf(Error);
      // Well before the call's own timeout (10 s) would have closed it.
    }, 5_000);

    it('replacing the connection revokes the old tokens at the cloud', async () => {
      const old = (await storedRows(api))[0]!;
      const revoked = cloud.revoked.length;
      const replaced = await connect(api, 'owner');
      expect(replaced.statusCode).toBe(201);
      expect(replaced.json().data.uuid).not.toBe(old.uuid);
      expect(replaced.json().data.connectedBy.uuid).toBe(DEMO_USERS.owner.id);
      expect(await storedRows(api)).toHaveLength(1);
      expect(cloud.revoked.slice(revoked).map((entry) => entry.hint)).toEqual([
        'refresh_token',
        'access_token',
      ]);
      const [entry] = await api.audit(MUSTER);
      expect(entry!.action).toBe('cloud.connected');
    });

    it('a refresh the cloud refuses (invalid_grant) leaves the connection needing a reconnect', async () => {
      cloud.dropRefreshTokens();
      await expireAccessToken(api, 0);
      const listed = await api.request('GET', `${base(MUSTER)}/organizations`, { as: 'admin' });
      expect(listed.statusCode).toBe(409);
      expect(listed.json().code).toBe('CLOUD_NEEDS_RECONNECT');
      expect(cloud.grants.at(-1)).toEqual({ grantType: 'refresh_token', status: 400 });
      const state = await api.request('GET', `${base(MUSTER)}/connection`, { as: 'admin' });
      expect(state.json().data.connection.status).toBe('NEEDS_RECONNECT');
      // The account's owner and admins hear of it once, in the inbox and by mail; the employee does not.
      const { rows } = await api.db.query<{ user_uuid: string }>(
        `select user_uuid from notifications where type = 'cloud.needs_reconnect' and params->>'connectionUuid' = $1
          order by user_uuid`,
        [state.json().data.connection.uuid],
      );
      expect(rows.map((row) => row.user_uuid).sort()).toEqual(
        [DEMO_USERS.admin.id, DEMO_USERS.owner.id].sort(),
      );
      const mails = await api.mailsTo(DEMO_USERS.admin.email);
      expect(mails.at(-1)!.text_body).toContain('Muster AG');
      expect((await api.request('GET', `${base(MUSTER)}/organizations`, { as: 'admin' })).statusCode).toBe(
        409,
      );
      const again = await api.db.query(`select 1 from notifications where type = 'cloud.needs_reconnect'`);
      expect(again.rows).toHaveLength(2);
      // A new connect repairs it.
      expect((await connect(api, 'admin')).json().data.status).toBe('CONNECTED');
    });

    it('disconnects: revokes refresh and access token at the cloud, deletes the connection, audited', async () => {
      const revoked = cloud.revoked.length;
      const row = (await storedRows(api))[0]!;
      const gone = await api.request('DELETE', `${base(MUSTER)}/connection`, { as: 'admin' });
      expect(gone.statusCode).toBe(204);
      const calls = cloud.revoked.slice(revoked);
      expect(calls.map((entry) => entry.hint)).toEqual(['refresh_token', 'access_token']);
      expect(calls.every((entry) => cloud.issued.includes(entry.token))).toBe(true);
      expect(await storedRows(api)).toEqual([]);
      const [entry] = await api.audit(MUSTER);
      expect(entry).toMatchObject({ action: 'cloud.disconnected', target: `cloud_connection:${row.uuid}` });
      // Nothing left to disconnect: a repeated disconnect succeeds without another entry or revocation.
      const again = await api.request('DELETE', `${base(MUSTER)}/connection`, { as: 'admin' });
      expect(again.statusCode).toBe(204);
      expect((await api.audit(MUSTER))[0]!.action).toBe('cloud.disconnected');
      expect((await api.audit(MUSTER))[1]!.action).toBe('cloud.connected');
      expect(cloud.revoked.length).toBe(revoked + 2);
    });

    it('disconnects even when the cloud cannot revoke, with a warning that names no token', async () => {
      expect((await connect(api, 'admin')).statusCode).toBe(201);
      cloud.revocationDown = true;
      const from = logged.length;
      const gone = await api.request('DELETE', `${base(MUSTER)}/connection`, { as: 'admin' });
      expect(gone.statusCode).toBe(204);
      expect(await storedRows(api)).toEqual([]);
      const warnings = logged.slice(from).filter((line) => line.includes('could not be revoked'));
      expect(warnings).toHaveLength(2);
    });

    it('logs failed exchanges and refreshes without any token, and answers none', async () => {
      // A refused exchange and a refused refresh, each logged.
      const { verifier } = pkce();
      const code = cloud.issueCode(pkce().challenge);
      const from = logged.length;
      await api.request('POST', `${base(MUSTER)}/auth`, {
        as: 'admin',
        body: { code, pkceCodeVerifier: verifier },
      });
      expect((await connect(api, 'admin')).statusCode).toBe(201);
      cloud.dropRefreshTokens();
      await expireAccessToken(api, 0);
      await api.request('GET', `${base(MUSTER)}/organizations`, { as: 'admin' });
      const lines = logged.slice(from);
      expect(lines.some((line) => line.includes('cloud code exchange failed'))).toBe(true);
      expect(lines.some((line) => line.includes('needs reconnecting'))).toBe(true);
      for (const token of [...cloud.issued, code, verifier]) {
        for (const line of logged) expect(line).not.toContain(token);
      }
      // Answers are checked by the suite's secret-leak guard (every sealed token, every answer).
    });

    it('seals the stored tokens again with the new key after a change of SECRETS_KEYS', async () => {
      expect((await connect(api, 'admin')).statusCode).toBe(201);
      const [current] = parseSecretsKeys(TEST_SECRETS_KEYS);
      const added = { id: 'k2', key: crypto.randomBytes(32) };
      const rotated = createCloudService({
        db: api.db,
        secrets: createSecrets([added, current!]),
        // Re-sealing calls neither the cloud nor anyone's inbox.
        notifier: {} as Notifier,
        client: null,
      });
      expect(await rotated.resealStale()).toBeGreaterThanOrEqual(1);
      const [row] = await storedRows(api);
      expect(row!.access_token).toMatch(/^enc:v1:k2:/);
      expect(row!.refresh_token).toMatch(/^enc:v1:k2:/);
      // Only the new key is needed now: the old one can go.
      const onlyNew = createSecrets([added]);
      expect(cloud.issued).toContain(onlyNew.open(row!.refresh_token!, `cloud_connections:${row!.uuid}`));
      expect(await rotated.resealStale()).toBe(0);
      // Back to the suite's key for whatever runs after.
      const back = createCloudService({
        db: api.db,
        secrets: createSecrets([current!, added]),
        // Re-sealing calls neither the cloud nor anyone's inbox.
        notifier: {} as Notifier,
        client: null,
      });
      expect(await back.resealStale()).toBeGreaterThanOrEqual(1);
    });
  },
  {
    env: { CLOUD_ISSUER: cloud.url, CLOUD_CLIENT_ID: 'portal-test' },
    prepare: (app) => {
      const logger = capturingLogger();
      app.addHook('onRequest', async (request) => {
        request.log = logger;
      });
    },
  },
);

describeApi('cloud connection API without a cloud', (api) => {
  it('answers no authorization and refuses connecting (409)', async () => {
    const state = await api.request('GET', `${base(MUSTER)}/connection`, { as: 'admin' });
    expect(state.json().data).toEqual({ authorization: null, connection: null });
    const refused = await connect(api, 'admin');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('CLOUD_NOT_CONFIGURED');
    const listed = await api.request('GET', `${base(MUSTER)}/organizations`, { as: 'admin' });
    expect(listed.json().code).toBe('CLOUD_NOT_CONFIGURED');
  });
});

// A cloud that does not answer: a port nothing listens on.
const silentPort = await freePort();

describeApi(
  'cloud connection API with the cloud out of reach',
  (api) => {
    it('answers 502 for the state and for connecting, and stores nothing', async () => {
      const state = await api.request('GET', `${base(MUSTER)}/connection`, { as: 'admin' });
      expect(state.statusCode).toBe(502);
      expect(state.json().code).toBe('CLOUD_UNREACHABLE');
      const refused = await connect(api, 'admin');
      expect(refused.statusCode).toBe(502);
      expect(refused.json().code).toBe('CLOUD_UNREACHABLE');
      expect(await storedRows(api)).toEqual([]);
    });
  },
  { env: { CLOUD_ISSUER: `http://127.0.0.1:${silentPort}`, CLOUD_CLIENT_ID: 'portal-test' } },
);
