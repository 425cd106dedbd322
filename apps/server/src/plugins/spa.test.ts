import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { describeApi } from '../test/api.ts';
import { COMPRESS_THRESHOLD } from './compression.ts';

// A built app as the web build leaves it: each asset with its brotli and gzip copy, index.html without.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-dist-'));
const asset = Array.from({ length: 200 }, (_, i) => `export const value${i} = "line ${i}";`).join('\n');
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><!--portal-config--><title>Portal</title><script>window.early = 1;</script></head>' +
    '<body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>',
);
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), asset);
// What the web build writes beside index.html for the hints (one route, one language here).
fs.writeFileSync(
  path.join(dist, 'route-preloads.json'),
  JSON.stringify({
    routes: [{ path: 'settings/users', files: ['assets/users-page-1.js'], areas: ['members'] }],
    texts: {
      de: { shell: ['assets/messages-de-shell-1.js'], members: ['assets/messages-de-members-1.js'] },
      fr: { shell: ['assets/messages-fr-shell-1.js'], members: ['assets/messages-fr-members-1.js'] },
    },
  }),
);
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync(asset));
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), gzipSync(asset));
const sourceMap = '{"version":3,"sources":["../src/secret-business-rule.ts"],"mappings":""}';
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.map'), sourceMap);
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.map.gz'), gzipSync(sourceMap));
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

describeApi(
  'compressed answers',
  (api) => {
    const get = (url: string, acceptEncoding?: string, accept = '*/*') =>
      api.request('GET', url, {
        headers: { accept, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
      });

    it("sends a built file's brotli or gzip copy by Accept-Encoding, and the file itself otherwise", async () => {
      for (const [acceptEncoding, encoding] of [
        ['br', 'br'],
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
      ] as const) {
        const res = await get('/assets/index-abc123.js', acceptEncoding);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['vary']).toMatch(/accept-encoding/i);
        expect(res.headers['content-type']).toMatch(/javascript/);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        // Decoded once, the body is the file: compressed exactly once.
        expect(decode[encoding](res.rawPayload).toString()).toBe(asset);
      }
      for (const acceptEncoding of [undefined, 'identity', 'deflate']) {
        const res = await get('/assets/index-abc123.js', acceptEncoding);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.headers['vary']).toMatch(/accept-encoding/i);
        expect(res.body).toBe(asset);
      }
    });

    it('sends index.html, with the configuration filled in, compressed by Accept-Encoding on every path', async () => {
      const plain = await get('/', undefined, 'text/html');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toContain('<meta name="portal-config"');
      for (const [url, acceptEncoding, encoding] of [
        ['/', 'gzip, deflate, br', 'br'],
        ['/index.html', 'gzip', 'gzip'],
        ['/settings/users', 'br', 'br'],
      ] as const) {
        const res = await get(url, acceptEncoding, 'text/html');
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['vary']).toMatch(/accept-encoding/i);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(decode[encoding](res.rawPayload).toString()).toBe(
          (await get(url, undefined, 'text/html')).body,
        );
      }
    });

    it("hints in index.html at the route's chunks and its texts in the language cookie's language", async () => {
      const page = async (url: string, cookie?: string) => {
        const res = await api.request('GET', url, {
          headers: { accept: 'text/html', 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) },
        });
        expect(res.headers['vary']).toMatch(/cookie/i);
        const html = decode.br(res.rawPayload).toString();
        return [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
      };
      expect(await page('/settings/users?uuid=a1', 'portal-language=fr')).toEqual([
        '/assets/users-page-1.js',
        '/assets/messages-fr-shell-1.js',
        '/assets/messages-fr-members-1.js',
      ]);
      // No cookie, or one naming no language of the app: German, the default.
      for (const cookie of [undefined, 'portal-language=<x>']) {
        expect(await page('/settings/users', cookie)).toEqual([
          '/assets/users-page-1.js',
          '/assets/messages-de-shell-1.js',
          '/assets/messages-de-members-1.js',
        ]);
      }
      expect(await page('/billing', 'portal-language=fr')).toEqual(['/assets/messages-fr-shell-1.js']);
    });

    it("lets index.html's own inline script run by its hash, and no other inline script anywhere", async () => {
      const hash = `'sha256-${createHash('sha256').update('window.early = 1;').digest('base64')}'`;
      const index = await get('/settings/users', undefined, 'text/html');
      const scriptSrc = (policy: unknown) => /script-src ([^;]*)/.exec(String(policy))?.[1];
      expect(scriptSrc(index.headers['content-security-policy'])).toBe(`'self' ${hash}`);
      // The rest of the policy is the app's, as on every other answer.
      const asset = await get('/assets/index-abc123.js');
      expect(scriptSrc(asset.headers['content-security-policy'])).toBe("'self'");
      expect(String(index.headers['content-security-policy']).replace(` ${hash}`, '')).toBe(
        asset.headers['content-security-policy'],
      );
    });

    it(`compresses API JSON from ${COMPRESS_THRESHOLD} bytes on, smaller answers go out as they are`, async () => {
      const plain = await get('/api/openapi.json');
      expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD);
      for (const encoding of ['br', 'gzip'] as const) {
        const res = await get('/api/openapi.json', encoding);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['vary']).toMatch(/accept-encoding/i);
        expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
        expect(JSON.parse(decode[encoding](res.rawPayload).toString())).toEqual(plain.json());
      }
      const small = await get('/api/config', 'br');
      expect(small.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.json()).toMatchObject({ productName: 'Portal' });
    });

    it('does not publish source maps in production, in any spelling of the path', async () => {
      for (const url of [
        '/assets/index-abc123.js.map',
        '/assets/index-abc123.js%2Emap',
        '/assets/index-abc123.js.MAP',
        '/assets//index-abc123.js.map',
        '/assets/../assets/index-abc123.js.map',
        '/assets/index-abc123.js.map?x=1',
      ]) {
        for (const [accept, acceptEncoding] of [
          ['*/*', undefined],
          ['text/html', 'gzip'],
        ] as const) {
          const res = await get(url, acceptEncoding, accept);
          expect(res.statusCode, `${url} ${accept}`).toBe(404);
          expect(res.body).not.toContain('secret-business-rule');
        }
      }
      expect((await get('/assets/index-abc123.js')).statusCode).toBe(200);
    });

    it("never compresses the sign-in service's answers", async () => {
      const res = await get('/realms/portal/test-page', 'gzip, br', 'text/html');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.length).toBeGreaterThan(COMPRESS_THRESHOLD);
    });
  },
  {
    env: { WEB_DIST: dist },
    prepare(app) {
      app.get('/realms/portal/test-page', { schema: { hide: true } }, async (_request, reply) =>
        reply.type('text/html; charset=utf-8').send(`<p>${'secret and echo '.repeat(200)}</p>`),
      );
    },
  },
);

describeApi(
  'source maps outside production',
  (api) => {
    it('serves them when ENVIRONMENT is not prod', async () => {
      const res = await api.request('GET', '/assets/index-abc123.js.map');
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(sourceMap);
    });
  },
  { env: { WEB_DIST: dist, ENVIRONMENT: 'dev' } },
);
