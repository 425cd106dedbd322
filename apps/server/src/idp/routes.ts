import fs from 'node:fs';
import { brandPalette } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { bearerToken } from '../http/bearer.ts';
import { findIdentityById, type Identity } from './identities.ts';
import { registerPasskeyResources } from './passkey-sign-in.ts';
import { identityClaims, ROUTES } from './realm.ts';
import { FAVICON_PATH, REALM_PATH, RESOURCES_PATH } from './views.ts';

const loginCss = fs.readFileSync(new URL('./login.css', import.meta.url), 'utf8');
// The product's icon is the web app's (apps/web/public): one file, also when the web app is not built.
const favicon = fs.readFileSync(new URL('../../../web/public/favicon.svg', import.meta.url));

// keycloak-js checks third-party cookies before it starts its login iframe; answering "unsupported" turns that
// iframe off (this provider has none), instead of a 10 s wait for an answer that never comes.
const thirdPartyCookiesJs = `window.parent.postMessage('unsupported', '*');\n`;
const thirdPartyCookiesHtml = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>3p-cookies</title>
<script src="${RESOURCES_PATH}/3p-cookies.js"></script></head><body></body></html>`;

/**
 * The sign-in pages' colours from the configured brand colour (decision 207), after login.css's own: the header and
 * buttons in the colour, hovered buttons and links in its darker shade, links on dark surfaces in its light tint.
 */
export function brandCss(color: string): string {
  const palette = brandPalette(color);
  return `
/* The configured brand (BRAND_COLOR). */
:root {
  --primary: ${palette.main};
  --primary-hover: ${palette.dark};
  --link: ${palette.dark};
}
@media (prefers-color-scheme: dark) {
  :root {
    --link: ${palette.darkText};
  }
}
`;
}

export interface KeycloakRouteDeps {
  config: Config;
  db: Db;
  /** The provider's public keys, reloaded when it rotates its signing key. */
  getKey: JWTVerifyGetKey;
}

/** The access token of a request: the Bearer header, else an `access_token` form field (as Keycloak). */
function requestToken(request: FastifyRequest): string | undefined {
  const fromHeader = bearerToken(request.headers.authorization);
  if (fromHeader) return fromHeader;
  const body = request.body as Record<string, unknown> | undefined;
  return typeof body?.access_token === 'string' ? body.access_token : undefined;
}

export function registerKeycloakRoutes(
  app: FastifyInstance,
  { config, db, getKey }: KeycloakRouteDeps,
): void {
  /** Verifies an access token of this provider (issuer, API audience, RS256) and loads its identity. */
  async function authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ identity: Identity; payload: JWTPayload } | undefined> {
    const token = requestToken(request);
    const deny = (description: string) => {
      void reply
        .code(401)
        .header(
          'www-authenticate',
          `Bearer realm="portal", error="invalid_token", error_description="${description}"`,
        )
        .header('cache-control', 'no-store')
        .send({ error: 'invalid_token', error_description: description });
      return undefined;
    };
    if (!token) return deny('no access token provided');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, {
        issuer: config.oidc.issuer,
        audience: config.oidc.audience,
        algorithms: ['RS256'],
      }));
    } catch {
      return deny('invalid token');
    }
    const identity = typeof payload.sub === 'string' ? await findIdentityById(db, payload.sub) : undefined;
    if (!identity) return deny('unknown subject');
    return { identity, payload };
  }

  // Userinfo served here: the provider's own refuses access tokens whose audience is the API.
  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = await authenticate(request, reply);
    if (!auth) return reply;
    const scopes = new Set(String(auth.payload.scope ?? '').split(' '));
    const claims = identityClaims(auth.identity);
    return reply.header('cache-control', 'no-store').send({
      sub: claims.sub,
      ...(scopes.has('profile')
        ? {
            name: claims.name,
            given_name: claims.given_name,
            family_name: claims.family_name,
            preferred_username: claims.preferred_username,
            locale: claims.locale,
          }
        : {}),
      ...(scopes.has('email') ? { email: claims.email, email_verified: claims.email_verified } : {}),
    });
  };
  app.get(`${REALM_PATH}${ROUTES.userinfo}`, userinfo);
  app.post(`${REALM_PATH}${ROUTES.userinfo}`, userinfo);

  // keycloak-js loadUserProfile(): Keycloak's account REST representation. A browser visit goes to the profile page.
  app.get(`${REALM_PATH}/account`, async (request, reply) => {
    if (!request.headers.authorization && String(request.headers.accept ?? '').includes('text/html')) {
      return reply.redirect(`${config.publicUrl}/settings/users`, 303);
    }
    const auth = await authenticate(request, reply);
    if (!auth) return reply;
    const claims = identityClaims(auth.identity);
    return reply.header('cache-control', 'no-store').send({
      id: claims.sub,
      username: claims.preferred_username,
      email: claims.email,
      firstName: claims.given_name,
      lastName: claims.family_name,
      emailVerified: claims.email_verified,
      attributes: { locale: [claims.locale] },
      createdTimestamp: auth.identity.createdAt.getTime(),
    });
  });

  // keycloak-js register(): Keycloak's registrations endpoint is the authorization endpoint showing registration.
  app.get(`${REALM_PATH}/protocol/openid-connect/registrations`, async (request, reply) => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    query.set('prompt', 'create');
    return reply.redirect(`${REALM_PATH}${ROUTES.authorization}?${query.toString()}`, 303);
  });

  for (const step of ['step1.html', 'step2.html']) {
    app.get(`${REALM_PATH}/protocol/openid-connect/3p-cookies/${step}`, async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', `default-src 'none'; script-src 'self'; frame-ancestors 'self'`)
        .header('x-frame-options', 'SAMEORIGIN')
        .send(thirdPartyCookiesHtml),
    );
  }

  app.get(`${RESOURCES_PATH}/3p-cookies.js`, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(thirdPartyCookiesJs),
  );
  app.get(FAVICON_PATH, async (_request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=3600').send(favicon),
  );
  const css = loginCss + brandCss(config.brand.color);
  app.get(`${RESOURCES_PATH}/login.css`, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(css),
  );
  registerPasskeyResources(app);
}
