import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import { SoftAuthenticator, type CeremonyOptions } from '../test/soft-authenticator.ts';
import { findIdentityById } from './identities.ts';
import { registerPasskey, registrationOptions } from './passkeys.ts';
import * as idp from '../test/idp.ts';

/** The passkey options a page puts on its #kc-passkey button. */
function buttonOptions(html: string): PublicKeyCredentialRequestOptionsJSON {
  const match = /<button id="kc-passkey"[^>]*data-options="([^"]*)"/.exec(html);
  if (!match) throw new Error('no passkey button');
  return JSON.parse(
    match[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&'),
  ) as PublicKeyCredentialRequestOptionsJSON;
}

idp.describeIdp('passkeys', (ctx) => {
  /** A passkey of `identityId` on a new software authenticator of this provider's origin. */
  async function authenticatorOf(identityId: string): Promise<SoftAuthenticator> {
    const authenticator = new SoftAuthenticator(ctx.idp.config.publicUrl);
    const identity = (await findIdentityById(ctx.db, identityId))!;
    const options = await registrationOptions(ctx.db, ctx.idp.config, identity);
    await registerPasskey(ctx.db, ctx.idp.config, identityId, 'Test', authenticator.register(options));
    return authenticator;
  }

  /** Answers the page's passkey button with `authenticator` and posts it with the button's form. */
  async function usePasskey(
    jar: idp.CookieJar,
    html: string,
    authenticator: SoftAuthenticator,
    o: CeremonyOptions & { counter?: number } = {},
  ) {
    const answer = authenticator.authenticate(buttonOptions(html), o);
    return postAnswer(jar, html, JSON.stringify(answer));
  }

  const postAnswer = (jar: idp.CookieJar, html: string, response: string) =>
    idp.request(new URL(idp.formAction(html, 'kc-passkey-form'), ctx.idp.base).href, jar, {
      form: { response, kc_locale: 'de' },
    });

  /** Follows a finished sign-in to its tokens: the access token's claims, with its session's `amr`. */
  async function tokensOf(jar: idp.CookieJar, posted: Response, verifier: string) {
    const done = await idp.follow(ctx.idp, posted, jar);
    const code = idp.fragmentOf(done).get('code');
    if (!code) throw new Error(`no code (status ${done.status}): ${(await done.text()).slice(0, 300)}`);
    const tokens = await idp.exchangeCode(ctx.idp, code, verifier);
    const claims = decodeJwt(tokens.body.access_token!);
    // How the person signed in is kept in the provider's session the token names.
    const { rows } = await ctx.db.query<{ payload: { amr?: string[] } }>(
      `select payload from idp_payloads where model = 'Session' and payload->>'uid' = $1`,
      [claims.sid],
    );
    return { ...claims, amr: rows[0]?.payload.amr };
  }

  async function loginPage(jar: idp.CookieJar) {
    const { verifier, challenge } = idp.pkce();
    const start = await idp.request(
      idp.authorizeUrl(ctx.idp, { code_challenge: challenge, code_challenge_method: 'S256' }),
      jar,
    );
    return { verifier, html: await (await idp.follow(ctx.idp, start, jar)).text() };
  }

  describe('without a password', () => {
    it('offers a hidden passkey button with a discoverable request, and serves its scripts', async () => {
      const { html } = await loginPage(new idp.CookieJar());
      expect(html).toMatch(/<section id="kc-passkey-section"[^>]* hidden>/);
      expect(html).toContain('>Mit Passkey anmelden</button>');
      const options = buttonOptions(html);
      expect(options).toMatchObject({
        rpId: '127.0.0.1',
        userVerification: 'required',
        allowCredentials: [],
      });
      expect(html).not.toMatch(/<script>|<script(?! src=")/);
      for (const script of ['passkey.js', 'simplewebauthn-browser.js']) {
        const response = await fetch(`${ctx.idp.base}/realms/portal/resources/${script}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toContain('text/javascript');
      }
    });

    it('signs in with a passkey alone: two factors (hwk, user), and updates the counter and last use', async () => {
      const authenticator = await authenticatorOf(DEMO_USERS.coach.id);
      const jar = new idp.CookieJar();
      const { html, verifier } = await loginPage(jar);
      const posted = await usePasskey(jar, html, authenticator);
      expect(posted.status).toBe(303);
      const claims = await tokensOf(jar, posted, verifier);
      expect(claims.sub).toBe(DEMO_USERS.coach.id);
      expect(claims.amr).toEqual(['hwk', 'user', 'mfa']);
      const { rows } = await ctx.db.query<{ sign_count: string; last_used_at: Date | null }>(
        'select sign_count, last_used_at from idp_passkeys where identity_id = $1',
        [DEMO_USERS.coach.id],
      );
      expect(Number(rows[0]!.sign_count)).toBe(1);
      expect(rows[0]!.last_used_at).not.toBeNull();
    });

    it('refuses another origin, a used challenge, a lower counter and an unverified person', async () => {
      const authenticator = await authenticatorOf(DEMO_USERS.employee.id);
      const jar = new idp.CookieJar();
      const { html } = await loginPage(jar);
      const options = buttonOptions(html);

      const phished = await usePasskey(jar, html, authenticator, { origin: 'http://evil.test' });
      expect(phished.status).toBe(400);
      expect(await phished.text()).toContain('Der Passkey konnte nicht geprüft werden.');

      // The refused answer used its challenge up: the right answer to it is refused as well.
      const late = authenticator.authenticate(options);
      expect((await postAnswer(jar, html, JSON.stringify(late))).status).toBe(400);

      const unverified = await loginPage(jar);
      expect((await usePasskey(jar, unverified.html, authenticator, { userVerified: false })).status).toBe(
        400,
      );

      const fresh = await loginPage(jar);
      expect((await usePasskey(jar, fresh.html, authenticator)).status).toBe(303);
      // A clone of the authenticator, behind in its counter, is refused.
      const cloneJar = new idp.CookieJar();
      const clone = await loginPage(cloneJar);
      expect((await usePasskey(cloneJar, clone.html, authenticator, { counter: 1 })).status).toBe(400);

      // Garbage in the answer is refused the same way.
      const garbage = await loginPage(cloneJar);
      expect((await postAnswer(cloneJar, garbage.html, '{"id":1}')).status).toBe(400);
    });

    it('says nothing about unknown passkeys but counts them towards the lockout of the address', async () => {
      const stranger = new SoftAuthenticator(ctx.idp.config.publicUrl);
      // A passkey of this site that the provider never registered.
      stranger.register({
        challenge: 'none',
        rp: { id: '127.0.0.1', name: 'Portal' },
        user: { id: 'AAAA', name: 'nobody@example.com', displayName: 'Nobody' },
        pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
      });
      const jar = new idp.CookieJar();
      const { html } = await loginPage(jar);
      const refused = await usePasskey(jar, html, stranger);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('Der Passkey konnte nicht geprüft werden.');
      const { rows } = await ctx.db.query<{ failures: number }>(
        "select failures from idp_login_failures where key = 'address:127.0.0.1'",
      );
      expect(rows[0]!.failures).toBeGreaterThanOrEqual(1);
      await ctx.db.query("delete from idp_login_failures where key = 'address:127.0.0.1'");
    });
  });

  describe('as the second factor', () => {
    it('asks for a passkey after the right password and signs in with it (pwd, hwk)', async () => {
      const authenticator = await authenticatorOf(DEMO_USERS.admin.id);
      const jar = new idp.CookieJar();
      const { html, verifier } = await loginPage(jar);
      const posted = await idp.request(
        new URL(idp.formAction(html, 'kc-form-login'), ctx.idp.base).href,
        jar,
        {
          form: { username: DEMO_USERS.admin.email, password: DEMO_PASSWORD },
        },
      );
      const page = await idp.follow(ctx.idp, posted, jar);
      const secondHtml = await page.text();
      expect(secondHtml).toContain('>Mit Passkey bestätigen</button>');
      const options = buttonOptions(secondHtml);
      expect(options.allowCredentials).toEqual([
        {
          id: authenticator.credentials[0]!.id.toString('base64url'),
          type: 'public-key',
          transports: ['internal'],
        },
      ]);

      // Another person's passkey does not confirm this sign-in.
      const other = await authenticatorOf(DEMO_USERS.newowner.id);
      const foreign = other.authenticate({ ...options, allowCredentials: [] });
      const refused = await postAnswer(jar, secondHtml, JSON.stringify(foreign));
      expect(refused.status).toBe(400);
      const retryHtml = await refused.text();
      expect(retryHtml).toContain('Der Passkey konnte nicht geprüft werden.');

      const confirmed = await usePasskey(jar, retryHtml, authenticator);
      const claims = await tokensOf(jar, confirmed, verifier);
      expect(claims.sub).toBe(DEMO_USERS.admin.id);
      expect(claims.amr).toEqual(['pwd', 'hwk', 'mfa']);
    });

    it('is refused without a pending password check', async () => {
      const jar = new idp.CookieJar();
      const { html } = await loginPage(jar);
      const action = idp.formAction(html, 'kc-form-login').replace(/\/login$/, '/second-factor/passkey');
      const response = await idp.request(new URL(action, ctx.idp.base).href, jar, {
        form: { response: '{}' },
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(/\/login\?kc_locale=de$/);
    });
  });
});
