import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../db/demo-users.ts';
import {
  authorizeUrl,
  CookieJar,
  describeIdp,
  exchangeCode,
  follow,
  formAction,
  fragmentOf,
  linkIn,
  pkce,
  refresh,
  request,
  signIn,
} from './test-support.ts';

describeIdp('password reset', (ctx) => {
  describe('mails through SMTP', () => {
    it('forgot password mails a one-time link that sets a new password', async () => {
      const jar = new CookieJar();
      const user = DEMO_USERS.newowner;
      const elsewhere = await signIn(ctx.idp, new CookieJar(), user.email, DEMO_PASSWORD);
      const { verifier, challenge } = pkce();
      const start = await request(
        authorizeUrl(ctx.idp, { code_challenge: challenge, code_challenge_method: 'S256' }),
        jar,
      );
      const loginHtml = await (await follow(ctx.idp, start, jar)).text();
      const forgotHref = /id="kc-forgot-password" href="([^"]+)"/.exec(loginHtml)![1]!.replace(/&amp;/g, '&');
      const forgotHtml = await (await request(new URL(forgotHref, ctx.idp.base).href, jar)).text();
      expect(forgotHtml).toContain('Passwort zurücksetzen');
      const since = ctx.mailbox.mails.length;
      const sent = await request(
        new URL(formAction(forgotHtml, 'kc-reset-password-form'), ctx.idp.base).href,
        jar,
        {
          form: { username: user.email },
        },
      );
      expect(await sent.text()).toContain('Falls ein Konto mit dieser E-Mail-Adresse besteht');
      const mail = await ctx.mailbox.next(user.email, since);
      expect(mail).toContain('Der Link ist 30 Minuten gültig');
      const link = linkIn(mail, 'reset');

      const resetHtml = await (await request(link, jar)).text();
      expect(resetHtml).toContain('Neues Passwort festlegen');
      const action = new URL(formAction(resetHtml, 'kc-new-password-form'), ctx.idp.base).href;
      const key = new URL(link).searchParams.get('key')!;
      const mismatch = await request(action, jar, {
        form: { key, password: 'New-Password-1', 'password-confirm': 'other' },
      });
      expect(await mismatch.text()).toContain('Die Passwörter stimmen nicht überein.');
      const saved = await request(action, jar, {
        form: { key, password: 'New-Password-1', 'password-confirm': 'New-Password-1' },
      });
      // Same browser, login still pending: signed in and back to the app.
      const done = await follow(ctx.idp, saved, jar);
      const code = fragmentOf(done).get('code');
      expect(code).toBeTruthy();
      expect((await exchangeCode(ctx.idp, code!, verifier)).status).toBe(200);

      // Other devices are signed out.
      expect((await refresh(ctx.idp, elsewhere.tokens.body.refresh_token!)).status).toBe(400);
      // The link works once; the new password works, the old one does not.
      expect((await request(link, new CookieJar())).status).toBe(400);
      await expect(signIn(ctx.idp, new CookieJar(), user.email, DEMO_PASSWORD)).rejects.toThrow(/no code/);
      expect((await signIn(ctx.idp, new CookieJar(), user.email, 'New-Password-1')).tokens.status).toBe(200);
    });
  });
});
