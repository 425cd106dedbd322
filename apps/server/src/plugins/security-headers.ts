import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The Content-Security-Policy of the app: no inline or remote scripts, no framing. With error reporting on, the web
 * app may also send to the reporter's origin (SENTRY_WEB_DSN or SENTRY_DSN, decision 237).
 */
export function contentSecurityPolicy(config: Config): string {
  const issuerOrigin = new URL(config.oidc.issuer).origin;
  const formAction = issuerOrigin === new URL(config.publicUrl).origin ? "'self'" : `'self' ${issuerOrigin}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    config.sentryWebDsn ? `connect-src 'self' ${new URL(config.sentryWebDsn).origin}` : "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    `form-action ${formAction}`,
  ].join('; ');
}

/**
 * The Content-Security-Policy of the sign-in service (its pages and the OpenID provider's answers): nothing but its
 * own scripts, styles and forms. The provider may add the hash of an inline script it renders itself.
 */
export const IDP_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Under the sign-in service's paths: its own policy and, as its links carry one-time keys, never a Referer. */
const IDP_HEADERS = { 'Content-Security-Policy': IDP_CSP, 'Referrer-Policy': 'no-referrer' };

const underPrefix = (url: string, prefix: string) =>
  url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);

/**
 * Strict headers on every response: the one place that sets them. They go on the raw response when the request
 * arrives, so that hijacked replies (the identity provider writes its own) carry them too — onSend hooks never see
 * those. A route may still override one with reply.header. `signInPaths` are the path prefixes the sign-in service
 * answers under (`SIGN_IN_PATHS` of idp/index.ts), which get its headers.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  config: Config,
  signInPaths: readonly string[],
) {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(config),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  };
  if (config.publicUrl.startsWith('https:')) {
    headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  }
  const entries = Object.entries(headers);
  const signIn = Object.entries({ ...headers, ...IDP_HEADERS });
  const overrides = signInPaths.map((prefix) => ({ prefix, entries: signIn }));
  // A callback hook, not an async one: no promise per request (decision 254).
  app.addHook('onRequest', (request, reply, done) => {
    const chosen = overrides.find(({ prefix }) => underPrefix(request.url, prefix))?.entries ?? entries;
    for (const [name, value] of chosen) reply.raw.setHeader(name, value);
    done();
  });
}
