import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { DEMO_USERS } from '../demo/users.ts';
import { IDP_CSP } from '../plugins/security-headers.ts';
import { getPublicJwks } from './index.ts';
import { createSecrets } from '../secrets/secrets.ts';
import * as idp from '../test/idp.ts';

idp.describeIdp('discovery', (ctx) => {
  it('seeds every demo identity once', async () => {
    const { rows } = await ctx.db.query<{ count: number }>(
      'select count(*)::int as count from idp_identities',
    );
    expect(rows[0]!.count).toBe(Object.keys(DEMO_USERS).length);
  });

  describe('discovery', () => {
    it('serves Keycloak-style endpoints under the realm issuer', async () => {
      const response = await fetch(`${ctx.idp.base}/realms/portal/.well-known/openid-configuration`);
      expect(response.status).toBe(200);
      const doc = (await response.json()) as Record<string, unknown>;
      const realm = `${ctx.idp.base}/realms/portal`;
      expect(doc.issuer).toBe(realm);
      expect(doc.authorization_endpoint).toBe(`${realm}/protocol/openid-connect/auth`);
      expect(doc.token_endpoint).toBe(`${realm}/protocol/openid-connect/token`);
      expect(doc.jwks_uri).toBe(`${realm}/protocol/openid-connect/certs`);
      expect(doc.userinfo_endpoint).toBe(`${realm}/protocol/openid-connect/userinfo`);
      expect(doc.end_session_endpoint).toBe(`${realm}/protocol/openid-connect/logout`);
      expect(doc.revocation_endpoint).toBe(`${realm}/protocol/openid-connect/revoke`);
      expect(doc.code_challenge_methods_supported).toEqual(['S256']);
      expect(doc.scopes_supported).toEqual(
        expect.arrayContaining(['openid', 'profile', 'email', 'portal', 'accounts', 'support']),
      );

      const certs = (await (await fetch(`${realm}/protocol/openid-connect/certs`)).json()) as {
        keys: object[];
      };
      expect(certs).toEqual(await getPublicJwks(ctx.db, createSecrets(ctx.idp.config.secrets.keys)));
      expect(JSON.stringify(certs)).not.toMatch(/"d":/);
    });

    it('ignores forwarded host and scheme headers unless the server trusts its proxy', async () => {
      const response = await fetch(`${ctx.idp.base}/realms/portal/.well-known/openid-configuration`, {
        headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      });
      const doc = (await response.json()) as Record<string, string>;
      const realm = `${ctx.idp.base}/realms/portal`;
      expect(doc.issuer).toBe(realm);
      for (const key of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'end_session_endpoint']) {
        expect(doc[key], key).toMatch(new RegExp(`^${realm}/`));
      }
      expect(JSON.stringify(doc)).not.toContain('evil.example');
    });

    it('follows forwarded host and scheme from a proxy the server trusts, keeping the configured issuer', async () => {
      const port = await idp.freePort();
      const config = idp.localConfig(port, { WEB_DIST: '/nonexistent', TRUST_PROXY: 'true' });
      const app = await buildApp(config, { db: ctx.db });
      await app.listen({ host: '127.0.0.1', port });
      try {
        const response = await fetch(`${config.publicUrl}/realms/portal/.well-known/openid-configuration`, {
          headers: { 'x-forwarded-host': 'portal.example', 'x-forwarded-proto': 'https' },
        });
        const doc = (await response.json()) as Record<string, string>;
        expect(doc.issuer).toBe(`${config.publicUrl}/realms/portal`);
        expect(doc.token_endpoint).toBe('https://portal.example/realms/portal/protocol/openid-connect/token');
      } finally {
        await app.close();
      }
    });

    it('serves the 3p-cookies check pages and the stylesheet', async () => {
      const step1 = await fetch(
        `${ctx.idp.base}/realms/portal/protocol/openid-connect/3p-cookies/step1.html`,
      );
      expect(step1.status).toBe(200);
      expect(await step1.text()).toContain('<script src="/realms/portal/resources/3p-cookies.js">');
      const css = await fetch(`${ctx.idp.base}/realms/portal/resources/login.css`);
      expect(css.headers.get('content-type')).toContain('text/css');
      expect(await css.text()).toContain('--primary: #d41130');
    });

    it("puts the sign-in service's security headers on its pages and on the provider's own answers", async () => {
      const jar = new idp.CookieJar();
      const discovery = await fetch(`${ctx.idp.base}/realms/portal/.well-known/openid-configuration`);
      // An unknown client gets the provider's error page (it cannot be sent back anywhere).
      const errorPage = await idp.request(idp.authorizeUrl(ctx.idp, { client_id: 'unknown' }), jar);
      expect(errorPage.status).toBe(400);
      expect(await errorPage.text()).toContain('id="kc-message"');
      const start = await idp.request(
        idp.authorizeUrl(ctx.idp, { code_challenge: idp.pkce().challenge, code_challenge_method: 'S256' }),
        jar,
      );
      const loginPage = await idp.follow(ctx.idp, start, jar);
      const expired = await idp.request(`${ctx.idp.base}/realms/portal/login-actions/unknown/login`, jar);
      expect(expired.status).toBe(400);
      for (const response of [discovery, errorPage, start, loginPage, expired]) {
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('content-security-policy')).toBe(IDP_CSP);
        expect(response.headers.get('referrer-policy')).toBe('no-referrer');
        expect(response.headers.get('x-frame-options')).toBe('DENY');
      }
    });
  });
});
