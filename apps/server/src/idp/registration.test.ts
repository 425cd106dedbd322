import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { USER_NAME_MAX } from '@portal/contract';
import { DEMO_PASSWORD, DEMO_USERS } from '../db/demo-users.ts';
import * as idp from './test-support.ts';

idp.describeIdp('registration', (ctx) => {
  /** Opens the registration page (prompt=create) of a PKCE authorization: the URL its form posts to. */
  async function openRegistration(
    jar: idp.CookieJar,
    challenge: string,
    params: Record<string, string> = {},
  ) {
    const url = idp.authorizeUrl(ctx.idp, {
      code_challenge: challenge,
      code_challenge_method: 'S256',
      prompt: 'create',
      ...params,
    });
    const page = await idp.follow(ctx.idp, await idp.request(url, jar), jar);
    return new URL(idp.formAction(await page.text(), 'kc-register-form'), ctx.idp.base).href;
  }

  describe('registration', () => {
    it('fills the email from login_hint (the address an invitation names)', async () => {
      const jar = new idp.CookieJar();
      const { challenge } = idp.pkce();
      const url = idp.authorizeUrl(ctx.idp, {
        code_challenge: challenge,
        code_challenge_method: 'S256',
        prompt: 'create',
        login_hint: 'invited@example.org',
      });
      const html = await (await idp.follow(ctx.idp, await idp.request(url, jar), jar)).text();
      expect(html).toMatch(/id="email"[^>]*value="invited@example.org"/);
    });

    it('creates an unverified identity via the registrations endpoint and continues the flow', async () => {
      const jar = new idp.CookieJar();
      const { verifier, challenge } = idp.pkce();
      const registrations = idp
        .authorizeUrl(ctx.idp, {
          code_challenge: challenge,
          code_challenge_method: 'S256',
          kc_locale: 'en',
        })
        .replace('/protocol/openid-connect/auth?', '/protocol/openid-connect/registrations?');
      const page = await idp.follow(ctx.idp, await idp.request(registrations, jar), jar);
      const html = await page.text();
      expect(html).toContain('Create an account');
      const action = new URL(idp.formAction(html, 'kc-register-form'), ctx.idp.base).href;

      const invalid = await idp.request(action, jar, {
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

      const created = await idp.request(action, jar, {
        form: {
          firstName: 'Rita',
          lastName: 'Register',
          email: 'Rita@Example.com',
          password: 'a-long-password',
          'password-confirm': 'a-long-password',
        },
      });
      const done = await idp.follow(ctx.idp, created, jar);
      const code = idp.fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      const tokens = await idp.exchangeCode(ctx.idp, code!, verifier);
      const claims = decodeJwt(tokens.body.access_token!);
      expect(claims).toMatchObject({
        email: 'Rita@Example.com',
        email_verified: false,
        name: 'Rita Register',
        locale: 'en',
      });
    });

    it('refuses first and last names above the user name limit with a field error, never cutting them', async () => {
      const jar = new idp.CookieJar();
      const { verifier, challenge } = idp.pkce();
      const form = (firstName: string, lastName: string, locale: string) => ({
        firstName,
        lastName,
        email: 'lang@example.com',
        password: 'a-long-password',
        'password-confirm': 'a-long-password',
        kc_locale: locale,
      });
      const action = await openRegistration(jar, challenge, { kc_locale: 'de' });

      const long = 'Ä'.repeat(USER_NAME_MAX + 1);
      const tooLong = await idp.request(action, jar, { form: form(long, 'Lang', 'de') });
      expect(tooLong.status).toBe(400);
      const html = await tooLong.text();
      expect(html).toMatch(/id="firstName"[^>]*aria-invalid="true" aria-describedby="firstName-error"/);
      expect(html).toContain(
        `<p id="firstName-error" class="kc-field-error">Bitte geben Sie höchstens ${USER_NAME_MAX} Zeichen ein.</p>`,
      );
      expect(html).toContain(`value="${long}"`);

      const together = await idp.request(action, jar, {
        form: form('Ä'.repeat(60), 'Ö'.repeat(60), 'fr'),
      });
      expect(together.status).toBe(400);
      expect(await together.text()).toContain(
        `<p id="lastName-error" class="kc-field-error">Le prénom et le nom ensemble peuvent comporter au plus ${USER_NAME_MAX} caractères.</p>`,
      );

      // At the limit (with the space between them) the name is taken whole.
      const done = await idp.follow(
        ctx.idp,
        await idp.request(action, jar, { form: form('Ä'.repeat(59), 'Ö'.repeat(60), 'de') }),
        jar,
      );
      const code = idp.fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      const tokens = await idp.exchangeCode(ctx.idp, code!, verifier);
      expect(decodeJwt(tokens.body.access_token!).name).toBe(`${'Ä'.repeat(59)} ${'Ö'.repeat(60)}`);
    });

    it('registering while signed in as someone else switches the session to the new identity', async () => {
      const jar = new idp.CookieJar();
      await idp.signIn(ctx.idp, jar, DEMO_USERS.admin.email, DEMO_PASSWORD);
      const { verifier, challenge } = idp.pkce();
      const created = await idp.request(await openRegistration(jar, challenge), jar, {
        form: {
          firstName: 'Sam',
          lastName: 'Switch',
          email: 'sam@example.com',
          password: 'a-long-password',
          'password-confirm': 'a-long-password',
        },
      });
      // oidc-provider ends the old session with an auto-submitting form; its inline script is allowed by hash.
      const switching = await idp.follow(ctx.idp, created, jar);
      expect(switching.status).toBe(200);
      const csp = switching.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self' 'sha256-[^']+'/);
      const form = await switching.text();
      // The provider's own page links the icon too.
      expect(form).toContain('<link rel="icon" href="/realms/portal/resources/favicon.svg"');
      const action = /<form method="post" action="([^"]+)"/.exec(form)![1]!;
      const fields = Object.fromEntries(
        [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
      );
      const done = await idp.follow(
        ctx.idp,
        await idp.request(new URL(action, ctx.idp.base).href, jar, { form: fields }),
        jar,
      );
      const code = idp.fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      const tokens = await idp.exchangeCode(ctx.idp, code!, verifier);
      expect(decodeJwt(tokens.body.access_token!).email).toBe('sam@example.com');
    });
  });
});
