import { expect, it } from 'vitest';
import { describeApi } from '../test/api.ts';

const TOKEN = 'metrics-test-token-0123456789';

describeApi(
  'metrics exposure',
  (api) => {
    // A browser's Accept too: a refusal is a plain 404, never the web app's page.
    const scrape = (remoteAddress: string, authorization?: string) =>
      api.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress,
        headers: { accept: 'text/html', ...(authorization ? { authorization } : {}) },
      });

    it('answers clients on this machine without a token', async () => {
      for (const address of ['127.0.0.1', '::1']) {
        const res = await scrape(address);
        expect(res.statusCode, address).toBe(200);
        expect(res.body).toMatch(/process_uptime_seconds/);
      }
    });

    it('answers other clients only with the configured bearer token', async () => {
      expect((await scrape('203.0.113.7', `Bearer ${TOKEN}`)).statusCode).toBe(200);
      for (const authorization of [
        undefined,
        'Bearer wrong',
        `Bearer ${TOKEN}x`,
        `Bearer ${TOKEN.slice(0, -1)}`,
        `Basic ${TOKEN}`,
        TOKEN,
      ]) {
        const res = await scrape('203.0.113.7', authorization);
        expect(res.statusCode, String(authorization)).toBe(404);
        expect(res.body).not.toMatch(/process_uptime_seconds/);
      }
    });
  },
  { env: { METRICS_TOKEN: TOKEN } },
);

describeApi('metrics without a token', (api) => {
  it('refuses every client that is not on this machine', async () => {
    for (const authorization of [undefined, 'Bearer ', 'Bearer null']) {
      const res = await api.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(404);
    }
  });
});
