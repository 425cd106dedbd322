import { expect, it } from 'vitest';
import { PASSKEYS_MAX, type Passkey } from '@portal/contract';
import { DEMO_USERS } from '../../demo/users.ts';
import { describeApi, type DemoLogin, type TestApi } from '../../test/api.ts';
import { SoftAuthenticator } from '../../test/soft-authenticator.ts';

const BASE = '/api/users/v1/me/security/passkeys';

/** Asks for registration options as `as` and answers them with `authenticator`. */
async function register(
  api: TestApi,
  as: DemoLogin,
  authenticator: SoftAuthenticator,
  name = 'Laptop',
  origin?: string,
) {
  const options = await api.request('POST', `${BASE}/registration-options`, { as });
  expect(options.statusCode).toBe(200);
  const response = authenticator.register(options.json().data, { origin });
  return api.request('POST', BASE, { as, body: { name, response } });
}

describeApi(
  'security: passkeys',
  (api) => {
    const origin = 'http://portal.test';

    it('offers registration options for this site: a discoverable passkey, the person verified', async () => {
      const response = await api.request('POST', `${BASE}/registration-options`, { as: 'coach' });
      expect(response.statusCode).toBe(200);
      const options = response.json().data;
      expect(options.rp).toEqual({ id: 'portal.test', name: api.config.productName });
      expect(options.user.name).toBe(DEMO_USERS.coach.email);
      expect(options.authenticatorSelection).toMatchObject({
        residentKey: 'required',
        userVerification: 'required',
      });
      expect(options.attestation).toBe('none');
      expect(options.excludeCredentials).toEqual([]);
    });

    it('registers a passkey with its name, lists it, mails the person and excludes it next time', async () => {
      const authenticator = new SoftAuthenticator(origin);
      const created = await register(api, 'coach', authenticator, '  MacBook  ');
      expect(created.statusCode).toBe(201);
      const passkey: Passkey = created.json().data;
      expect(passkey).toMatchObject({ name: 'MacBook', lastUsedAt: null, backedUp: false });

      const list = await api.request('GET', BASE, { as: 'coach' });
      expect(list.json().data).toEqual([passkey]);
      const overview = await api.request('GET', '/api/users/v1/me/security', { as: 'coach' });
      expect(overview.json().data).toMatchObject({ passkeyCount: 1, hasSecondFactor: true });

      const mails = await api.mailsTo(DEMO_USERS.coach.email);
      const mail = mails.at(-1)!;
      expect(mail.subject).toContain('Neuer Passkey hinzugefügt');
      expect(mail.text_body).toContain('Name: MacBook');
      expect(mail.text_body).toMatch(/Zeitpunkt: \d{1,2}\. \p{L}+ \d{4}/u);

      const again = await api.request('POST', `${BASE}/registration-options`, { as: 'coach' });
      expect(again.json().data.excludeCredentials).toEqual([
        {
          id: authenticator.credentials[0]!.id.toString('base64url'),
          type: 'public-key',
          transports: ['internal'],
        },
      ]);
    });

    it('refuses an answer from another origin, to another challenge, or a challenge used twice', async () => {
      const authenticator = new SoftAuthenticator(origin);
      expect(
        (await register(api, 'employee', authenticator, 'Phishing', 'http://evil.test')).statusCode,
      ).toBe(400);

      const options = await api.request('POST', `${BASE}/registration-options`, { as: 'employee' });
      const response = authenticator.register(options.json().data);
      const first = await api.request('POST', BASE, { as: 'employee', body: { name: 'Eins', response } });
      expect(first.statusCode).toBe(201);
      const replay = authenticator.register(options.json().data);
      const second = await api.request('POST', BASE, {
        as: 'employee',
        body: { name: 'Zwei', response: replay },
      });
      expect(second.statusCode).toBe(400);
      expect(second.json().code).toBe('PASSKEY_INVALID');

      // Another person's challenge is not this person's.
      const foreign = await api.request('POST', `${BASE}/registration-options`, { as: 'admin' });
      const stolen = authenticator.register(foreign.json().data);
      const refused = await api.request('POST', BASE, {
        as: 'employee',
        body: { name: 'Drei', response: stolen },
      });
      expect(refused.statusCode).toBe(400);
      expect((await api.request('GET', BASE, { as: 'employee' })).json().data).toHaveLength(1);
    });

    it('renames and removes only the person’s own passkeys; another person’s is not found', async () => {
      const authenticator = new SoftAuthenticator(origin);
      const created = (await register(api, 'admin', authenticator, 'YubiKey')).json().data as Passkey;

      const renamed = await api.request('PATCH', `${BASE}/${created.id}`, {
        as: 'admin',
        body: { name: 'YubiKey blau' },
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().data.name).toBe('YubiKey blau');

      for (const [method, body] of [
        ['PATCH', { name: 'Mine' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await api.request(method, `${BASE}/${created.id}`, { as: 'owner', body });
        expect(response.statusCode).toBe(404);
      }
      const unknown = await api.request('DELETE', `${BASE}/6f1c2b1e-0002-4000-8000-0000000000ff`, {
        as: 'admin',
      });
      expect(unknown.statusCode).toBe(404);

      const removed = await api.request('DELETE', `${BASE}/${created.id}`, { as: 'admin' });
      expect(removed.statusCode).toBe(204);
      expect((await api.request('GET', BASE, { as: 'admin' })).json().data).toEqual([]);
    });

    it('wants a name of 1 to 60 characters', async () => {
      const authenticator = new SoftAuthenticator(origin);
      for (const name of ['', '   ', 'x'.repeat(61)]) {
        const response = await register(api, 'owner', authenticator, name);
        expect(response.statusCode).toBe(422);
      }
      expect((await register(api, 'owner', authenticator, 'x'.repeat(60))).statusCode).toBe(201);
      const [passkey] = (await api.request('GET', BASE, { as: 'owner' })).json().data as Passkey[];
      const blank = await api.request('PATCH', `${BASE}/${passkey!.id}`, {
        as: 'owner',
        body: { name: ' ' },
      });
      expect(blank.statusCode).toBe(422);
      await api.request('DELETE', `${BASE}/${passkey!.id}`, { as: 'owner' });
    });

    it(`allows at most ${PASSKEYS_MAX} passkeys per person`, async () => {
      const authenticator = new SoftAuthenticator(origin);
      for (let i = 1; i <= PASSKEYS_MAX; i++) {
        const options = await api.request('POST', `${BASE}/registration-options`, { as: 'newowner' });
        const response = authenticator.register(options.json().data);
        const created = await api.request('POST', BASE, {
          as: 'newowner',
          body: { name: `Key ${i}`, response },
        });
        expect(created.statusCode).toBe(201);
      }
      const over = await register(api, 'newowner', authenticator, 'One too many');
      expect(over.statusCode).toBe(422);
      expect(over.json().code).toBe('PASSKEY_LIMIT');
    });
  },
  { embeddedIdp: true },
);

describeApi('security: passkeys with an external Keycloak', (api) => {
  it('answers 409 with a code saying the external service keeps them', async () => {
    for (const [method, path] of [
      ['GET', BASE],
      ['POST', `${BASE}/registration-options`],
    ] as const) {
      const response = await api.request(method, path, { as: 'owner' });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('SIGN_IN_MANAGED_EXTERNALLY');
    }
  });
});
