import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { SIGN_IN_PATHS } from '../idp/index.ts';
import { TEST_SECRETS_KEYS } from '../test/api.ts';
import { contentSecurityPolicy, IDP_CSP, registerSecurityHeaders } from './security-headers.ts';

async function appWithHeaders(publicUrl = 'http://127.0.0.1:8080') {
  const config = loadConfig({
    PUBLIC_URL: publicUrl,
    DATABASE_URL: 'memory://',
    LOG_LEVEL: 'silent',
    SECRETS_KEYS: TEST_SECRETS_KEYS,
  });
  const app = Fastify({ logger: false });
  registerSecurityHeaders(app, config, SIGN_IN_PATHS);
  app.get('/api/thing', async () => ({ ok: true }));
  app.get('/own-policy', async (_request, reply) =>
    reply.header('x-frame-options', 'SAMEORIGIN').send('framed by its own origin'),
  );
  // As the identity provider does: the reply is hijacked and written on the raw response.
  app.get('/realms/portal/*', (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/json' });
    reply.raw.end('{}');
  });
  return { app, config };
}

describe('security headers', () => {
  it('sets the strict headers on every response, the sign-in service its own policy and no Referer', async () => {
    const { app, config } = await appWithHeaders();
    const api = await app.inject({ method: 'GET', url: '/api/thing' });
    expect(api.headers['content-security-policy']).toBe(contentSecurityPolicy(config));
    expect(api.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const missing = await app.inject({ method: 'GET', url: '/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');

    for (const url of ['/realms/portal/x', '/realms/portal/.well-known/openid-configuration?a=1']) {
      const hijacked = await app.inject({ method: 'GET', url });
      expect(hijacked.statusCode).toBe(200);
      expect(hijacked.headers['content-security-policy']).toBe(IDP_CSP);
      expect(hijacked.headers['referrer-policy']).toBe('no-referrer');
      expect(hijacked.headers['x-content-type-options']).toBe('nosniff');
      expect(hijacked.headers['x-frame-options']).toBe('DENY');
    }
    // Only the realm itself: a path that merely starts with the same letters keeps the app's policy.
    const lookalike = await app.inject({ method: 'GET', url: '/realms/portalx' });
    expect(lookalike.headers['content-security-policy']).toBe(contentSecurityPolicy(config));
    await app.close();
  });

  it('lets a route override one header, and adds HSTS behind https only', async () => {
    const { app } = await appWithHeaders('https://portal.example');
    const own = await app.inject({ method: 'GET', url: '/own-policy' });
    expect(own.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await app.close();
  });

  it("lets the web app connect to the error reporter's origin only when one is configured (decision 237)", () => {
    const policy = (env: Record<string, string>) =>
      contentSecurityPolicy(
        loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080', DATABASE_URL: 'memory://', ...env }),
      ).match(/connect-src [^;]*/)?.[0];
    expect(policy({})).toBe("connect-src 'self'");
    expect(policy({ SENTRY_DSN: 'https://key@o1.ingest.example/2' })).toBe(
      "connect-src 'self' https://o1.ingest.example",
    );
    // A separate project for the browser: only its origin, not the server's.
    expect(
      policy({ SENTRY_DSN: 'https://key@server.example/2', SENTRY_WEB_DSN: 'https://web@browser.example/3' }),
    ).toBe("connect-src 'self' https://browser.example");
  });
});
