import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeApi } from '../../test/api.ts';

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-dist-'));
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><!--portal-config--><title>Portal</title></head><body><div id="root"></div></body></html>',
);
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

describeApi(
  'system endpoints and static app',
  (api) => {
    it('serves /version.json with the build suffix, maintenance flag and no-cache headers', async () => {
      const res = await api.request('GET', '/version.json');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { version: '2.6.0+test', maintenance: true } });
      expect(res.headers['cache-control']).toMatch(/no-cache/);
      expect(res.headers['cache-control']).toMatch(/no-store/);
    });

    it('answers /healthz, and /readyz with 503 while the database does not answer', async () => {
      expect((await api.request('GET', '/healthz')).statusCode).toBe(200);
      expect((await api.request('GET', '/readyz')).statusCode).toBe(200);
      const ping = api.db.ping;
      api.db.ping = async () => {
        throw new Error('connection refused');
      };
      try {
        const res = await api.request('GET', '/readyz');
        expect(res.statusCode).toBe(503);
      } finally {
        api.db.ping = ping;
      }
      expect((await api.request('GET', '/readyz')).statusCode).toBe(200);
    });

    it('answers 503, not 500, while the database is unreachable', async () => {
      const query = api.db.query;
      api.db.query = async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      };
      try {
        const res = await api.request('GET', '/api/users/v1/me', { as: 'owner' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({ code: 'UNAVAILABLE' });
        expect(res.body).not.toContain('5432');
      } finally {
        api.db.query = query;
      }
    });

    it('serves the public configuration', async () => {
      const res = await api.request('GET', '/api/config');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        productName: 'Acme Portal',
        brandColor: '#d41130',
        brandLogo: null,
        version: '2.6.0+test',
        environment: 'prod',
        sentryDsn: null,
        oidc: { url: 'http://idp.test', realm: 'portal', clientId: 'portal' },
      });
    });

    it('puts strict security headers on every response', async () => {
      for (const target of ['/healthz', '/api/users/v1/me', '/', '/api/nope']) {
        const res = await api.request('GET', target, { headers: { accept: 'text/html' } });
        const csp = String(res.headers['content-security-policy']);
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("form-action 'self' http://idp.test");
        expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
        expect(res.headers['strict-transport-security']).toBeUndefined();
      }
    });

    it('serves index.html with the configuration meta tag, not cached', async () => {
      const res = await api.request('GET', '/', { headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      const match = /<meta name="portal-config" content="([^"]*)"/.exec(res.body);
      expect(match).not.toBeNull();
      const json = match![1]!
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      expect(JSON.parse(json)).toMatchObject({ productName: 'Acme Portal', version: '2.6.0+test' });
      expect(res.body).not.toContain('<!--portal-config-->');
    });

    it('falls back to index.html for client routes, not for API or non-HTML requests', async () => {
      const page = await api.request('GET', '/settings/users?x=1', { headers: { accept: 'text/html,*/*' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('portal-config');
      const json = await api.request('GET', '/settings/users', { headers: { accept: 'application/json' } });
      expect(json.statusCode).toBe(404);
      const apiMiss = await api.request('GET', '/api/nothing/here', { headers: { accept: 'text/html' } });
      expect(apiMiss.statusCode).toBe(404);
      expect(apiMiss.json()).toMatchObject({ code: 'NOT_FOUND' });
      const post = await api.request('POST', '/api/nothing', { as: 'owner', body: {} });
      expect(post.statusCode).toBe(404);
    });

    it('caches hashed assets for a year and other files briefly', async () => {
      const asset = await api.request('GET', '/assets/index-abc123.js');
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const icon = await api.request('GET', '/favicon.svg');
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['cache-control']).toBe('no-cache');
      const missing = await api.request('GET', '/assets/gone-123.js');
      expect(missing.statusCode).toBe(404);
    });

    it('generates OpenAPI 3.1 from the contract and serves the docs page', async () => {
      const res = await api.request('GET', '/api/openapi.json');
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/api/users/v1/me',
          '/api/users/v1/me/accounts',
          '/api/accounts/v1/accounts',
          '/api/accounts/v1/accounts/{id}',
          '/api/accounts/v1/accounts/{accountUuid}/migration/begin',
          '/api/config',
        ]),
      );
      expect(Object.keys(doc.paths).every((p: string) => p.startsWith('/api/'))).toBe(true);
      expect(doc.paths['/api/users/v1/me'].patch.requestBody).toBeDefined();
      const docs = await api.request('GET', '/api/docs/', { headers: { accept: 'text/html' } });
      expect(docs.statusCode).toBe(200);
      expect(docs.body).toContain('swagger');
      expect(docs.body).not.toMatch(/<script>(?!\s*<\/script>)/);
    });

    it('exposes Prometheus metrics by route and status', async () => {
      await api.request('GET', '/healthz');
      const res = await api.request('GET', '/metrics');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/plain/);
      expect(res.body).toMatch(
        /portal_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/,
      );
      expect(res.body).toMatch(
        /portal_http_request_duration_seconds_bucket\{method="GET",route="\/healthz",le="\+Inf"\}/,
      );
      expect(res.body).toMatch(/process_uptime_seconds \d/);
    });

    it('hides the cause of a 500', async () => {
      const res = await api.request('GET', '/api/test/boom');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Internal server error', code: 'INTERNAL' });
    });
  },
  {
    env: { MAINTENANCE: 'true', PRODUCT_NAME: 'Acme Portal', WEB_DIST: dist },
    prepare(app) {
      app.get('/api/test/boom', { schema: { hide: true } }, async () => {
        throw new Error('secret database detail');
      });
    },
  },
);

describeApi('without a built web app', (api) => {
  it('answers a plain 503 page that says to build', async () => {
    const res = await api.request('GET', '/dashboard', { headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('npm run build');
    expect((await api.request('GET', '/api/users/v1/me', { as: 'owner' })).statusCode).toBe(200);
  });
});
