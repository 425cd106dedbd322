import { createParser } from 'eventsource-parser';
import { LIVE_EVENTS, LIVE_HEARTBEAT_MS, type LiveEventName } from '@portal/contract';

/** First wait after a failed attempt; each further failure doubles it, up to MAX_BACKOFF_MS. */
export const INITIAL_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 30_000;
/**
 * After the server ended a stream cleanly (token expired): reconnect after about this long, or after the stream's
 * `retry:` when it sent one (its instance shuts down: the proxy sends the reconnect to another one).
 */
export const RESUME_MS = 500;
/** Signed out: look for a token again this often. */
export const NO_TOKEN_WAIT_MS = 2_000;
/** Nothing heard for this long (two missed heartbeats): the connection is dead though nobody said so. */
export const SILENCE_MS = 2 * LIVE_HEARTBEAT_MS + 10_000;

const KNOWN_EVENTS = new Set<string>(Object.values(LIVE_EVENTS));

export interface LiveConnectionOptions {
  /** The stream's URL. */
  url: string;
  /**
   * The request headers of the app's one HTTP client, read anew for every attempt (so a refreshed token is used);
   * null while there is no access token.
   */
  headers: () => Headers | null;
  onEvent: (event: LiveEventName, data: unknown) => void;
  fetch?: typeof fetch;
  /** 0 ≤ r < 1; spreads the reconnects of many tabs (Math.random by default). */
  random?: () => number;
}

/**
 * One live notification stream, kept open: fetch-based (an EventSource cannot send the Authorization header), the
 * token taken from the app's HTTP client at each attempt, Last-Event-ID sent on every reconnect so the server
 * replays what was missed. Reconnects shortly after a clean end (the server ends a stream when its token expires),
 * with growing, jittered waits after failures (network, 401 until the token is refreshed, 429, 5xx), and when the
 * connection goes silent.
 */
export class LiveConnection {
  /** The id of the last event with one: where the next connection resumes. */
  lastEventId: string | null = null;
  private stopped = true;
  private failures = 0;
  /** The `retry:` of the current stream, if it sent one (milliseconds). */
  private retryMs: number | null = null;
  private controller: AbortController | null = null;
  private wakeUp: (() => void) | null = null;
  private readonly fetch: typeof fetch;
  private readonly random: () => number;

  constructor(private readonly options: LiveConnectionOptions) {
    this.fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.random = options.random ?? Math.random;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
    this.wakeUp?.();
  }

  /** Tries again now instead of at the end of the current wait (the browser is online again). */
  retryNow(): void {
    this.wakeUp?.();
  }

  /** The wait before the next attempt after `failures` failed ones in a row. */
  backoff(failures: number): number {
    const base = Math.min(INITIAL_BACKOFF_MS * 2 ** Math.max(failures - 1, 0), MAX_BACKOFF_MS);
    return Math.round(base * (0.5 + this.random() / 2));
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const delay = await this.attempt();
      if (this.stopped) return;
      await this.wait(delay);
    }
  }

  /** One connection, from request to end; returns how long to wait before the next. */
  private async attempt(): Promise<number> {
    const headers = this.options.headers();
    if (!headers) return NO_TOKEN_WAIT_MS;
    headers.set('Accept', 'text/event-stream');
    if (this.lastEventId) headers.set('Last-Event-ID', this.lastEventId);
    const controller = new AbortController();
    this.controller = controller;
    this.retryMs = null;
    try {
      const response = await this.fetch(this.options.url, {
        headers,
        signal: controller.signal,
        credentials: 'same-origin',
        cache: 'no-store',
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => undefined);
        this.failures += 1;
        const retryAfter = Number(response.headers.get('Retry-After')) * 1000;
        return Math.max(this.backoff(this.failures), response.status === 429 ? retryAfter || 0 : 0);
      }
      const ready = await this.read(response.body, controller);
      if (this.stopped) return 0;
      // A stream that opened and ended cleanly is resumed at once; one that broke before `ready` counts as failed.
      if (ready) return Math.round((this.retryMs ?? RESUME_MS) * (0.5 + this.random()));
      this.failures += 1;
      return this.backoff(this.failures);
    } catch {
      this.failures += 1;
      return this.backoff(this.failures);
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  /** Reads the stream until it ends; true when it got as far as `ready`. */
  private async read(body: ReadableStream<Uint8Array>, controller: AbortController): Promise<boolean> {
    let ready = false;
    let silence = setTimeout(() => controller.abort(), SILENCE_MS);
    const parser = createParser({
      onEvent: ({ event, id, data }) => {
        if (id) this.lastEventId = id;
        if (!event || !KNOWN_EVENTS.has(event)) return;
        if (event === LIVE_EVENTS.ready) {
          ready = true;
          this.failures = 0;
        }
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(data);
        } catch {
          // an event without JSON data still counts
        }
        this.options.onEvent(event as LiveEventName, parsed);
      },
      onRetry: (ms) => (this.retryMs = ms),
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.stopped) break;
        // The session ended in this tab (signed out, expired): its stream goes at the next message, a heartbeat
        // at the latest, rather than going on with the token it was opened with.
        if (!this.options.headers()) {
          controller.abort();
          break;
        }
        clearTimeout(silence);
        silence = setTimeout(() => controller.abort(), SILENCE_MS);
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // cut off: the caller reconnects
    } finally {
      clearTimeout(silence);
      reader.releaseLock();
    }
    return ready;
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
}
