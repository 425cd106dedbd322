// Test support: a scripted stand-in for the notification stream's server.
import { vi } from 'vitest';

/** One answer of the fake server: a stream the test writes events to and ends. */
export interface FakeStream {
  headers: Headers;
  /** The client gave the request up. */
  aborted: boolean;
  send(text: string): void;
  end(): void;
}

/** A fetch whose answers the test scripts: a status (refused) or an open stream (200), in order. */
export function fakeServer(answers: (number | 'stream' | 'network-error')[]) {
  const streams: FakeStream[] = [];
  const requests: Headers[] = [];
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    requests.push(headers);
    const answer = answers.shift() ?? 'stream';
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    if (typeof answer === 'number')
      return new Response('{"message":"no"}', { status: answer, headers: { 'Retry-After': '90' } });
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const stream: FakeStream = {
      headers,
      aborted: false,
      send: (text) => controller.enqueue(encoder.encode(text)),
      end: () => controller.close(),
    };
    streams.push(stream);
    init?.signal?.addEventListener('abort', () => {
      stream.aborted = true;
      controller.error(new DOMException('aborted', 'AbortError'));
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  });
  return { fetch, streams, requests };
}
