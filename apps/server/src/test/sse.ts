// A server-sent events client for tests and the bench: a real HTTP request (fetch) with the bearer token in the
// Authorization header, the events parsed by eventsource-parser, and waits on conditions instead of sleeps.
import { createParser } from 'eventsource-parser';

export interface ReceivedEvent {
  event: string;
  id?: string;
  data: unknown;
  /** performance.now() when it was parsed. */
  at: number;
}

export interface StreamOptions {
  lastEventId?: string;
  headers?: Record<string, string>;
}

export class TestStream {
  readonly events: ReceivedEvent[] = [];
  /** The reconnection delay of the stream's last `retry:` line, if any. */
  retryMs: number | undefined;
  /** Resolves when the server ended the stream (or it was closed here). */
  readonly ended: Promise<void>;
  private readonly waiters = new Set<() => void>();
  private finished = false;

  constructor(
    readonly status: number,
    private readonly body: ReadableStream<Uint8Array> | null,
    private readonly controller: AbortController,
  ) {
    this.ended = this.pump();
  }

  private async pump(): Promise<void> {
    const parser = createParser({
      onEvent: ({ event, id, data }) => {
        this.events.push({ event: event ?? 'message', id, data: JSON.parse(data), at: performance.now() });
        this.wake();
      },
      onRetry: (ms) => (this.retryMs = ms),
    });
    const decoder = new TextDecoder();
    try {
      if (this.body)
        for await (const chunk of this.body) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // closed here, or the connection was cut
    } finally {
      this.finished = true;
      this.wake();
    }
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** The events named `event`. */
  named(event: string): ReceivedEvent[] {
    return this.events.filter((received) => received.event === event);
  }

  /** Waits until `condition` holds over the events received so far; fails after `timeoutMs` or when the stream ends. */
  async until<T>(
    condition: (events: ReceivedEvent[]) => T | undefined | false,
    timeoutMs = 10_000,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const result = condition(this.events);
        if (result) return done(() => resolve(result));
        if (this.finished) return done(() => reject(new Error(`stream ended; got ${this.describe()}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`timed out; got ${this.describe()}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** The first event named `event` (with `id` when given). */
  waitFor(event: string, id?: string, timeoutMs?: number): Promise<ReceivedEvent> {
    return this.until(
      (events) =>
        events.find((received) => received.event === event && (id === undefined || received.id === id)),
      timeoutMs,
    );
  }

  describe(): string {
    return JSON.stringify(this.events.map(({ event, id }) => (id ? `${event}#${id}` : event)));
  }

  close(): void {
    this.controller.abort();
  }
}

/** Opens the notification stream at `base` (http://host:port) as the holder of `token`. */
export async function openStream(base: string, token: string | null, options: StreamOptions = {}) {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/notifications/v1/stream`, {
    headers: {
      accept: 'text/event-stream',
      // No idle keep-alive connection stays behind to hold up the app's close.
      connection: 'close',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
      ...options.headers,
    },
    signal: controller.signal,
  });
  if (response.status !== 200) {
    const text = await response.text();
    return Object.assign(new TestStream(response.status, null, controller), { text });
  }
  return Object.assign(new TestStream(response.status, response.body, controller), { text: '' });
}
