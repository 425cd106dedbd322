import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import * as idp from '../test/idp.ts';

idp.describeIdp('email verification', (ctx) => {
  describe('mails through SMTP', () => {
    it('kc_action=VERIFY_EMAIL mails a link that verifies the address and continues to the app', async () => {
      const jar = new idp.CookieJar();
      const user = DEMO_USERS.unverified;
      const { tokens } = await idp.signIn(ctx.idp, jar, user.email, DEMO_PASSWORD);
      expect(decodeJwt(tokens.body.access_token!).email_verified).toBe(false);

      const since = ctx.mailbox.mails.length;
      const { verifier, challenge } = idp.pkce();
      const start = await idp.request(
        idp.authorizeUrl(ctx.idp, {
          code_challenge: challenge,
          code_challenge_method: 'S256',
          kc_action: 'VERIFY_EMAIL',
          kc_locale: 'en',
        }),
        jar,
      );
      const page = await idp.follow(ctx.idp, start, jar);
      const html = await page.text();
      expect(html).toContain(`We have sent an email to ${user.email}`);
      const mail = await ctx.mailbox.next(user.email, since);
      expect(mail).toMatch(/Subject: Portal: Verify your email address/);
      const link = idp.linkIn(mail, 'verify-email');

      // "Continue" before clicking the link says it is not verified yet.
      const early = await idp.request(
        new URL(
          idp.formAction(
            html.replace('<form method="post" action', '<form id="continue" method="post" action'),
            'continue',
          ),
          ctx.idp.base,
        ).href,
        jar,
        { form: {} },
      );
      expect(await early.text()).toContain('not verified yet');

      const done = await idp.follow(ctx.idp, await idp.request(link, jar), jar);
      const code = idp.fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      const after = await idp.exchangeCode(ctx.idp, code!, verifier);
      expect(decodeJwt(after.body.access_token!).email_verified).toBe(true);
      // The refresh token of the earlier sign-in now yields a verified token as well (claims come from the database).
      const refreshed = await idp.refresh(ctx.idp, tokens.body.refresh_token!);
      expect(decodeJwt(refreshed.body.access_token!).email_verified).toBe(true);
      // One-time link.
      expect((await idp.request(link, new idp.CookieJar())).status).toBe(400);
    });
  });
});
