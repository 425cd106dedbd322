import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../db/client.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../db/demo-users.ts';
import { IDP_CSP } from '../plugins/security-headers.ts';
import { freshDatabase, type Backend } from '../test/api.ts';
import { getPublicJwks, seedDemoIdentities } from './index.ts';
import {
  authorizeUrl,
  CookieJar,
  decodeMail,
  exchangeCode,
  follow,
  formAction,
  fragmentOf,
  freePort,
  openLoginPage,
  pkce,
  refresh,
  request,
  signIn,
  startIdp,
  type TestIdp,
} from './test-support.ts';

interface ReceivedMail {
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let smtpUrl: string;
const mails: ReceivedMail[] = [];
// PostgreSQL too when TEST_DATABASE_URL is set (as the API tests do).
const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

async function nextMail(to: string, since: number): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const mail = mails.slice(since).find((m) => m.to.includes(to));
    if (mail) return decodeMail(mail.raw);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no mail to ${to}`);
}

function linkIn(mail: string, path: string): string {
  const match = new RegExp(
    `http://127\\.0\\.0\\.1:\\d+/realms/portal/login-actions/[\\w-]+/${path}\\?key=[\\w-]+&kc_locale=\\w+`,
  ).exec(mail);
  if (!match) throw new Error(`no ${path} link in mail:\n${mail}`);
  return match[0];
}

