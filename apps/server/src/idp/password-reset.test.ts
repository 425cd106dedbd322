import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../db/demo-users.ts';
import * as idp from './test-support.ts';

idp.describeIdp('password reset', (ctx) => {
  describe('mails through SMTP', () => {
    it('forgot password mails a one-time link that sets a new password', async () => {
      const jar = new idp.CookieJar();
      const user = DEMO_USERS.newowner;
      const elsewhere = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
      const { verifier, challenge } = idp.pkce();
      const start = await idp.request(
        idp.authorizeUrl(ctx.idp, { code_challenge: challenge, code_challenge_method: 'S256' }),
        jar,
      );
      const loginHtml = await (await idp.follow(ctx.idp, start, jar)).text();
      const forgotHref = /id="kc-forgot-password" href="([^"]+)"/.exec(loginHtml)![1]!.replace(/&amp;/g, '&');
      const forgotHtml = await (await idp.request(new URL(forgotHref, ctx.idp.base).href, jar)).text();
      expect(forgotHtml).toContain('Passwort zurücksetzen');
      const since = ctx.mailbox.mails.length;
      const sent = await idp.request(
        new URL(idp.formAction(forgotHtml, 'kc-reset-password-form'), ctx.idp.base).href,
        jar,
        {
          form: { username: user.email },
        },
      );
      expect(await sent.text()).toContain('Falls ein Konto mit dieser E-Mail-Adresse besteht');
      const mail = await ctx.mailbox.next(user.email, since);
      expect(mail).toContain('Der Link ist 30 Minuten gültig');
      const link = idp.linkIn(mail, 'reset');

      const resetHtml = await (await idp.request(link, jar)).text();
      expect(resetHtml).toContain('Neues Passwort festlegen');
      const action = new URL(idp.formAction(resetHtml, 'kc-new-password-form'), ctx.idp.base).href;
      const key = new URL(link).searchParams.get('key')!;
      const mismatch = await idp.request(action, jar, {
        form: { key, password: 'New-Password-1', 'password-confirm': 'other' },
      });
      expect(await mismatch.text()).toContain('Die Passwörter stimmen nicht überein.');
      const saved = await idp.request(action, jar, {
        form: { key, password: 'New-Password-1', 'password-confirm': 'New-Password-1' },
      });
      // Same browser, login still pending: signed in and back to the app.
      const done = await idp.follow(ctx.idp, saved, jar);
      const code = idp.fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      expect((await idp.exchangeCode(ctx.idp, code!, verifier)).status).toBe(200);

      // Other devices are signed out.
      expect((await idp.refresh(ctx.idp, elsewhere.tokens.body.refresh_token!)).status).toBe(400);
      // The link works once; the new password works, the old one does not.
      expect((await idp.request(link, new idp.CookieJar())).status).toBe(400);
      await expect(idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD)).rejects.toThrow(
        /no code/,
      );
      expect(
        (await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, 'New-Password-1')).tokens.status,
      ).toBe(200);
    });
  });
});
