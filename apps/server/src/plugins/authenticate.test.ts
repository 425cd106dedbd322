import { expect, it } from 'vitest';
import { describeApi } from '../test/api.ts';

describeApi('token checks', (api) => {
  const me = (headers: Record<string, string>) => api.request('GET', '/api/users/v1/me', { headers });

  it('answers 401 JSON without a token', async () => {
    const res = await api.request('GET', '/api/users/v1/me');
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
  });

  it('answers 401 for a malformed header or token', async () => {
    expect((await me({ authorization: 'Basic b3duZXI6cHc=' })).statusCode).toBe(401);
    expect((await me({ authorization: 'Bearer' })).statusCode).toBe(401);
    expect((await me({ authorization: 'Bearer not.a.jwt' })).statusCode).toBe(401);
  });

  it('accepts the scheme in any case (keycloak-js sends "bearer")', async () => {
    const token = await api.token('owner');
    expect((await me({ authorization: `bearer ${token}` })).statusCode).toBe(200);
    expect((await me({ authorization: `BEARER ${token}` })).statusCode).toBe(200);
  });

  it('answers 401 for an expired token', async () => {
    const token = await api.token('owner', { expiresIn: -60 });
    const res = await me({ authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('TOKEN_EXPIRED');
  });

  it('refuses a token it accepted before once the token has expired (verified tokens are remembered)', async () => {
    const token = await api.token('owner', { expiresIn: 2 });
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(200);
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(200);
    await expect
      .poll(async () => (await me({ authorization: `Bearer ${token}` })).json().code, {
        timeout: 5_000,
        interval: 200,
      })
      .toBe('TOKEN_EXPIRED');
  });

  it('answers 401 for a token from another issuer', async () => {
    const token = await api.token('owner', { issuer: 'http://evil.test/realms/portal' });
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('answers 401 for a token for another audience', async () => {
    const token = await api.token('owner', { audience: 'some-other-api' });
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('answers 401 for a forged signature and a tampered payload', async () => {
    const forged = await api.token('owner', { foreignKey: true });
    expect((await me({ authorization: `Bearer ${forged}` })).statusCode).toBe(401);

    const [header, payload, signature] = (await api.token('employee')).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    claims.sub = (await api.request('GET', '/api/users/v1/me', { as: 'owner' })).json().data.uuid;
    const tampered = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
    expect((await me({ authorization: `Bearer ${tampered}` })).statusCode).toBe(401);
  });

  it('refuses unsigned and HMAC tokens', async () => {
    const [, payload] = (await api.token('owner')).split('.');
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await me({ authorization: `Bearer ${none}.${payload}.` })).statusCode).toBe(401);
  });

  it('refuses unsafe API calls without the matching XSRF header (403)', async () => {
    const missing = await api.request('PATCH', '/api/users/v1/me', {
      as: 'owner',
      body: { language: 'en' },
      xsrf: false,
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ code: 'XSRF_FAILED' });
    const wrong = await api.request('PATCH', '/api/users/v1/me', {
      as: 'owner',
      body: { language: 'en' },
      xsrf: false,
      headers: { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abd' },
    });
    expect(wrong.statusCode).toBe(403);
    const headerOnly = await api.request('POST', '/api/accounts/v1/accounts', {
      as: 'owner',
      body: { name: 'X', country: 'CH', preferredLanguage: 'de' },
      xsrf: false,
      headers: { 'x-xsrf-token': 'abc' },
    });
    expect(headerOnly.statusCode).toBe(403);
    const me = await api.request('GET', '/api/users/v1/me', { as: 'owner' });
    expect(me.json().data.language).toBe('de');
  });

  it('sets a readable, SameSite XSRF-TOKEN cookie when none is sent', async () => {
    const res = await api.request('GET', '/api/users/v1/me', { as: 'owner', xsrf: false });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^XSRF-TOKEN=[\w-]{20,};/);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/HttpOnly/i);
    expect(cookie).not.toMatch(/Secure/i);
    const again = await api.request('GET', '/api/users/v1/me', { as: 'owner' });
    expect(again.headers['set-cookie']).toBeUndefined();
  });
});

describeApi(
  'XSRF cookie over https',
  (api) => {
    it('marks the cookie Secure and sends HSTS', async () => {
      const res = await api.request('GET', '/healthz', { xsrf: false });
      expect(String(res.headers['set-cookie'])).toMatch(/Secure/);
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    });
  },
  { env: { PUBLIC_URL: 'https://portal.example.com' } },
);
