import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import { findIdentityByEmail, setPassword } from './identities.ts';
import * as idp from '../test/idp.ts';

idp.describeIdp('password reset', (ctx) => {
  /** Asks for a reset link on the forgot-password page, as the user would; returns the mailed link. */
  async function requestLink(email: string): Promise<string> {
    const jar = new idp.CookieJar();
    const loginHtml = await idp.openLoginPage(ctx.idp, jar);
    const forgotHref = /id="kc-forgot-password" href="([^"]+)"/.exec(loginHtml)![1]!.replace(/&amp;/g, '&');
    const forgotHtml = await (await idp.request(new URL(forgotHref, ctx.idp.base).href, jar)).text();
    const since = ctx.mailbox.mails.length;
    await idp.request(new URL(idp.formAction(forgotHtml, 'kc-reset-password-form'), ctx.idp.base).href, jar, {
      form: { username: email },
    });
    const link = idp.linkIn(await ctx.mailbox.next(email, since), 'reset');
    // Let the next request pass the mail flood guard.
    await ctx.db.query(`update idp_action_tokens set created_at = created_at - interval '1 hour'`);
    return link;
  }

  async function resetWith(link: string, password: string) {
    const jar = new idp.CookieJar();
    const page = await idp.request(link, jar);
    if (page.status !== 200) return page;
    const action = new URL(idp.formAction(await page.text(), 'kc-new-password-form'), ctx.idp.base).href;
    const key = new URL(link).searchParams.get('key')!;
    return idp.request(action, jar, { form: { key, password, 'password-confirm': password } });
  }

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
      expect(await sent.text()).toContain('Falls ein Login mit dieser E-Mail-Adresse besteht');
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
  describe('password policy', () => {
    it('refuses a password the policy refuses, in the page language, and changes nothing', async () => {
      // Neither part of the name is in the email's local part, so each rule shows on its own.
      const user = DEMO_USERS.fresh;
      const link = await requestLink(user.email);
      const key = new URL(link).searchParams.get('key')!;
      const jar = new idp.CookieJar();
      const page = await (await idp.request(link, jar)).text();
      expect(page).toContain('Mindestens 12 Zeichen; kein gängiges Passwort, weder Ihr Name noch');
      const action = new URL(idp.formAction(page, 'kc-new-password-form'), ctx.idp.base).href;
      const save = (password: string, locale = 'de') =>
        idp.request(action, jar, {
          form: { key, password, 'password-confirm': password, kc_locale: locale },
        });
      for (const [password, message] of idp.weakPasswords(user)) {
        const refused = await save(password);
        expect(refused.status, password).toBe(400);
        expect(await refused.text(), password).toContain(
          `<p id="password-error" class="kc-field-error">${message}`,
        );
      }
      const french = await (await save('FelixFrisch99', 'fr')).text();
      expect(french).toContain('Le mot de passe ne doit pas contenir votre nom.');
      // Nothing changed: the old password still works, and the link still does.
      expect((await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD)).tokens.status).toBe(
        200,
      );

      expect((await save(idp.STRONG_PASSWORD)).status).toBe(200);
      expect(
        (await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, idp.STRONG_PASSWORD)).tokens.status,
      ).toBe(200);
      await setPassword(ctx.db, (await findIdentityByEmail(ctx.db, user.email))!.id, DEMO_PASSWORD);
    });
  });
  describe('the current password', () => {
    it('is refused as the new one with the reason, in the page language; the link keeps working (issue 21 item 10)', async () => {
      const user = DEMO_USERS.inhaber;
      const id = (await findIdentityByEmail(ctx.db, user.email))!.id;
      // A password the policy accepts, so only its being the current one can refuse it.
      await setPassword(ctx.db, id, idp.STRONG_PASSWORD);
      const link = await requestLink(user.email);
      const key = new URL(link).searchParams.get('key')!;
      const jar = new idp.CookieJar();
      const action = new URL(
        idp.formAction(await (await idp.request(link, jar)).text(), 'kc-new-password-form'),
        ctx.idp.base,
      ).href;
      const save = (password: string, locale: string) =>
        idp.request(action, jar, {
          form: { key, password, 'password-confirm': password, kc_locale: locale },
        });
      for (const [locale, message] of [
        ['de', 'Das neue Passwort muss sich vom aktuellen unterscheiden.'],
        ['fr', 'Le nouveau mot de passe doit être différent de l’actuel.'],
        ['it', 'La nuova password deve essere diversa da quella attuale.'],
        ['en', 'The new password must differ from the current one.'],
      ] as const) {
        const refused = await save(idp.STRONG_PASSWORD, locale);
        expect(refused.status, locale).toBe(400);
        expect(await refused.text(), locale).toContain(
          `<p id="password-error" class="kc-field-error">${message}`,
        );
      }
      // The link was not used up: another password is saved with it.
      expect((await save('Tannen-Fluss-Kerze-47', 'de')).status).toBe(200);
      expect(
        (await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, 'Tannen-Fluss-Kerze-47')).tokens.status,
      ).toBe(200);
      await setPassword(ctx.db, id, DEMO_PASSWORD);
    });
  });
  describe('earlier links', () => {
    it('a newer link makes the earlier ones stop working', async () => {
      const user = DEMO_USERS.coach;
      const older = await requestLink(user.email);
      const newer = await requestLink(user.email);
      expect((await resetWith(newer, 'Newer-Password-1')).status).toBe(200);
      expect(
        (await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, 'Newer-Password-1')).tokens.status,
      ).toBe(200);
      const refused = await resetWith(older, 'Older-Password-1');
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('ungültig');
      await expect(idp.signIn(ctx.idp, new idp.CookieJar(), user.email, 'Older-Password-1')).rejects.toThrow(
        /no code/,
      );
      await setPassword(ctx.db, (await findIdentityByEmail(ctx.db, user.email))!.id, DEMO_PASSWORD);
    });

    it('a password change makes every earlier link stop working', async () => {
      const user = DEMO_USERS.coach;
      const link = await requestLink(user.email);
      await setPassword(ctx.db, (await findIdentityByEmail(ctx.db, user.email))!.id, DEMO_PASSWORD);
      expect((await resetWith(link, 'Later-Password-1')).status).toBe(400);
    });
  });
});
