import { describe, expect, it, vi } from 'vitest';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import { getPublicJwks } from './index.ts';
import { createSecrets } from '../secrets/secrets.ts';
import * as idp from '../test/idp.ts';

idp.describeIdp('tokens', (ctx) => {
  describe('authorization code flow', () => {
    it('refuses an authorization request without PKCE', async () => {
      const jar = new idp.CookieJar();
      const response = await idp.request(idp.authorizeUrl(ctx.idp), jar);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(new RegExp(`^${ctx.idp.base}/oauthcb#`));
      const fragment = idp.fragmentOf(response);
      expect(fragment.get('error')).toBe('invalid_request');
      expect(fragment.get('error_description')).toMatch(/PKCE/);
    });

    it('refuses a plain code_challenge_method and a foreign redirect_uri', async () => {
      const jar = new idp.CookieJar();
      const plain = await idp.request(
        idp.authorizeUrl(ctx.idp, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }),
        jar,
      );
      expect(idp.fragmentOf(plain).get('error')).toBe('invalid_request');
      const foreign = await idp.request(
        idp.authorizeUrl(ctx.idp, {
          code_challenge: idp.pkce().challenge,
          code_challenge_method: 'S256',
          redirect_uri: 'https://evil.example/cb',
        }),
        jar,
      );
      expect(foreign.status).toBe(400);
      expect(foreign.headers.get('location')).toBeNull();
    });

    it('lets the provider read the bodies it parses: a sign-in with a token request warns of nothing', async () => {
      const warn = vi.spyOn(console, 'warn');
      try {
        const { tokens } = await idp.signIn(
          ctx.idp,
          new idp.CookieJar(),
          DEMO_USERS.admin.email,
          DEMO_PASSWORD,
        );
        expect(tokens.status).toBe(200);
        expect(warn.mock.calls.flat().join('\n')).not.toMatch(/oidc-provider WARNING/);
      } finally {
        warn.mockRestore();
      }
    });

    it('signs in through the form and issues a JWT access token for the API', async () => {
      const jar = new idp.CookieJar();
      const { redirect, tokens } = await idp.signIn(
        ctx.idp,
        jar,
        DEMO_USERS.owner.email.toUpperCase(),
        DEMO_PASSWORD,
      );
      expect(redirect.headers.get('location')).toMatch(new RegExp(`^${ctx.idp.base}/oauthcb#`));
      expect(idp.fragmentOf(redirect).get('state')).toBe('state-1');
      expect(tokens.status).toBe(200);
      expect(tokens.body.token_type).toBe('Bearer');
      expect(Number(tokens.body.expires_in)).toBe(300);

      const jwks = createLocalJWKSet(await getPublicJwks(ctx.db, createSecrets(ctx.idp.config.secrets.keys)));
      const { payload, protectedHeader } = await jwtVerify(tokens.body.access_token!, jwks, {
        issuer: ctx.idp.config.oidc.issuer,
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
      const userinfo = await fetch(`${ctx.idp.base}/realms/portal/protocol/openid-connect/userinfo`, {
        headers: { authorization: `bearer ${tokens.body.access_token}` },
      });
      expect(userinfo.status).toBe(200);
      expect(await userinfo.json()).toMatchObject({
        sub: DEMO_USERS.owner.id,
        email: DEMO_USERS.owner.email,
        email_verified: true,
      });
      const account = await fetch(`${ctx.idp.base}/realms/portal/account`, {
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
      const anonymous = await fetch(`${ctx.idp.base}/realms/portal/protocol/openid-connect/userinfo`);
      expect(anonymous.status).toBe(401);

      // Single sign-on: a second authorization in the same browser needs no login page.
      await idp.expectSilentSignIn(ctx.idp, jar);
    });

    it('rotates refresh tokens and revokes the grant when a used one comes back', async () => {
      const jar = new idp.CookieJar();
      const user = DEMO_USERS.employee;
      const { first, rotated } = await idp.signInAndRefresh(ctx.idp, jar, user.email, DEMO_PASSWORD);
      expect(rotated.body.refresh_token).toBeTruthy();
      expect(rotated.body.refresh_token).not.toBe(first);
      const { payload } = await jwtVerify(
        rotated.body.access_token!,
        createLocalJWKSet(await getPublicJwks(ctx.db, createSecrets(ctx.idp.config.secrets.keys))),
        {
          issuer: ctx.idp.config.oidc.issuer,
          audience: 'portal-api',
        },
      );
      expect(payload.sub).toBe(user.id);

      const reused = await idp.refresh(ctx.idp, first);
      expect(reused.status).toBe(400);
      expect(reused.body.error).toBe('invalid_grant');
      // Reuse is treated as theft: the whole grant is gone, the newer token too.
      const afterReuse = await idp.refresh(ctx.idp, rotated.body.refresh_token!);
      expect(afterReuse.status).toBe(400);
    });

    it('answers the SPA origin on the token endpoint (CORS) and refuses other origins', async () => {
      const { tokens } = await idp.signIn(
        ctx.idp,
        new idp.CookieJar(),
        DEMO_USERS.fresh.email,
        DEMO_PASSWORD,
      );
      const call = (origin: string, refreshToken: string) =>
        fetch(`${ctx.idp.base}/realms/portal/protocol/openid-connect/token`, {
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
      const own = await call(ctx.idp.base, tokens.body.refresh_token!);
      expect(own.status).toBe(200);
      expect(own.headers.get('access-control-allow-origin')).toBe(ctx.idp.base);
    });
  });

  describe('storage', () => {
    it('survives a provider restart: sessions and refresh tokens live in the database', async () => {
      const jar = new idp.CookieJar();
      const { tokens } = await idp.signIn(ctx.idp, jar, DEMO_USERS.inhaber.email, DEMO_PASSWORD);
      await ctx.restart();

      const refreshed = await idp.refresh(ctx.idp, tokens.body.refresh_token!).catch((error: Error) => {
        throw error.cause ?? error;
      });
      expect(refreshed.status).toBe(200);
      expect(decodeJwt(refreshed.body.access_token!)).toMatchObject({
        sub: DEMO_USERS.inhaber.id,
        locale: 'fr',
      });
      // The SSO session is still there: no login page.
      await idp.expectSilentSignIn(ctx.idp, jar);
    });
  });
});
