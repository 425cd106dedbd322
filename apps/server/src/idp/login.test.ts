import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import * as idp from '../test/idp.ts';

idp.describeIdp('login', (ctx) => {
  describe('authorization code flow', () => {
    it('shows a localised, accessible login page (German by default)', async () => {
      const jar = new idp.CookieJar();
      const start = await idp.request(
        idp.authorizeUrl(ctx.idp, { code_challenge: idp.pkce().challenge, code_challenge_method: 'S256' }),
        jar,
      );
      expect(start.status).toBe(303);
      expect(start.headers.get('location')).toMatch(/^\/realms\/portal\/login-actions\/[\w-]+$/);
      const page = await idp.follow(ctx.idp, start, jar);
      const html = await page.text();
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(html).toContain('<html lang="de">');
      expect(html).toContain('<label for="username">E-Mail</label>');
      expect(html).toContain('<label for="password">Passwort</label>');
      expect(html).toMatch(/<button id="kc-login"[^>]*>Anmelden<\/button>/);
      expect(html).toContain('Passwort vergessen?');
      // Scripts only from files of its own (the passkey button's), none inline.
      expect(html).not.toMatch(/<script(?! src="\/realms\/portal\/resources\/)|style=|fonts\.googleapis/);

      const englishHtml = await idp.openLoginPage(ctx.idp, jar, { ui_locales: 'en-GB' });
      expect(englishHtml).toContain('<html lang="en">');
      expect(englishHtml).toContain('Sign in with your login');
      expect(await idp.openLoginPage(ctx.idp, jar, { kc_locale: 'fr', ui_locales: 'en' })).toContain(
        'Connectez-vous avec votre identifiant',
      );
    });

    it('shows a clear error for a wrong password, linked to the fields', async () => {
      const jar = new idp.CookieJar();
      const html = await idp.openLoginPage(ctx.idp, jar);
      const response = await idp.request(
        new URL(idp.formAction(html, 'kc-form-login'), ctx.idp.base).href,
        jar,
        {
          form: { username: DEMO_USERS.admin.email, password: 'wrong-password' },
        },
      );
      const errorHtml = await response.text();
      expect(errorHtml).toContain(
        '<p id="input-error" class="kc-alert kc-alert-error" role="alert">Ungültige E-Mail-Adresse oder ungültiges Passwort.</p>',
      );
      expect(errorHtml).toMatch(/id="password"[^>]*aria-invalid="true" aria-describedby="input-error"/);
      expect(errorHtml).toContain(`value="${DEMO_USERS.admin.email}"`);
    });
  });

  describe('brute-force protection', () => {
    it('locks an identity after repeated failures, with a growing wait and a clear message', async () => {
      const jar = new idp.CookieJar();
      const attempt = async (password: string) => {
        const html = await idp.openLoginPage(ctx.idp, jar);
        return idp.request(new URL(idp.formAction(html, 'kc-form-login'), ctx.idp.base).href, jar, {
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
      await ctx.db.query(
        `update idp_login_failures set locked_until = now() - interval '1 second' where key like 'identity:%'`,
      );
      const sixth = await attempt('nope');
      expect(await sixth.text()).toContain('in 2 Minuten erneut');
      await ctx.db.query('delete from idp_login_failures');
      expect((await attempt(DEMO_PASSWORD)).status).toBe(303);
    });

    /** Opens one login form per attempt (each in its own browser), so the attempts can be sent at once. */
    async function prepareAttempts(target: idp.TestIdp, count: number) {
      return Promise.all(
        Array.from({ length: count }, async () => {
          const jar = new idp.CookieJar();
          const html = await idp.openLoginPage(target, jar);
          const action = new URL(idp.formAction(html, 'kc-form-login'), target.base).href;
          return (username: string, password: string) =>
            idp.request(action, jar, { form: { username, password } });
        }),
      );
    }

    it('checks no more passwords than the limit allows when attempts arrive in parallel, on two instances', async () => {
      const second = await idp.startIdp(ctx.db);
      try {
        const forms = [...(await prepareAttempts(ctx.idp, 8)), ...(await prepareAttempts(second, 8))];
        const responses = await Promise.all(forms.map((send) => send(DEMO_USERS.coach.email, 'nope')));
        const statuses = responses.map((response) => response.status);
        // Four failures answer plainly, the fifth locks, and every later attempt is refused unchecked.
        expect(statuses.filter((status) => status === 200)).toHaveLength(4);
        expect(statuses.filter((status) => status === 429)).toHaveLength(12);
        // Each checked password counted once on the identity.
        const { rows } = await ctx.db.query<{ failures: number }>(
          `select max(failures) as failures from idp_login_failures where key like 'identity:%'`,
        );
        expect(Number(rows[0]?.failures)).toBe(5);
        // Locked: the right password is refused too.
        const [right] = await prepareAttempts(second, 1);
        expect((await right!(DEMO_USERS.coach.email, DEMO_PASSWORD)).status).toBe(429);
      } finally {
        await second.app.close();
        await ctx.db.query('delete from idp_login_failures');
      }
    });

    it('locks an address without an account exactly like one with', async () => {
      const answers = async (email: string) => {
        const forms = await prepareAttempts(ctx.idp, 6);
        const statuses: number[] = [];
        for (const send of forms) statuses.push((await send(email, 'nope')).status);
        return statuses;
      };
      try {
        const known = await answers(DEMO_USERS.coach.email);
        const unknown = await answers('No-Account@Example.com');
        expect(known).toEqual([200, 200, 200, 200, 429, 429]);
        expect(unknown).toEqual(known);
      } finally {
        await ctx.db.query('delete from idp_login_failures');
      }
    });

    it('locks a client address after repeated failures across identities', async () => {
      const strict = await idp.startIdp(ctx.db, {
        configure: (config) => {
          config.idp.bruteForce.maxFailuresPerAddress = 3;
        },
      });
      try {
        const jar = new idp.CookieJar();
        const attempt = async (username: string) => {
          const html = await idp.openLoginPage(strict, jar, { kc_locale: 'it' });
          return idp.request(new URL(idp.formAction(html, 'kc-form-login'), strict.base).href, jar, {
            form: { username, password: 'guess' },
          });
        };
        expect((await attempt('nobody-1@example.com')).status).toBe(200);
        expect((await attempt('nobody-2@example.com')).status).toBe(200);
        const third = await attempt('nobody-3@example.com');
        expect(third.status).toBe(429);
        expect(await third.text()).toContain(
          'Troppi tentativi di accesso non riusciti. Riprovi tra 1 minuto.',
        );
      } finally {
        await strict.app.close();
        await ctx.db.query('delete from idp_login_failures');
      }
    });
  });

  describe('pages of the sign-in service', () => {
    it('link their icon, which answers as an image (no request for /favicon.ico)', async () => {
      const html = await idp.openLoginPage(ctx.idp, new idp.CookieJar());
      const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(html)?.[1];
      expect(href).toBe('/realms/portal/resources/favicon.svg');
      const icon = await fetch(new URL(href!, ctx.idp.base));
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await icon.text()).toMatch(/^<svg /);
    });

    it('names and links PUBLIC_URL when the app was opened at another address, in the page language', async () => {
      const jar = new idp.CookieJar();
      // The same port, another host name: the app was opened at localhost while PUBLIC_URL says 127.0.0.1.
      const otherHost = `http://localhost:${ctx.idp.port}/oauthcb`;
      const url = ctx.idp.base;
      const signInFrom = (params: Record<string, string>) =>
        idp.request(
          idp.authorizeUrl(ctx.idp, {
            redirect_uri: otherHost,
            code_challenge: idp.pkce().challenge,
            code_challenge_method: 'S256',
            ...params,
          }),
          jar,
        );

      const german = await signInFrom({});
      expect(german.status).toBe(400);
      const html = await german.text();
      expect(html).toContain('<html lang="de">');
      expect(html).toContain(`Die Anmeldung funktioniert nur, wenn Sie Portal unter ${url} öffnen.`);
      expect(html).toContain(
        `<a id="kc-continue" class="kc-button kc-button-link" href="${url}/">${url} öffnen</a>`,
      );
      expect(html).not.toContain('invalid_redirect_uri');

      const french = await (await signInFrom({ kc_locale: 'fr' })).text();
      expect(french).toContain('<html lang="fr">');
      expect(french).toContain(`La connexion ne fonctionne que si vous ouvrez Portal à l’adresse ${url}.`);
      expect(french).toContain(`href="${url}/">Ouvrir ${url}</a>`);

      // Signing out from the other address meets the same page.
      const signOut = await idp.request(
        `${url}/realms/portal/protocol/openid-connect/logout?client_id=portal&post_logout_redirect_uri=${encodeURIComponent(`http://localhost:${ctx.idp.port}/`)}&ui_locales=it`,
        jar,
        { headers: { accept: 'text/html' } },
      );
      expect(signOut.status).toBe(400);
      expect(await signOut.text()).toContain(`L’accesso funziona solo se apre Portal all’indirizzo ${url}.`);
    });
  });
});
