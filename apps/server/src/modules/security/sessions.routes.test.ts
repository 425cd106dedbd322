import type { AdapterPayload } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../demo/users.ts';
import { DbAdapter } from '../../idp/adapter.ts';
import { recordSessionUse } from '../../idp/sessions.ts';
import { describeApi, type TestApi } from '../../test/api.ts';

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/**
 * A sign-in session as the provider stores it (its adapter): the SSO session, the portal client's grant signed in
 * through it and a refresh token of that grant, then the browser's first use of it.
 */
async function signedIn(
  api: TestApi,
  identityId: string,
  uid: string,
  options: { userAgent?: string; address?: string; expiresIn?: number } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  const grantId = `grant-${uid}`;
  const store = (model: string, id: string, payload: object, expiresIn = 600) =>
    new DbAdapter(api.db, model).upsert(id, payload as AdapterPayload, expiresIn);
  await store('Grant', grantId, { accountId: identityId, clientId: 'portal' });
  await store('RefreshToken', `refresh-${uid}`, { accountId: identityId, grantId, sessionUid: uid });
  await store(
    'Session',
    `cookie-${uid}`,
    { uid, accountId: identityId, loginTs: now - 120, authorizations: { portal: { grantId } } },
    options.expiresIn ?? 600,
  );
  await recordSessionUse(api.db, uid, { userAgent: options.userAgent, clientAddress: options.address });
}

/** A request as the browser of session `sid` makes it (its access token names the session). */
async function asSession(api: TestApi, sid: string, as: 'owner' | 'admin' = 'owner') {
  return { token: await api.token(as, { claims: { sid } }) };
}

/** Signs session `id` out, from the browser of session `sid`. */
async function endFrom(api: TestApi, id: string, sid: string) {
  return api.request('DELETE', `/api/users/v1/me/security/sessions/${id}`, await asSession(api, sid));
}

async function refreshTokenExists(api: TestApi, uid: string) {
  const { rows } = await api.db.query(`select 1 from idp_payloads where model = 'RefreshToken' and id = $1`, [
    `refresh-${uid}`,
  ]);
  return rows.length > 0;
}

const idsOf = (response: { json(): { data: { id: string }[] } }) =>
  response.json().data.map((session) => session.id);