beforeAll(async () => {
  const smtpPort = await freePort();
  smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

describe.each(BACKENDS)('identity provider on %s', (backend) => {
  let db: Db;
  let idp: TestIdp;
  let dropDb: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop: dropDb } = await freshDatabase(backend));
    await seedDemoIdentities(db);
    await seedDemoIdentities(db);
    idp = await startIdp(db, { env: { SMTP_URL: smtpUrl } });
  });

  afterAll(async () => {
    await idp?.app.close();
    await dropDb?.();
  });

  /** The browser's SSO session still signs in without a login page: the code it gets exchanges for tokens. */
  async function expectSilentSignIn(jar: CookieJar): Promise<void> {
    const { verifier, challenge } = pkce();
    const again = await follow(
      idp,
      await request(authorizeUrl(idp, { code_challenge: challenge, code_challenge_method: 'S256' }), jar),
      jar,
    );
    const code = fragmentOf(again).get('code');
    expect(code).toBeTruthy();
    expect((await exchangeCode(idp, code!, verifier)).status).toBe(200);
  }

  it('seeds every demo identity once', async () => {
    const { rows } = await db.query<{ count: number }>('select count(*)::int as count from idp_identities');
    expect(rows[0]!.count).toBe(Object.keys(DEMO_USERS).length);
  });

  describe('discovery', () => {
    it('serves Keycloak-style endpoints under the realm issuer', async () => {
      const response = await fetch(`${idp.base}/realms/portal/.well-known/openid-configuration`);
      expect(response.status).toBe(200);
      const doc = (await response.json()) as Record<string, unknown>;
      const realm = `${idp.base}/realms/portal`;
      expect(doc.issuer).toBe(realm);
      expect(doc.authorization_endpoint).toBe(`${realm}/protocol/openid-connect/auth`);
      expect(doc.token_endpoint).toBe(`${realm}/protocol/openid-connect/token`);
      expect(doc.jwks_uri).toBe(`${realm}/protocol/openid-connect/certs`);
      expect(doc.userinfo_endpoint).toBe(`${realm}/protocol/openid-connect/userinfo`);
      expect(doc.end_session_endpoint).toBe(`${realm}/protocol/openid-connect/logout`);
      expect(doc.revocation_endpoint).toBe(`${realm}/protocol/openid-connect/revoke`);
      expect(doc.code_challenge_methods_supported).toEqual(['S256']);
      expect(doc.scopes_supported).toEqual(
        expect.arrayContaining(['openid', 'profile', 'email', 'portal', 'accounts', 'support']),
      );

      const certs = (await (await fetch(`${realm}/protocol/openid-connect/certs`)).json()) as {
        keys: object[];
      };
      expect(certs).toEqual(await getPublicJwks(db));
      expect(JSON.stringify(certs)).not.toMatch(/"d":/);
    });

    it('serves the 3p-cookies check pages and the stylesheet', async () => {
      const step1 = await fetch(`${idp.base}/realms/portal/protocol/openid-connect/3p-cookies/step1.html`);
      expect(step1.status).toBe(200);
      expect(await step1.text()).toContain('<script src="/realms/portal/resources/3p-cookies.js">');
      const css = await fetch(`${idp.base}/realms/portal/resources/login.css`);
      expect(css.headers.get('content-type')).toContain('text/css');
      expect(await css.text()).toContain('--primary: #d41130');
    });
    it("puts the sign-in service's security headers on its pages and on the provider's own answers", async () => {
      const jar = new CookieJar();
      const discovery = await fetch(`${idp.base}/realms/portal/.well-known/openid-configuration`);
      const errorPage = await request(
        authorizeUrl(idp, {
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          redirect_uri: 'https://evil.example/cb',
        }),
        jar,
      );
      expect(errorPage.status).toBe(400);
      expect(await errorPage.text()).toContain('id="kc-message"');
      const start = await request(
        authorizeUrl(idp, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
        jar,
      );
      const loginPage = await follow(idp, start, jar);
      const expired = await request(`${idp.base}/realms/portal/login-actions/unknown/login`, jar);
      expect(expired.status).toBe(400);
      for (const response of [discovery, errorPage, start, loginPage, expired]) {
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('content-security-policy')).toBe(IDP_CSP);
        expect(response.headers.get('referrer-policy')).toBe('no-referrer');
        expect(response.headers.get('x-frame-options')).toBe('DENY');
      }
    });
  });

  describe('authorization code flow', () => {
    it('refuses an authorization request without PKCE', async () => {
      const jar = new CookieJar();
      const response = await request(authorizeUrl(idp), jar);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(new RegExp(`^${idp.base}/oauthcb#`));
      const fragment = fragmentOf(response);
      expect(fragment.get('error')).toBe('invalid_request');
      expect(fragment.get('error_description')).toMatch(/PKCE/);
    });

    it('refuses a plain code_challenge_method and a foreign redirect_uri', async () => {
      const jar = new CookieJar();
      const plain = await request(
        authorizeUrl(idp, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }),
        jar,
      );
      expect(fragmentOf(plain).get('error')).toBe('invalid_request');
      const foreign = await request(
        authorizeUrl(idp, {
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          redirect_uri: 'https://evil.example/cb',
        }),
        jar,
      );
      expect(foreign.status).toBe(400);
      expect(foreign.headers.get('location')).toBeNull();
    });

    it('shows a localised, accessible login page (German by default)', async () => {
      const jar = new CookieJar();
      const start = await request(
        authorizeUrl(idp, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
        jar,
      );
      expect(start.status).toBe(303);
      expect(start.headers.get('location')).toMatch(/^\/realms\/portal\/login-actions\/[\w-]+$/);
      const page = await follow(idp, start, jar);
      const html = await page.text();
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(html).toContain('<html lang="de">');
      expect(html).toContain('<label for="username">E-Mail</label>');
      expect(html).toContain('<label for="password">Passwort</label>');
      expect(html).toMatch(/<button id="kc-login"[^>]*>Anmelden<\/button>/);
      expect(html).toContain('Passwort vergessen?');
      expect(html).not.toMatch(/<script|style=|fonts\.googleapis/);

      const englishHtml = await openLoginPage(idp, jar, { ui_locales: 'en-GB' });
      expect(englishHtml).toContain('<html lang="en">');
      expect(englishHtml).toContain('Sign in to your account');
      expect(await openLoginPage(idp, jar, { kc_locale: 'fr', ui_locales: 'en' })).toContain(
        'Connectez-vous à votre compte',
      );
    });

    it('shows a clear error for a wrong password, linked to the fields', async () => {
      const jar = new CookieJar();
      const html = await openLoginPage(idp, jar);
      const response = await request(new URL(formAction(html, 'kc-form-login'), idp.base).href, jar, {
        form: { username: DEMO_USERS.admin.email, password: 'wrong-password' },
      });
      const errorHtml = await response.text();
      expect(errorHtml).toContain(
        '<p id="input-error" class="kc-alert kc-alert-error" role="alert">Ungültige E-Mail-Adresse oder ungültiges Passwort.</p>',
      );
      expect(errorHtml).toMatch(/id="password"[^>]*aria-invalid="true" aria-describedby="input-error"/);
      expect(errorHtml).toContain(`value="${DEMO_USERS.admin.email}"`);
    });

    it('signs in through the form and issues a JWT access token for the API', async () => {
      const jar = new CookieJar();
      const { redirect, tokens } = await signIn(
        idp,
        jar,
        DEMO_USERS.owner.email.toUpperCase(),
        DEMO_PASSWORD,
      );
      expect(redirect.headers.get('location')).toMatch(new RegExp(`^${idp.base}/oauthcb#`));
      expect(fragmentOf(redirect).get('state')).toBe('state-1');
      expect(tokens.status).toBe(200);
      expect(tokens.body.token_type).toBe('Bearer');
      expect(Number(tokens.body.expires_in)).toBe(300);

      const jwks = createLocalJWKSet(await getPublicJwks(db));
      const { payload, protectedHeader } = await jwtVerify(tokens.body.access_token!, jwks, {
        issuer: idp.config.oidc.issuer,
        audience: 'portal-api',
      });
      expect(protectedHeader.alg).toBe('RS256');
      expect(payload).toMatchObject({
        sub: DEMO_USERS.owner.id,
        email: DEMO_USERS.owner.email,
        email_verified: true,
        name: DEMO_USERS.owner.name,
        preferred_username: DEMO_USERS.owner.email,
        locale: 'de',
        client_id: 'portal',
      });
      expect(String(payload.scope).split(' ')).toEqual(
        expect.arrayContaining(['openid', 'profile', 'email', 'portal', 'accounts', 'support']),
      );
      expect(payload.exp! - payload.iat!).toBe(300);

      const idToken = decodeJwt(tokens.body.id_token!);
      expect(idToken).toMatchObject({
        sub: DEMO_USERS.owner.id,
        nonce: 'nonce-1',
        aud: 'portal',
        email: DEMO_USERS.owner.email,
      });
      // keycloak-js decodes the refresh token like a JWT.
      const refreshPayload = JSON.parse(
        Buffer.from(tokens.body.refresh_token!.split('.')[1]!, 'base64url').toString(),
      ) as Record<string, unknown>;
      expect(refreshPayload).toMatchObject({ typ: 'Refresh', sub: DEMO_USERS.owner.id, azp: 'portal' });
      expect(Number(refreshPayload.exp)).toBeGreaterThan(Date.now() / 1000);

      // Userinfo and keycloak-js loadUserProfile() accept the API token; the scheme is case-insensitive.
      const userinfo = await fetch(`${idp.base}/realms/portal/protocol/openid-connect/userinfo`, {
        headers: { authorization: `bearer ${tokens.body.access_token}` },
      });
      expect(userinfo.status).toBe(200);
      expect(await userinfo.json()).toMatchObject({
        sub: DEMO_USERS.owner.id,
        email: DEMO_USERS.owner.email,
        email_verified: true,
      });
      const account = await fetch(`${idp.base}/realms/portal/account`, {
        headers: { authorization: `Bearer ${tokens.body.access_token}`, accept: 'application/json' },
      });
      expect(await account.json()).toMatchObject({
        id: DEMO_USERS.owner.id,
        username: DEMO_USERS.owner.email,
        email: DEMO_USERS.owner.email,
        firstName: 'Olivia',
        lastName: 'Owner',
        emailVerified: true,
      });
      const anonymous = await fetch(`${idp.base}/realms/portal/protocol/openid-connect/userinfo`);
      expect(anonymous.status).toBe(401);

      // Single sign-on: a second authorization in the same browser needs no login page.
      await expectSilentSignIn(jar);
    });

    it('rotates refresh tokens and revokes the grant when a used one comes back', async () => {
      const jar = new CookieJar();
      const { tokens } = await signIn(idp, jar, DEMO_USERS.employee.email, DEMO_PASSWORD);
      const first = tokens.body.refresh_token!;
      const rotated = await refresh(idp, first);
      expect(rotated.status).toBe(200);
      expect(rotated.body.refresh_token).toBeTruthy();
      expect(rotated.body.refresh_token).not.toBe(first);
      const { payload } = await jwtVerify(
        rotated.body.access_token!,
        createLocalJWKSet(await getPublicJwks(db)),
        {
          issuer: idp.config.oidc.issuer,
          audience: 'portal-api',
        },
      );
      expect(payload.sub).toBe(DEMO_USERS.employee.id);

      const reused = await refresh(idp, first);
      expect(reused.status).toBe(400);
      expect(reused.body.error).toBe('invalid_grant');
      // Reuse is treated as theft: the whole grant is gone, the newer token too.
      const afterReuse = await refresh(idp, rotated.body.refresh_token!);
      expect(afterReuse.status).toBe(400);
    });

    it('answers the SPA origin on the token endpoint (CORS) and refuses other origins', async () => {
      const { tokens } = await signIn(idp, new CookieJar(), DEMO_USERS.fresh.email, DEMO_PASSWORD);
      const call = (origin: string, refreshToken: string) =>
        fetch(`${idp.base}/realms/portal/protocol/openid-connect/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            client_id: 'portal',
          }).toString(),
        });
      const foreign = await call('https://evil.example', tokens.body.refresh_token!);
      expect(foreign.status).toBe(400);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      const own = await call(idp.base, tokens.body.refresh_token!);
      expect(own.status).toBe(200);
      expect(own.headers.get('access-control-allow-origin')).toBe(idp.base);
    });

    it('logs out without a confirmation page and ends the session', async () => {
      const jar = new CookieJar();
      const { tokens } = await signIn(idp, jar, DEMO_USERS.agent.email, DEMO_PASSWORD);
      const logoutUrl = new URL(`${idp.base}/realms/portal/protocol/openid-connect/logout`);
      logoutUrl.searchParams.set('client_id', 'portal');
      logoutUrl.searchParams.set('post_logout_redirect_uri', `${idp.base}/`);
      logoutUrl.searchParams.set('id_token_hint', tokens.body.id_token!);
      const response = await request(logoutUrl.href, jar);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(`${idp.base}/`);
      expect((await refresh(idp, tokens.body.refresh_token!)).status).toBe(400);
      // The next authorization asks for the login again.
      const again = await request(
        authorizeUrl(idp, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
        jar,
      );
      expect(again.headers.get('location')).toMatch(/^\/realms\/portal\/login-actions\//);
      // Without a session, logout just goes back too (no auto-submitting page).
      const anonymous = await request(logoutUrl.href.replace(/&id_token_hint=[^&]+/, ''), new CookieJar());
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.get('location')).toBe(`${idp.base}/`);
    });

    describe('logout with a refresh token (no redirect, as Keycloak)', () => {
      const logoutUrl = () => `${idp.base}/realms/portal/protocol/openid-connect/logout`;
      const tokenLogout = (form: Record<string, string>, headers: Record<string, string> = {}) =>
        fetch(logoutUrl(), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', connection: 'close', ...headers },
          body: new URLSearchParams(form).toString(),
        });
      const silentAuthorize = (jar: CookieJar) =>
        request(authorizeUrl(idp, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }), jar);

      it('ends the SSO session and grant: the refresh token is refused and the cookie signs in no more', async () => {
        const jar = new CookieJar();
        const { tokens } = await signIn(idp, jar, DEMO_USERS.owner.email, DEMO_PASSWORD);
        // A second tab of the same browser signs in silently and holds its own refresh token.
        const silent = await silentAuthorize(jar);
        expect(silent.headers.get('location')).toMatch(/\/oauthcb#.*code=/);
        const rotated = await refresh(idp, tokens.body.refresh_token!);
        expect(rotated.status).toBe(200);
        const { rows } = await db.query<{ grant_id: string; session_uid: string }>(
          `select grant_id, payload->>'sessionUid' as session_uid from idp_payloads
           where model = 'RefreshToken' and id = $1`,
          [rotated.body.refresh_token!],
        );
        const { grant_id: grantId, session_uid: sessionUid } = rows[0]!;
        const remaining = async () =>
          (
            await db.query<{ model: string }>(
              `select model from idp_payloads
               where grant_id = $1 or (model = 'Grant' and id = $1) or (model = 'Session' and uid = $2)`,
              [grantId, sessionUid],
            )
          ).rows.map((row) => row.model);
        expect(await remaining()).toEqual(
          expect.arrayContaining(['Session', 'Grant', 'RefreshToken', 'AuthorizationCode']),
        );

        const response = await tokenLogout(
          { client_id: 'portal', refresh_token: rotated.body.refresh_token! },
          { origin: idp.base },
        );
        expect(response.status).toBe(204);
        expect(response.headers.get('access-control-allow-origin')).toBe(idp.base);
        expect(await response.text()).toBe('');

        // Session, grant and every token issued under it are gone from the database.
        expect(await remaining()).toEqual([]);
        const refused = await refresh(idp, rotated.body.refresh_token!);
        expect(refused.status).toBe(400);
        expect(refused.body.error).toBe('invalid_grant');
        // The browser still sends its session cookie, but the next authorization asks for the password.
        expect(jar.names()).toContain('_session');
        const again = await silentAuthorize(jar);
        expect(again.headers.get('location')).toMatch(/^\/realms\/portal\/login-actions\//);
        const page = await follow(idp, again, jar);
        expect(await page.text()).toContain('id="password"');

        // The same token again (and any unknown one): 400 as Keycloak answers it.
        const repeated = await tokenLogout({
          client_id: 'portal',
          refresh_token: rotated.body.refresh_token!,
        });
        expect(repeated.status).toBe(400);
        expect(await repeated.json()).toMatchObject({ error: 'invalid_grant' });
        const unknown = await tokenLogout({ client_id: 'portal', refresh_token: 'a.b.c' });
        expect(unknown.status).toBe(400);
        expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await unknown.json()).toMatchObject({ error: 'invalid_grant' });
      });

      it('refuses a used token, a missing one, an unknown client and a foreign origin, ending nothing', async () => {
        const jar = new CookieJar();
        const { tokens } = await signIn(idp, jar, DEMO_USERS.admin.email, DEMO_PASSWORD);
        const first = tokens.body.refresh_token!;
        const rotated = await refresh(idp, first);
        expect(rotated.status).toBe(200);
        const current = rotated.body.refresh_token!;

        const used = await tokenLogout({ client_id: 'portal', refresh_token: first });
        expect(used.status).toBe(400);
        expect(await used.json()).toMatchObject({ error: 'invalid_grant' });
        const missing = await tokenLogout({ client_id: 'portal', refresh_token: '' });
        expect(missing.status).toBe(400);
        expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
        const noClient = await tokenLogout({ refresh_token: current });
        expect(noClient.status).toBe(401);
        expect(await noClient.json()).toMatchObject({ error: 'invalid_client' });
        const otherClient = await tokenLogout({ client_id: 'other', refresh_token: current });
        expect(otherClient.status).toBe(401);
        const foreign = await tokenLogout(
          { client_id: 'portal', refresh_token: current },
          { origin: 'https://evil.example' },
        );
        expect(foreign.status).toBe(400);
        expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

        // Still signed in: the current token refreshes and the cookie signs in silently.
        expect((await refresh(idp, current)).status).toBe(200);
        expect((await silentAuthorize(jar)).headers.get('location')).toMatch(/\/oauthcb#.*code=/);
      });

      it('answers the CORS preflight for the SPA origin only; a post without a token is no token logout', async () => {
        const preflight = (origin: string) =>
          fetch(logoutUrl(), {
            method: 'OPTIONS',
            headers: {
              origin,
              'access-control-request-method': 'POST',
              'access-control-request-headers': 'content-type',
            },
          });
        const own = await preflight(idp.base);
        expect(own.status).toBe(204);
        expect(own.headers.get('access-control-allow-origin')).toBe(idp.base);
        expect(own.headers.get('access-control-allow-methods')).toBe('POST');
        const foreign = await preflight('https://evil.example');
        expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

        // Without a refresh token it is no token logout: it stays the provider's (which, as before, takes
        // browser logouts by GET only) and ends nothing.
        const { tokens } = await signIn(idp, new CookieJar(), DEMO_USERS.coach.email, DEMO_PASSWORD);
        const response = await tokenLogout({
          client_id: 'portal',
          id_token_hint: tokens.body.id_token!,
          post_logout_redirect_uri: `${idp.base}/`,
        });
        expect(response.status).toBe(404);
        expect((await refresh(idp, tokens.body.refresh_token!)).status).toBe(200);
      });
    });
  });

  describe('registration', () => {
    it('creates an unverified identity via the registrations endpoint and continues the flow', async () => {
      const jar = new CookieJar();
      const { verifier, challenge } = pkce();
      const registrations = authorizeUrl(idp, {
        code_challenge: challenge,
        code_challenge_method: 'S256',
        kc_locale: 'en',
      }).replace('/protocol/openid-connect/auth?', '/protocol/openid-connect/registrations?');
      const page = await follow(idp, await request(registrations, jar), jar);
      const html = await page.text();
      expect(html).toContain('Create an account');
      const action = new URL(formAction(html, 'kc-register-form'), idp.base).href;

      const invalid = await request(action, jar, {
        form: {
          firstName: 'Rita',
          lastName: '',
          email: 'owner@example.com',
          password: 'short',
          'password-confirm': 'other',
        },
      });
      expect(invalid.status).toBe(400);
      const invalidHtml = await invalid.text();
      expect(invalidHtml).toContain('An account with this email address already exists.');
      expect(invalidHtml).toMatch(/id="email"[^>]*aria-invalid="true" aria-describedby="email-error"/);
      expect(invalidHtml).toContain('The passwords do not match.');

      const created = await request(action, jar, {
        form: {
          firstName: 'Rita',
          lastName: 'Register',
          email: 'Rita@Example.com',
          password: 'a-long-password',
          'password-confirm': 'a-long-password',
        },
      });
      const done = await follow(idp, created, jar);
      const code = fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      const tokens = await exchangeCode(idp, code!, verifier);
      const claims = decodeJwt(tokens.body.access_token!);
      expect(claims).toMatchObject({
        email: 'Rita@Example.com',
        email_verified: false,
        name: 'Rita Register',
        locale: 'en',
      });
    });

    it('registering while signed in as someone else switches the session to the new identity', async () => {
      const jar = new CookieJar();
      await signIn(idp, jar, DEMO_USERS.admin.email, DEMO_PASSWORD);
      const { verifier, challenge } = pkce();
      const page = await follow(
        idp,
        await request(
          authorizeUrl(idp, { code_challenge: challenge, code_challenge_method: 'S256', prompt: 'create' }),
          jar,
        ),
        jar,
      );
      const html = await page.text();
      const created = await request(new URL(formAction(html, 'kc-register-form'), idp.base).href, jar, {
        form: {
          firstName: 'Sam',
          lastName: 'Switch',
          email: 'sam@example.com',
          password: 'a-long-password',
          'password-confirm': 'a-long-password',
        },
      });
      // oidc-provider ends the old session with an auto-submitting form; its inline script is allowed by hash.
      const switching = await follow(idp, created, jar);
      expect(switching.status).toBe(200);
      const csp = switching.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self' 'sha256-[^']+'/);
      const form = await switching.text();
      const action = /<form method="post" action="([^"]+)"/.exec(form)![1]!;
      const fields = Object.fromEntries(
        [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
      );
      const done = await follow(
        idp,
        await request(new URL(action, idp.base).href, jar, { form: fields }),
        jar,
      );
      const code = fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      const tokens = await exchangeCode(idp, code!, verifier);
      expect(decodeJwt(tokens.body.access_token!).email).toBe('sam@example.com');
    });
  });

  describe('brute-force protection', () => {
    it('locks an identity after repeated failures, with a growing wait and a clear message', async () => {
      const jar = new CookieJar();
      const attempt = async (password: string) => {
        const html = await openLoginPage(idp, jar);
        return request(new URL(formAction(html, 'kc-form-login'), idp.base).href, jar, {
          form: { username: DEMO_USERS.coach.email, password },
        });
      };
      for (let i = 0; i < 4; i += 1) expect((await attempt('nope')).status).toBe(200);
      const fifth = await attempt('nope');
      expect(fifth.status).toBe(429);
      expect(await fifth.text()).toContain(
        'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es in 1 Minute erneut.',
      );
      // Locked: even the right password is refused.
      const locked = await attempt(DEMO_PASSWORD);
      expect(locked.status).toBe(429);
      // After the wait, the next failure locks for twice as long.
      await db.query(
        `update idp_login_failures set locked_until = now() - interval '1 second' where key like 'identity:%'`,
      );
      const sixth = await attempt('nope');
      expect(await sixth.text()).toContain('in 2 Minuten erneut');
      await db.query('delete from idp_login_failures');
      expect((await attempt(DEMO_PASSWORD)).status).toBe(303);
    });

    it('locks a client address after repeated failures across identities', async () => {
      const strict = await startIdp(db, {
        configure: (config) => {
          config.idp.bruteForce.maxFailuresPerAddress = 3;
        },
      });
      try {
        const jar = new CookieJar();
        const attempt = async (username: string) => {
          const html = await openLoginPage(strict, jar, { kc_locale: 'it' });
          return request(new URL(formAction(html, 'kc-form-login'), strict.base).href, jar, {
            form: { username, password: 'guess' },
          });
        };
        expect((await attempt('nobody-1@example.com')).status).toBe(200);
        expect((await attempt('nobody-2@example.com')).status).toBe(200);
        const third = await attempt('nobody-3@example.com');
        expect(third.status).toBe(429);
        expect(await third.text()).toContain(
          'Troppi tentativi di accesso non riusciti. Riprova tra 1 minuto.',
        );
      } finally {
        await strict.app.close();
        await db.query('delete from idp_login_failures');
      }
    });
  });

  describe('mails through SMTP', () => {
    it('kc_action=VERIFY_EMAIL mails a link that verifies the address and continues to the app', async () => {
      const jar = new CookieJar();
      const user = DEMO_USERS.unverified;
      const { tokens } = await signIn(idp, jar, user.email, DEMO_PASSWORD);
      expect(decodeJwt(tokens.body.access_token!).email_verified).toBe(false);

      const since = mails.length;
      const { verifier, challenge } = pkce();
      const start = await request(
        authorizeUrl(idp, {
          code_challenge: challenge,
          code_challenge_method: 'S256',
          kc_action: 'VERIFY_EMAIL',
          kc_locale: 'en',
        }),
        jar,
      );
      const page = await follow(idp, start, jar);
      const html = await page.text();
      expect(html).toContain(`We have sent an email to ${user.email}`);
      const mail = await nextMail(user.email, since);
      expect(mail).toMatch(/Subject: Portal: Verify your email address/);
      const link = linkIn(mail, 'verify-email');

      // "Continue" before clicking the link says it is not verified yet.
      const early = await request(
        new URL(
          formAction(
            html.replace('<form method="post" action', '<form id="continue" method="post" action'),
            'continue',
          ),
          idp.base,
        ).href,
        jar,
        { form: {} },
      );
      expect(await early.text()).toContain('not verified yet');

      const done = await follow(idp, await request(link, jar), jar);
      const code = fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      const after = await exchangeCode(idp, code!, verifier);
      expect(decodeJwt(after.body.access_token!).email_verified).toBe(true);
      // The refresh token of the earlier sign-in now yields a verified token as well (claims come from the database).
      const refreshed = await refresh(idp, tokens.body.refresh_token!);
      expect(decodeJwt(refreshed.body.access_token!).email_verified).toBe(true);
      // One-time link.
      expect((await request(link, new CookieJar())).status).toBe(400);
    });

    it('forgot password mails a one-time link that sets a new password', async () => {
      const jar = new CookieJar();
      const user = DEMO_USERS.newowner;
      const elsewhere = await signIn(idp, new CookieJar(), user.email, DEMO_PASSWORD);
      const { verifier, challenge } = pkce();
      const start = await request(
        authorizeUrl(idp, { code_challenge: challenge, code_challenge_method: 'S256' }),
        jar,
      );
      const loginHtml = await (await follow(idp, start, jar)).text();
      const forgotHref = /id="kc-forgot-password" href="([^"]+)"/.exec(loginHtml)![1]!.replace(/&amp;/g, '&');
      const forgotHtml = await (await request(new URL(forgotHref, idp.base).href, jar)).text();
      expect(forgotHtml).toContain('Passwort zurücksetzen');
      const since = mails.length;
      const sent = await request(
        new URL(formAction(forgotHtml, 'kc-reset-password-form'), idp.base).href,
        jar,
        {
          form: { username: user.email },
        },
      );
      expect(await sent.text()).toContain('Falls ein Konto mit dieser E-Mail-Adresse besteht');
      const mail = await nextMail(user.email, since);
      expect(mail).toContain('Der Link ist 30 Minuten gültig');
      const link = linkIn(mail, 'reset');

      const resetHtml = await (await request(link, jar)).text();
      expect(resetHtml).toContain('Neues Passwort festlegen');
      const action = new URL(formAction(resetHtml, 'kc-new-password-form'), idp.base).href;
      const key = new URL(link).searchParams.get('key')!;
      const mismatch = await request(action, jar, {
        form: { key, password: 'New-Password-1', 'password-confirm': 'other' },
      });
      expect(await mismatch.text()).toContain('Die Passwörter stimmen nicht überein.');
      const saved = await request(action, jar, {
        form: { key, password: 'New-Password-1', 'password-confirm': 'New-Password-1' },
      });
      // Same browser, login still pending: signed in and back to the app.
      const done = await follow(idp, saved, jar);
      const code = fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      expect((await exchangeCode(idp, code!, verifier)).status).toBe(200);

      // Other devices are signed out.
      expect((await refresh(idp, elsewhere.tokens.body.refresh_token!)).status).toBe(400);
      // The link works once; the new password works, the old one does not.
      expect((await request(link, new CookieJar())).status).toBe(400);
      await expect(signIn(idp, new CookieJar(), user.email, DEMO_PASSWORD)).rejects.toThrow(/no code/);
      expect((await signIn(idp, new CookieJar(), user.email, 'New-Password-1')).tokens.status).toBe(200);
    });
  });

  describe('storage', () => {
    it('survives a provider restart: sessions and refresh tokens live in the database', async () => {
      const jar = new CookieJar();
      const { tokens } = await signIn(idp, jar, DEMO_USERS.inhaber.email, DEMO_PASSWORD);
      const { port } = idp;
      await idp.app.close();
      idp = await startIdp(db, { port, env: { SMTP_URL: idp.config.smtpUrl! } });

      const refreshed = await refresh(idp, tokens.body.refresh_token!).catch((error: Error) => {
        throw error.cause ?? error;
      });
      expect(refreshed.status).toBe(200);
      expect(decodeJwt(refreshed.body.access_token!)).toMatchObject({
        sub: DEMO_USERS.inhaber.id,
        locale: 'fr',
      });
      // The SSO session is still there: no login page.
      await expectSilentSignIn(jar);
    });
  });
});
