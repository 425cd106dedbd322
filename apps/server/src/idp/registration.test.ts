import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { DEMO_PASSWORD, DEMO_USERS } from '../db/demo-users.ts';
import {
  authorizeUrl,
  CookieJar,
  describeIdp,
  exchangeCode,
  follow,
  formAction,
  fragmentOf,
  pkce,
  request,
  signIn,
} from './test-support.ts';

describeIdp('registration', (ctx) => {
  describe('registration', () => {
    it('creates an unverified identity via the registrations endpoint and continues the flow', async () => {
      const jar = new CookieJar();
      const { verifier, challenge } = pkce();
      const registrations = authorizeUrl(ctx.idp, {
        code_challenge: challenge,
        code_challenge_method: 'S256',
        kc_locale: 'en',
      }).replace('/protocol/openid-connect/auth?', '/protocol/openid-connect/registrations?');
      const page = await follow(ctx.idp, await request(registrations, jar), jar);
      const html = await page.text();
      expect(html).toContain('Create an account');
      const action = new URL(formAction(html, 'kc-register-form'), ctx.idp.base).href;

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
      const done = await follow(ctx.idp, created, jar);
      const code = fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      const tokens = await exchangeCode(ctx.idp, code!, verifier);
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
      await signIn(ctx.idp, jar, DEMO_USERS.admin.email, DEMO_PASSWORD);
      const { verifier, challenge } = pkce();
      const page = await follow(
        ctx.idp,
        await request(
          authorizeUrl(ctx.idp, {
            code_challenge: challenge,
            code_challenge_method: 'S256',
            prompt: 'create',
          }),
          jar,
        ),
        jar,
      );
      const html = await page.text();
      const created = await request(new URL(formAction(html, 'kc-register-form'), ctx.idp.base).href, jar, {
        form: {
          firstName: 'Sam',
          lastName: 'Switch',
          email: 'sam@example.com',
          password: 'a-long-password',
          'password-confirm': 'a-long-password',
        },
      });
      // oidc-provider ends the old session with an auto-submitting form; its inline script is allowed by hash.
      const switching = await follow(ctx.idp, created, jar);
      expect(switching.status).toBe(200);
      const csp = switching.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self' 'sha256-[^']+'/);
      const form = await switching.text();
      const action = /<form method="post" action="([^"]+)"/.exec(form)![1]!;
      const fields = Object.fromEntries(
        [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
      );
      const done = await follow(
        ctx.idp,
        await request(new URL(action, ctx.idp.base).href, jar, { form: fields }),
        jar,
      );
      const code = fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      const tokens = await exchangeCode(ctx.idp, code!, verifier);
      expect(decodeJwt(tokens.body.access_token!).email).toBe('sam@example.com');
    });
  });
});