describeApi(
  'sign-in sessions',
  (api) => {
    const owner = DEMO_USERS.owner.id;

    it("lists the person's active sessions with browser, system, address and times, this one marked", async () => {
      await signedIn(api, owner, 'list-laptop', { userAgent: FIREFOX, address: '192.0.2.10' });
      await signedIn(api, owner, 'list-phone', { userAgent: SAFARI, address: '2001:db8::7' });
      // Expired, and another person's: not listed.
      await signedIn(api, owner, 'list-expired', { expiresIn: -1 });
      await signedIn(api, DEMO_USERS.admin.id, 'list-admin', { userAgent: FIREFOX });

      const response = await api.request(
        'GET',
        '/api/users/v1/me/security/sessions',
        await asSession(api, 'list-phone'),
      );
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.meta.total).toBe(2);
      const byId = Object.fromEntries(body.data.map((session: { id: string }) => [session.id, session]));
      expect(Object.keys(byId).sort()).toEqual(['list-laptop', 'list-phone']);
      expect(byId['list-laptop']).toMatchObject({
        browser: 'Firefox 133',
        system: 'Windows 10',
        clientAddress: '192.0.2.10',
        current: false,
      });
      expect(byId['list-phone']).toMatchObject({ browser: 'Safari 17', system: 'iOS', current: true });
      const startedAt = Date.parse(byId['list-phone'].startedAt);
      expect(Math.abs(startedAt - (Date.now() - 120_000))).toBeLessThan(5_000);
      expect(Date.parse(byId['list-phone'].lastActiveAt)).toBeGreaterThanOrEqual(startedAt);
    });

    it('moves "last active", browser and address to the latest use of the session', async () => {
      await signedIn(api, owner, 'use-tablet', { userAgent: FIREFOX, address: '192.0.2.20' });
      await api.db.query(
        `update idp_session_details set last_active_at = now() - interval '1 hour' where session_uid = $1`,
        ['use-tablet'],
      );
      await recordSessionUse(api.db, 'use-tablet', { clientAddress: '198.51.100.4' });
      const response = await api.request('GET', '/api/users/v1/me/security/sessions', { as: 'owner' });
      const tablet = response.json().data.find((session: { id: string }) => session.id === 'use-tablet');
      expect(tablet).toMatchObject({ clientAddress: '198.51.100.4', browser: 'Firefox 133' });
      expect(Date.now() - Date.parse(tablet.lastActiveAt)).toBeLessThan(60_000);
    });

    it('signs one session out: it is gone and its refresh token with it; others stay', async () => {
      await signedIn(api, owner, 'end-a');
      await signedIn(api, owner, 'end-b');
      const response = await endFrom(api, 'end-a', 'end-b');
      expect(response.statusCode).toBe(204);
      expect(await refreshTokenExists(api, 'end-a')).toBe(false);
      expect(await refreshTokenExists(api, 'end-b')).toBe(true);
      const { rows } = await api.db.query('select 1 from idp_session_details where session_uid = $1', [
        'end-a',
      ]);
      expect(rows).toHaveLength(0);
      const list = await api.request('GET', '/api/users/v1/me/security/sessions', { as: 'owner' });
      expect(idsOf(list)).not.toContain('end-a');
      expect(idsOf(list)).toContain('end-b');
    });

    it("answers 404 for another person's session and an unknown one, and ends neither", async () => {
      await signedIn(api, DEMO_USERS.admin.id, 'foreign-session');
      for (const id of ['foreign-session', 'no-such-session']) {
        const response = await api.request('DELETE', `/api/users/v1/me/security/sessions/${id}`, {
          as: 'owner',
        });
        expect(response.statusCode).toBe(404);
      }
      expect(await refreshTokenExists(api, 'foreign-session')).toBe(true);
    });

    it('refuses a session id that is no session id', async () => {
      const response = await api.request('DELETE', '/api/users/v1/me/security/sessions/a.b', { as: 'owner' });
      expect(response.statusCode).toBe(400);
    });

    it('lets the person sign out the session they are using', async () => {
      await signedIn(api, owner, 'own-current');
      const response = await endFrom(api, 'own-current', 'own-current');
      expect(response.statusCode).toBe(204);
      expect(await refreshTokenExists(api, 'own-current')).toBe(false);
    });

    it('signs out everywhere else: every other session of the person ends, this one and other people stay', async () => {
      await signedIn(api, owner, 'all-here');
      await signedIn(api, owner, 'all-there');
      await signedIn(api, owner, 'all-elsewhere');
      await signedIn(api, DEMO_USERS.admin.id, 'all-admin');
      const response = await api.request(
        'POST',
        '/api/users/v1/me/security/sessions/sign-out-others',
        await asSession(api, 'all-here'),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json().data.ended).toBeGreaterThanOrEqual(2);
      const list = await api.request(
        'GET',
        '/api/users/v1/me/security/sessions',
        await asSession(api, 'all-here'),
      );
      expect(idsOf(list)).toEqual(['all-here']);
      expect(list.json().data[0].current).toBe(true);
      expect(await refreshTokenExists(api, 'all-there')).toBe(false);
      expect(await refreshTokenExists(api, 'all-admin')).toBe(true);
    });

    it('keeps everything in the database: a session ended on one instance is gone on the other (PostgreSQL)', async ({
      skip,
    }) => {
      if (api.backend !== 'postgres') skip();
      const second = await api.secondInstance();
      await signedIn(api, owner, 'two-a', { userAgent: FIREFOX });
      await signedIn(api, owner, 'two-b', { userAgent: SAFARI });
      const headers = { authorization: `Bearer ${(await asSession(api, 'two-a')).token}` };
      const listed = await second.inject({
        method: 'GET',
        url: '/api/users/v1/me/security/sessions',
        headers,
      });
      expect(idsOf(listed)).toEqual(expect.arrayContaining(['two-a', 'two-b']));

      const ended = await endFrom(api, 'two-b', 'two-a');
      expect(ended.statusCode).toBe(204);
      const after = await second.inject({
        method: 'GET',
        url: '/api/users/v1/me/security/sessions',
        headers,
      });
      expect(idsOf(after)).toContain('two-a');
      expect(idsOf(after)).not.toContain('two-b');
    });

    it('needs a sign-in', async () => {
      expect((await api.request('GET', '/api/users/v1/me/security/sessions')).statusCode).toBe(401);
    });
  },
  { embeddedIdp: true },
);

describeApi('sign-in sessions with an external Keycloak', (api) => {
  describe('every sessions route', () => {
    it("answers 409 with a code of its own: the realm's account console keeps the sessions", async () => {
      const calls = [
        ['GET', '/api/users/v1/me/security/sessions'],
        ['DELETE', '/api/users/v1/me/security/sessions/some-session'],
        ['POST', '/api/users/v1/me/security/sessions/sign-out-others'],
      ] as const;
      for (const [method, url] of calls) {
        const response = await api.request(method, url, { as: 'owner' });
        expect(response.statusCode).toBe(409);
        expect(response.json().code).toBe('SIGN_IN_MANAGED_EXTERNALLY');
      }
    });
  });
});
