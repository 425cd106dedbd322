import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  INITIAL_BACKOFF_MS,
  LiveConnection,
  MAX_BACKOFF_MS,
  NO_TOKEN_WAIT_MS,
  RESUME_MS,
  SILENCE_MS,
} from './live-connection.ts';
import { fakeServer } from './fake-server.ts';

const ready = (id: string) => `id: ${id}\nevent: ready\ndata: {}\n\n`;
const notification = (id: string) => `id: ${id}\nevent: notification\ndata: {"uuid":"n-${id}"}\n\n`;

describe('live notification connection', () => {
  let token: string | null;
  const events: [string, unknown][] = [];
  let connection: LiveConnection;
  const start = (server: ReturnType<typeof fakeServer>) => {
    connection = new LiveConnection({
      url: '/api/notifications/v1/stream',
      headers: () => (token ? new Headers({ Authorization: `Bearer ${token}` }) : null),
      onEvent: (event, data) => events.push([event, data]),
      fetch: server.fetch as typeof fetch,
      random: () => 0.5,
    });
    connection.start();
  };
  const flush = () => vi.advanceTimersByTimeAsync(0);

  beforeEach(() => {
    vi.useFakeTimers();
    token = 'token-1';
    events.length = 0;
  });
  afterEach(() => {
    connection.stop();
    vi.useRealTimers();
  });

  it('sends the token in the Authorization header and passes the events on', async () => {
    const server = fakeServer(['stream']);
    start(server);
    await flush();
    expect(server.requests[0]!.get('Authorization')).toBe('Bearer token-1');
    expect(server.requests[0]!.get('Accept')).toBe('text/event-stream');
    expect(server.requests[0]!.has('Last-Event-ID')).toBe(false);
    server.streams[0]!.send(ready('7') + notification('8') + 'event: changed\ndata: {}\n\n');
    server.streams[0]!.send('event: resync\ndata: {}\n\n: ping\n\nevent: unknown\ndata: {}\n\n');
    await flush();
    expect(events).toEqual([
      ['ready', {}],
      ['notification', { uuid: 'n-8' }],
      ['changed', {}],
      ['resync', {}],
    ]);
    expect(connection.lastEventId).toBe('8');
  });

  it('reconnects after the server ends the stream, with the refreshed token and Last-Event-ID', async () => {
    const server = fakeServer(['stream', 'stream']);
    start(server);
    await flush();
    server.streams[0]!.send(ready('3') + notification('4'));
    await flush();
    // The token was refreshed meanwhile; the server ends the stream as the old one expires.
    token = 'token-2';
    server.streams[0]!.end();
    await vi.advanceTimersByTimeAsync(RESUME_MS * 1.5);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.get('Authorization')).toBe('Bearer token-2');
    expect(server.requests[1]!.get('Last-Event-ID')).toBe('4');
  });

  it('reconnects after the `retry:` of a stream its restarting instance ended', async () => {
    const server = fakeServer(['stream', 'stream']);
    start(server);
    await flush();
    server.streams[0]!.send(ready('5') + 'retry: 3000\n\n');
    await flush();
    server.streams[0]!.end();
    await vi.advanceTimersByTimeAsync(RESUME_MS * 1.5);
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3000 - RESUME_MS * 1.5);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.get('Last-Event-ID')).toBe('5');
  });

  it('keeps the last id of a stream that never carried a notification (from `ready`)', async () => {
    const server = fakeServer(['stream', 'stream']);
    start(server);
    await flush();
    server.streams[0]!.send(ready('41'));
    await flush();
    server.streams[0]!.end();
    await vi.advanceTimersByTimeAsync(RESUME_MS * 1.5);
    expect(server.requests[1]!.get('Last-Event-ID')).toBe('41');
  });

  it('after 401 tries again with growing waits until the token is refreshed', async () => {
    const server = fakeServer([401, 401, 'stream']);
    start(server);
    await flush();
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(INITIAL_BACKOFF_MS * 0.75 - 1);
    expect(server.requests).toHaveLength(1);
    token = 'token-2';
    await vi.advanceTimersByTimeAsync(1);
    expect(server.requests).toHaveLength(2);
    // The second failure waits twice as long.
    await vi.advanceTimersByTimeAsync(INITIAL_BACKOFF_MS * 1.5);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]!.get('Authorization')).toBe('Bearer token-2');
  });

  it('backs off after network errors, up to a ceiling, and starts over once a stream is ready', async () => {
    const server = fakeServer(Array.from({ length: 8 }, () => 'network-error' as const));
    start(server);
    expect([1, 2, 3, 5, 6, 20].map((failures) => connection.backoff(failures))).toEqual([
      750,
      1500,
      3000,
      12_000,
      MAX_BACKOFF_MS * 0.75,
      MAX_BACKOFF_MS * 0.75,
    ]);
    await vi.advanceTimersByTimeAsync(750 + 1500 + 3000 + 6000 + 12_000 + 22_500 + 22_500 + 22_500);
    expect(server.requests).toHaveLength(9);
    server.streams[0]!.send(ready('1'));
    await flush();
    server.streams[0]!.end();
    // Ready reset the count: the next wait is the short resume, not the ceiling.
    await vi.advanceTimersByTimeAsync(RESUME_MS * 1.5);
    expect(server.requests).toHaveLength(10);
  });

  it('waits at least as long as a 429 asks', async () => {
    const server = fakeServer([429]);
    start(server);
    await vi.advanceTimersByTimeAsync(89_000);
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.requests).toHaveLength(2);
  });

  it('does not connect without a token, and does once there is one', async () => {
    token = null;
    const server = fakeServer(['stream']);
    start(server);
    await vi.advanceTimersByTimeAsync(NO_TOKEN_WAIT_MS * 3);
    expect(server.fetch).not.toHaveBeenCalled();
    token = 'token-1';
    await vi.advanceTimersByTimeAsync(NO_TOKEN_WAIT_MS);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('gives up a silent connection and reconnects with its Last-Event-ID', async () => {
    const server = fakeServer(['stream', 'stream']);
    start(server);
    await flush();
    server.streams[0]!.send(ready('5'));
    await vi.advanceTimersByTimeAsync(SILENCE_MS - 1000);
    server.streams[0]!.send(': ping\n\n');
    await vi.advanceTimersByTimeAsync(SILENCE_MS - 1000);
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000 + RESUME_MS * 1.5);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.get('Last-Event-ID')).toBe('5');
  });

  it('closes the stream of a session that ended in the tab at its next message', async () => {
    const server = fakeServer(['stream']);
    start(server);
    await flush();
    server.streams[0]!.send(ready('5'));
    await flush();
    token = null;
    server.streams[0]!.send(': ping\n\n');
    await flush();
    expect(server.streams[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(NO_TOKEN_WAIT_MS * 3);
    expect(server.requests).toHaveLength(1);
  });

  it('tries again at once when asked (the browser is back online)', async () => {
    const server = fakeServer(['network-error', 'stream']);
    start(server);
    await flush();
    expect(server.requests).toHaveLength(1);
    connection.retryNow();
    await flush();
    expect(server.requests).toHaveLength(2);
  });

  it('stops: the open request is aborted and nothing follows', async () => {
    const server = fakeServer(['stream']);
    start(server);
    await flush();
    connection.stop();
    await vi.advanceTimersByTimeAsync(MAX_BACKOFF_MS * 2);
    expect(server.requests).toHaveLength(1);
  });
});
