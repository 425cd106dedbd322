import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SseWriter, sseEvent } from './sse.ts';

describe('server-sent events', () => {
  it('writes an event as id, event and one data line', () => {
    expect(sseEvent('notification', { text: 'two\nlines' }, '42')).toBe(
      'id: 42\nevent: notification\ndata: {"text":"two\\nlines"}\n\n',
    );
    expect(sseEvent('changed', {})).toBe('event: changed\ndata: {}\n\n');
  });

  it('drops the stream of a client that stops reading instead of buffering without end', async () => {
    let writer!: SseWriter;
    let response!: http.ServerResponse;
    const opened = new Promise<void>((resolve) => {
      const server = http.createServer((_request, res) => {
        response = res;
        writer = new SseWriter(res, 64 * 1024);
        writer.open();
        resolve();
      });
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        // A client that sends its request and never reads the answer.
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write('GET / HTTP/1.1\r\nHost: test\r\n\r\n');
          socket.pause();
        });
        server.on('close', () => socket.destroy());
      });
      server.unref();
    });
    await opened;
    const event = sseEvent('notification', { padding: 'x'.repeat(4096) }, '1');
    let written = 0;
    // The socket buffers of the system take a few megabytes first; then the writer's bound applies.
    while (!writer.closed && written < 256 * 1024 * 1024) {
      writer.write(event);
      written += event.length;
      if (written % (1024 * 1024) < event.length) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(writer.closed).toBe(true);
    expect(response.destroyed).toBe(true);
    expect(response.writableLength).toBeLessThanOrEqual(64 * 1024 + event.length);
  });
});
