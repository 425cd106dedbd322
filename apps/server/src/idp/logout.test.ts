import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import * as idp from '../test/idp.ts';

idp.describeIdp('logout', (ctx) => {
  describe('authorization code flow', () => {
    it('logs out without a confirmation page and ends the session', async () => {
      const jar = new idp.CookieJar();
      const { tokens } = await idp.signIn(ctx.idp, jar, DEMO_USERS.agent.email, DEMO_PASSWORD);
      const logoutUrl = new URL(`${ctx.idp.base}/realms/portal/protocol/openid-connect/logout`);
      logoutUrl.searchParams.set('client_id', 'portal');
      logoutUrl.searchParams.set('post_logout_redirect_uri', `${ctx.idp.base}/`);
      logoutUrl.searchParams.set('id_token_hint', tokens.body.id_token!);
      const response = await idp.request(logoutUrl.href, jar);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(`${ctx.idp.base}/`);
      expect((await idp.refresh(ctx.idp, tokens.body.refresh_token!)).status).toBe(400);
      // The next authorization asks for the login again.
      const again = await idp.request(
        idp.authorizeUrl(ctx.idp, { code_challenge: idp.pkce().challenge, code_challenge_method: 'S256' }),
        jar,
      );
      expect(again.headers.get('location')).toMatch(/^\/realms\/portal\/login-actions\//);
      // Without a session, logout just goes back too (no auto-submitting page).
      const anonymous = await idp.request(
        logoutUrl.href.replace(/&id_token_hint=[^&]+/, ''),
        new idp.CookieJar(),
      );
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.get('location')).toBe(`${ctx.idp.base}/`);
    });

    it('asks before signing out when the logout link carries no valid hint of the signed-in person', async () => {
      const jar = new idp.CookieJar();
      const { tokens } = await idp.signIn(ctx.idp, jar, DEMO_USERS.agent.email, DEMO_PASSWORD);
      const other = await idp.signIn(ctx.idp, new idp.CookieJar(), DEMO_USERS.owner.email, DEMO_PASSWORD);
      const logoutUrl = (params: Record<string, string>) => {
        const url = new URL(`${ctx.idp.base}/realms/portal/protocol/openid-connect/logout`);
        url.searchParams.set('client_id', 'portal');
        url.searchParams.set('post_logout_redirect_uri', `${ctx.idp.base}/`);
        for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
        return url.href;
      };
      // A link anyone could send (no hint, or the hint of someone else) ends nothing by itself.
      let refreshToken = tokens.body.refresh_token!;
      const links: Record<string, string>[] = [
        { ui_locales: 'fr' },
        { id_token_hint: other.tokens.body.id_token! },
      ];
      for (const params of links) {
        const page = await idp.request(logoutUrl(params), jar);
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain('<button');
        if ('ui_locales' in params) {
          expect(html).toContain('lang="fr"');
          expect(html).toContain('Voulez-vous vous déconnecter\u202f?');
        }
        const refreshed = await idp.refresh(ctx.idp, refreshToken);
        expect(refreshed.status).toBe(200);
        refreshToken = refreshed.body.refresh_token!;
      }

      // The page's button signs out and goes back.
      const page = await idp.request(logoutUrl({}), jar);
      const html = await page.text();
      expect(html).toContain('Möchten Sie sich abmelden?');
      const action = /<form[^>]* action="([^"]+)"/.exec(html)![1]!;
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
      const confirmed = await idp.request(new URL(action, ctx.idp.base).href, jar, {
        method: 'POST',
        form: { xsrf, logout: 'yes' },
      });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get('location')).toBe(`${ctx.idp.base}/`);
      expect((await idp.refresh(ctx.idp, refreshToken)).status).toBe(400);
    });

    describe('logout with a refresh token (no redirect, as Keycloak)', () => {
      const logoutUrl = () => `${ctx.idp.base}/realms/portal/protocol/openid-connect/logout`;
      const tokenLogout = (form: Record<string, string>, headers: Record<string, string> = {}) =>
        fetch(logoutUrl(), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', connection: 'close', ...headers },
          body: new URLSearchParams(form).toString(),
        });
      const silentAuthorize = (jar: idp.CookieJar) =>
        idp.request(
          idp.authorizeUrl(ctx.idp, { code_challenge: idp.pkce().challenge, code_challenge_method: 'S256' }),
          jar,
        );

      it('ends the SSO session and grant: the refresh token is refused and the cookie signs in no more', async () => {
        const jar = new idp.CookieJar();
        const { tokens } = await idp.signIn(ctx.idp, jar, DEMO_USERS.owner.email, DEMO_PASSWORD);
        // A second tab of the same browser signs in silently and holds its own refresh token.
        const silent = await silentAuthorize(jar);
        expect(silent.headers.get('location')).toMatch(/\/oauthcb#.*code=/);
        const rotated = await idp.refresh(ctx.idp, tokens.body.refresh_token!);
        expect(rotated.status).toBe(200);
        const { rows } = await ctx.db.query<{ grant_id: string; session_uid: string }>(
          `select grant_id, payload->>'sessionUid' as session_uid from idp_payloads
           where model = 'RefreshToken' and id = $1`,
          [rotated.body.refresh_token!],
        );
        const { grant_id: grantId, session_uid: sessionUid } = rows[0]!;
        const remaining = async () =>
          (
            await ctx.db.query<{ model: string }>(
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
          { origin: ctx.idp.base },
        );
        expect(response.status).toBe(204);
        expect(response.headers.get('access-control-allow-origin')).toBe(ctx.idp.base);
        expect(await response.text()).toBe('');

        // Session, grant and every token issued under it are gone from the database.
        expect(await remaining()).toEqual([]);
        const refused = await idp.refresh(ctx.idp, rotated.body.refresh_token!);
        expect(refused.status).toBe(400);
        expect(refused.body.error).toBe('invalid_grant');
        // The browser still sends its session cookie, but the next authorization asks for the password.
        expect(jar.names()).toContain('_session');
        const again = await silentAuthorize(jar);
        expect(again.headers.get('location')).toMatch(/^\/realms\/portal\/login-actions\//);
        const page = await idp.follow(ctx.idp, again, jar);
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
        const jar = new idp.CookieJar();
        const user = DEMO_USERS.admin;
        const { first, rotated } = await idp.signInAndRefresh(ctx.idp, jar, user.email, DEMO_PASSWORD);
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
        expect((await idp.refresh(ctx.idp, current)).status).toBe(200);
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
        const own = await preflight(ctx.idp.base);
        expect(own.status).toBe(204);
        expect(own.headers.get('access-control-allow-origin')).toBe(ctx.idp.base);
        expect(own.headers.get('access-control-allow-methods')).toBe('POST');
        const foreign = await preflight('https://evil.example');
        expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

        // Without a refresh token it is no token logout: it stays the provider's (which, as before, takes
        // browser logouts by GET only) and ends nothing.
        const { tokens } = await idp.signIn(
          ctx.idp,
          new idp.CookieJar(),
          DEMO_USERS.coach.email,
          DEMO_PASSWORD,
        );
        const response = await tokenLogout({
          client_id: 'portal',
          id_token_hint: tokens.body.id_token!,
          post_logout_redirect_uri: `${ctx.idp.base}/`,
        });
        expect(response.status).toBe(404);
        expect((await idp.refresh(ctx.idp, tokens.body.refresh_token!)).status).toBe(200);
      });
    });
  });
});
