import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { defineRoute, ErrorBody } from '@portal/contract';
import Type from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../demo/users.ts';
import type { AreaModule } from '../modules/deps.ts';
import { TestApi } from '../test/api.ts';
import { scrubText } from '@portal/contract';
import { closeErrorReporting, flushErrorReporting, initErrorReporting } from './error-reporting.ts';

/** A stand-in for the reporter: records every envelope posted to /api/<project>/envelope/. */
async function startCollector() {
  const envelopes: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (/^\/api\/\d+\/envelope\//.test(request.url ?? '')) {
        const gzip = request.headers['content-encoding'] === 'gzip';
        envelopes.push((gzip ? gunzipSync(body) : body).toString());
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  /** The error events among the envelopes' items. */
  const events = () =>
    envelopes.flatMap((envelope) => {
      const lines = envelope.split('\n').filter(Boolean);
      const found: Record<string, unknown>[] = [];
      for (let index = 1; index < lines.length - 1; index += 2) {
        if ((JSON.parse(lines[index]!) as { type: string }).type === 'event') {
          found.push(JSON.parse(lines[index + 1]!) as Record<string, unknown>);
        }
      }
      return found;
    });
  return { dsn: `http://key@127.0.0.1:${port}/1`, envelopes, events, close: () => server.close() };
}

// A route that fails the way a bug does, and one that refuses the way a user's mistake does.
const boomRoute = defineRoute({
  method: 'POST',
  path: '/boom/v1/boom',
  summary: 'test: fails',
  tags: ['test'],
  body: Type.Object({ note: Type.String() }),
  response: { 200: Type.Object({}), 422: ErrorBody },
});
const boomModule: AreaModule = ({ route }) => {
  route(boomRoute, {
    handler: async () => {
      throw new Error('boom for owner@example.com');
    },
  });
};

describe('error reporting (SENTRY_DSN at a local collector)', () => {
  const api = new TestApi('pglite');
  let collector: Awaited<ReturnType<typeof startCollector>>;

  beforeAll(async () => {
    collector = await startCollector();
    await api.start({ modules: [boomModule], env: { SENTRY_DSN: collector.dsn, ENVIRONMENT: 'staging' } });
    expect(await initErrorReporting(api.config)).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await closeErrorReporting();
    await api.stop();
    collector.close();
  });

  it('sends a server error once, with release, environment and the user uuid, without email, token or body', async () => {
    const token = await api.token('owner');
    const me = await api.request('GET', '/api/users/v1/me', { token });
    const uuid = (me.json() as { data: { uuid: string } }).data.uuid;
    const failed = await api.request('POST', '/api/boom/v1/boom?token=secret-query', {
      token,
      body: { note: 'a secret body' },
    });
    expect(failed.statusCode).toBe(500);
    // Refusals are not reported: an unknown route, a malformed id, invalid input.
    expect((await api.request('GET', '/api/nothing/here', { token })).statusCode).toBe(404);
    expect((await api.request('GET', '/api/accounts/v1/accounts/not-a-uuid', { token })).statusCode).toBe(
      400,
    );
    expect((await api.request('POST', '/api/boom/v1/boom', { token, body: {} })).statusCode).toBe(422);
    await flushErrorReporting();

    const events = collector.events();
    expect(events).toHaveLength(1);
    const [event] = events as [
      { release: string; environment: string; user: unknown; exception: { values: { value: string }[] } },
    ];
    expect(event.release).toBe('2.6.0+test');
    expect(event.environment).toBe('staging');
    expect(event.user).toEqual({ id: uuid });
    expect(event.exception.values[0]?.value).toBe('boom for [redacted]');
    const sent = collector.envelopes.join('\n');
    for (const secret of [DEMO_USERS.owner.email, token, 'a secret body', 'secret-query']) {
      expect(sent).not.toContain(secret);
    }
    expect(sent.toLowerCase()).not.toMatch(/authorization|cookie|xsrf/);
  });
});

describe('scrubText', () => {
  it('removes emails, bearer tokens, JWTs and secret query parameters', () => {
    expect(scrubText('a.b@c.ch said Bearer abc.def and eyJhbGci.eyJzdWIi.sig; ?key=123&x=1')).toBe(
      '[redacted] said Bearer [redacted] and [redacted]; ?key=[redacted]&x=1',
    );
  });
});
