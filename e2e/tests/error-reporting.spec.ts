import http from 'node:http';
import { DEMO, expect, freePort, signIn, startServer, test, type PortalServer } from '../fixtures.ts';

// Error reporting of the web app (issue 25 item 4, decision 237): with SENTRY_DSN set, the SDK loads after the first
// paint and a browser error reaches the reporter (here a local collector) once, with release, environment and the
// user's uuid, and neither the email nor a token; the replay of that session masks the page's text.

let server: PortalServer;
let stop: () => Promise<void>;
let collector: http.Server;
const envelopes: string[] = [];

test.beforeAll(async () => {
  const port = await freePort();
  collector = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && /^\/api\/1\/envelope\//.test(request.url ?? '')) {
        envelopes.push(Buffer.concat(chunks).toString());
      }
      response
        .writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/json' })
        .end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(port, '127.0.0.1', resolve));
  ({ server, stop } = await startServer({
    SENTRY_DSN: `http://key@127.0.0.1:${port}/1`,
    ENVIRONMENT: 'e2e',
    BUILD_ID: 'journey',
  }));
});

test.afterAll(async () => {
  await stop?.();
  collector?.close();
});

/** The items of one type (`event`, `replay_event`) among the envelopes. */
function items(type: string): Record<string, unknown>[] {
  return envelopes.flatMap((envelope) => {
    const lines = envelope.split('\n');
    const found: Record<string, unknown>[] = [];
    for (let index = 1; index < lines.length - 1; index += 1) {
      try {
        if ((JSON.parse(lines[index]!) as { type?: string }).type === type) {
          found.push(JSON.parse(lines[index + 1]!) as Record<string, unknown>);
        }
      } catch {
        // A replay's recording: not JSON on one line.
      }
    }
    return found;
  });
}

test('a browser error reaches the reporter once, with release, environment and user uuid, no email or token', async ({
  page,
}) => {
  await signIn(page, server, DEMO.owner.email);
  // The SDK and its replay run under the app's CSP without a complaint (no worker from a blob, only the DSN's origin).
  const complaints: string[] = [];
  // (From the app on: the sign-in's detour over /readyz may log the browser's own favicon 404.)
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type())) complaints.push(message.text());
  });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() =>
    setTimeout(() => {
      throw new Error('boom from the journey');
    }),
  );

  await expect.poll(() => items('event').length, { timeout: 20_000 }).toBe(1);
  const [event] = items('event') as [
    { release: string; environment: string; user: unknown; exception: { values: { value: string }[] } },
  ];
  expect(event.exception.values[0]?.value).toContain('boom from the journey');
  expect(event.release).toBe('2.6.0+journey');
  expect(event.environment).toBe('e2e');
  expect(event.user).toEqual({ id: DEMO.owner.id });
  // The session's replay (kept on error) follows; its recording shows the page's text masked.
  await expect.poll(() => items('replay_event').length, { timeout: 20_000 }).toBeGreaterThan(0);

  const sent = envelopes.join('\n');
  // The session's tokens (the account's uuid is stored there too, and may be sent).
  const tokens = await page.evaluate(() =>
    Object.values(sessionStorage).filter((value) => value.length > 40 && !/^[\w-]{36}$/.test(value)),
  );
  expect(tokens.length).toBeGreaterThan(0);
  for (const [name, secret] of [
    ['email', DEMO.owner.email],
    ['name', DEMO.owner.name],
    ...tokens.map((token, index) => [`token ${index}`, token]),
  ]) {
    expect(sent.includes(secret!), `${name} was sent`).toBe(false);
  }
  expect(items('event')).toHaveLength(1);
  expect(complaints).toEqual([]);
});
