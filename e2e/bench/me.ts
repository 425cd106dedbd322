/**
 * GET /api/users/v1/me against the bare stack (apps/server/src/bench/bare-me.ts: Fastify + jose + the database driver
 * doing the same verify-and-select), in the same run, on PGlite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL
 * names a PostgreSQL user that may create databases, on PostgreSQL. Each side answers CONCURRENCY keep-alive
 * connections for ROUND_MS, in alternating rounds, so both meet the same machine; reported: requests per second,
 * p50/p99 and the ratio (targets: ≥ 100 % on PostgreSQL, ≥ 80 % on PGlite).
 */
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as playwrightRequest } from '@playwright/test';
import { DEMO, freePort, signInTokens, startServer, withPostgres } from '../fixtures.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CONCURRENCY = 8;
const ROUND_MS = 4_000;
const ROUNDS = 3;

export interface Throughput {
  perSecond: number;
  p50: number;
  p99: number;
}

export interface MeFigures {
  backend: 'PGlite' | 'PostgreSQL';
  portal: Throughput;
  bare: Throughput;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** CONCURRENCY loops of GET `url` with the token for `ms`; every answer must be 200. */
async function load(url: string, token: string, ms: number, times: number[]): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const end = performance.now() + ms;
  let count = 0;
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const started = performance.now();
      http
        .get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}`));
            times.push(performance.now() - started);
            count += 1;
            resolve();
          });
        })
        .on('error', reject);
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) await get();
    }),
  );
  agent.destroy();
  return count;
}

/** The bare server on a free port with the same keys, issuer, audience and database as the portal's. */
async function startBare(env: Record<string, string>): Promise<{ url: string; stop: () => void }> {
  const port = String(await freePort());
  const child = fork(path.join(repoRoot, 'apps/server/src/bench/bare-me.ts'), {
    cwd: repoRoot,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, PORT: port },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/me`, stop: () => child.kill() };
}

async function compare(backend: MeFigures['backend'], databaseUrl: string | null): Promise<MeFigures> {
  const { server, stop } = await startServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  const request = await playwrightRequest.newContext();
  let bare: Awaited<ReturnType<typeof startBare>> | undefined;
  try {
    const { access_token: token } = await signInTokens(request, server, DEMO.admin.email);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      iss: string;
      aud: string | string[];
    };
    bare = await startBare({
      ISSUER: claims.iss,
      AUDIENCE: Array.isArray(claims.aud) ? claims.aud[0]! : claims.aud,
      JWKS_URL: `${server.url}/realms/portal/protocol/openid-connect/certs`,
      DATABASE_URL: databaseUrl ?? 'snapshot',
    });
    const sides = { portal: `${server.url}/api/users/v1/me`, bare: bare.url };
    const counts = { portal: 0, bare: 0 };
    const times = { portal: [] as number[], bare: [] as number[] };
    // Warm both (JIT, pools), then alternate rounds.
    for (const side of ['portal', 'bare'] as const) await load(sides[side], token, 1_000, []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of ['portal', 'bare'] as const)
        counts[side] += await load(sides[side], token, ROUND_MS, times[side]);
    }
    const figures = (side: 'portal' | 'bare'): Throughput => ({
      perSecond: counts[side] / ((ROUNDS * ROUND_MS) / 1000),
      p50: percentile(times[side], 50),
      p99: percentile(times[side], 99),
    });
    return { backend, portal: figures('portal'), bare: figures('bare') };
  } finally {
    bare?.stop();
    await request.dispose();
    await stop();
  }
}

export async function measureMe(): Promise<MeFigures[]> {
  const results = [await compare('PGlite', null)];
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `portal_bench_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await withPostgres(adminUrl, (client) => client.query(`create database ${name}`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      results.push(await compare('PostgreSQL', url.toString()));
    } finally {
      await withPostgres(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    }
  }
  return results;
}

/** The lines `npm run bench` prints. */
export function describeMe(results: MeFigures[]): string[] {
  const side = (t: Throughput) =>
    `${t.perSecond.toFixed(0)} req/s, p50 ${t.p50.toFixed(1)} ms, p99 ${t.p99.toFixed(1)} ms`;
  return results.flatMap(({ backend, portal, bare }) => [
    `  GET /users/v1/me on ${backend} (${CONCURRENCY} connections; target ${backend === 'PGlite' ? '≥ 80' : '≥ 100'} % of the bare stack):`,
    `    portal: ${side(portal)}`,
    `    bare Fastify + jose + driver: ${side(bare)}`,
    `    ratio: ${((100 * portal.perSecond) / bare.perSecond).toFixed(0)} %`,
  ]);
}
