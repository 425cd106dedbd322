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

describeApi('metrics of the jobs queue', (api) => {
  it('show the queue depth and failed jobs by kind, and this instance’s failed attempts', async () => {
    // The recurring jobs due at start run first, so each waits as one pending next occurrence.
    await api.app.jobs.drain();
    await api.db.query(
      `insert into jobs (kind, state, max_attempts, attempts, last_error)
       values ('mail.send', 'pending', 3, 0, null), ('mail.send', 'pending', 3, 0, null),
              ('mail.send', 'failed', 3, 3, 'refused')`,
    );
    await api.db.query(`update jobs set run_at = now() + interval '1 hour' where kind = 'mail.send'`);
    api.app.jobs.attemptFailures.set('mail.send', 4);
    const res = await api.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.body).toContain('portal_jobs{kind="mail.send",state="pending"} 2');
    expect(res.body).toContain('portal_jobs{kind="mail.send",state="failed"} 1');
    expect(res.body).toContain('portal_jobs{kind="accounts.purge-deleted",state="pending"} 1');
    expect(res.body).toContain('portal_job_attempt_failures_total{kind="mail.send"} 4');
    await api.db.query(`delete from jobs where kind = 'mail.send'`);
  });
});
