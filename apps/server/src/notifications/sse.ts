import type { ServerResponse } from 'node:http';

/** One server-sent event: `id:` and `event:` lines when given, then the data as one JSON line. */
export function sseEvent(event: string, data: unknown, id?: string): string {
  // JSON.stringify escapes line breaks, so the data is always one `data:` line.
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by clients, it keeps the connection from looking idle. */
export const SSE_HEARTBEAT = ': ping\n\n';

/**
 * The reconnection delay (`retry:`, milliseconds) a stream ends with when its instance shuts down: the client comes
 * back after about this long, through the proxy, to an instance that stays. An EventSource takes it as its delay;
 * the web app reconnects after a clean end anyway, after half a second to a second and a half.
 */
export const SSE_RECONNECT_MS = 1000;

/**
 * Beyond this many bytes waiting for a client that does not read, its stream is dropped rather than held in memory:
 * the client reconnects with its Last-Event-ID and the catch-up brings what it had not received.
 */
export const SSE_MAX_BUFFERED = 256 * 1024;

/** Writes server-sent events to one response; never buffers more than `maxBuffered` bytes for a slow client. */
export class SseWriter {
  constructor(
    private readonly res: ServerResponse,
    private readonly maxBuffered = SSE_MAX_BUFFERED,
  ) {}

  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** Sends the headers at once, so the client knows the stream is open before the first event. */
  open(): void {
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // Proxies (nginx) pass each event on at once instead of buffering the answer.
      'X-Accel-Buffering': 'no',
    });
    this.res.flushHeaders();
    this.res.socket?.setNoDelay(true);
  }

  write(text: string): void {
    if (this.closed) return;
    if (!this.res.write(text) && this.res.writableLength > this.maxBuffered) this.res.destroy();
  }

  /**
   * Ends the stream cleanly; the connection closes rather than waiting as an idle keep-alive one. With `retryMs`
   * (the instance shuts down) the stream's last line tells the client when to reconnect.
   */
  end(retryMs?: number): void {
    if (this.closed) return;
    if (retryMs !== undefined) this.res.write(`retry: ${retryMs}\n\n`);
    this.res.shouldKeepAlive = false;
    this.res.end();
  }
}
