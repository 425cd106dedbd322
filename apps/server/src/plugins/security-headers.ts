import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** The Content-Security-Policy of every response: no inline or remote scripts, no framing. */
export function contentSecurityPolicy(config: Config): string {
  const issuerOrigin = new URL(config.oidc.issuer).origin;
  const formAction = issuerOrigin === new URL(config.publicUrl).origin ? "'self'" : `'self' ${issuerOrigin}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    `form-action ${formAction}`,
  ].join('; ');
}

/**
 * Strict headers on every response, set on the raw response at the start so that handlers mounted outside
 * Fastify's reply (the identity provider) carry them too; a route may still override one with reply.header.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config) {
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
  app.addHook('onRequest', async (_request, reply) => {
    for (const [name, value] of entries) reply.raw.setHeader(name, value);
  });
}
