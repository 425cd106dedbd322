/**
 * Live notifications at scale: 1,000 server-sent-event clients connected to one instance (on PostgreSQL when
 * TEST_DATABASE_URL names an admin connection, otherwise on PGlite), each the stream of another user. One change
 * notifies all of them in one transaction; measured from its commit to each client's receipt (target p99 ≤ 1 s),
 * and the instance's resident memory per open stream. The clients run in a process of their own.
 */
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { performance } from 'node:perf_hooks';
import { DEMO_ACCOUNTS } from '../demo/users.ts';
import { createNotifier } from '../notifications/notifier.ts';
import { TestApi } from '../test/api.ts';

export const CLIENTS = 1_000;

/** A full garbage collection before each memory reading, so that the figures are what the streams hold. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface SseFigures {
  backend: 'postgres' | 'pglite';
  clients: number;
  p50: number;
  p99: number;
  max: number;
  rssPerConnectionKb: number;
  /** JavaScript heap and buffers per open stream, after a full collection: steadier than RSS. */
  heapPerConnectionKb: number;
}

type ClientMessage = { ready: number } | { arrivals: number[] };

export async function measureSse(): Promise<SseFigures> {
  const backend = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const api = new TestApi(backend);
  await api.start();
  const children: ReturnType<typeof fork>[] = [];
  try {
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    // A thousand people, provisioned as their first request would: one token each.
    const subjects = Array.from({ length: CLIENTS }, (_, i) => `bench-live-${i}-${crypto.randomUUID()}`);
    const tokens = await Promise.all(
      subjects.map((sub, i) =>
        api.token({ sub, email: `live${i}@example.net`, name: `Live ${i}` }, { expiresIn: 3600 }),
      ),
    );
    for (let i = 0; i < tokens.length; i += 100) {
      await Promise.all(
        tokens.slice(i, i + 100).map((token) => api.request('GET', '/api/users/v1/me', { token })),
      );
    }
    const { rows } = await api.db.query<{ uuid: string }>('select uuid from users where subject = any($1)', [
      subjects,
    ]);

    collectGarbage();
    const before = process.memoryUsage();
    const child = fork(path.join(import.meta.dirname, 'sse-clients.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    });
    children.push(child);
    const messages: ClientMessage[] = [];
    const next = () =>
      new Promise<ClientMessage>((resolve, reject) => {
        const queued = messages.shift();
        if (queued) return resolve(queued);
        child.once('message', (message) => resolve(message as ClientMessage));
        child.once('exit', (code) => reject(new Error(`clients exited with ${code}`)));
      });
    child.send({ base, tokens });
    const ready = (await next()) as { ready: number };
    collectGarbage();
    const open = process.memoryUsage();

    const notifier = createNotifier();
    await api.db.transaction((tx) =>
      notifier.notify(tx, {
        accountUuid: DEMO_ACCOUNTS.muster,
        userUuids: rows.map((row) => row.uuid),
        type: 'terms.to_accept',
        params: { kind: 'terms', version: '2026-11' },
      }),
    );
    const committed = performance.timeOrigin + performance.now();
    const { arrivals } = (await next()) as { arrivals: number[] };
    const latencies = arrivals.map((at) => at - committed);
    return {
      backend,
      clients: ready.ready,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      rssPerConnectionKb: (open.rss - before.rss) / 1024 / ready.ready,
      heapPerConnectionKb:
        (open.heapUsed + open.external - before.heapUsed - before.external) / 1024 / ready.ready,
    };
  } finally {
    for (const child of children) child.kill();
    await api.stop();
  }
}

export function printSseFigures(figures: SseFigures): void {
  console.log(
    `  live notifications, ${figures.clients.toLocaleString('en')} SSE clients on one instance (${figures.backend}; target p99 ≤ 1 s):`,
  );
  console.log(
    `    commit → received: p50 ${figures.p50.toFixed(0)} ms, p99 ${figures.p99.toFixed(0)} ms, all within ${figures.max.toFixed(0)} ms`,
  );
  console.log(
    `    server memory per open stream: ${figures.rssPerConnectionKb.toFixed(1)} KB RSS, ${figures.heapPerConnectionKb.toFixed(1)} KB heap and buffers`,
  );
}
