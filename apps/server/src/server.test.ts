import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDb } from './db/client.ts';
import { pgliteSnapshot, TestApi } from './test/api.ts';

// The process production runs: server.ts built ahead of time (decision 223), here from this tree's sources.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bundleDir = path.join(root, 'node_modules/.cache', `server-test-bundle-${process.pid}`);
const serverFile = path.join(bundleDir, 'server.js');
const dataDirs: string[] = [bundleDir];
beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build-server.mjs', bundleDir], { cwd: root, stdio: 'ignore' });
}, 120_000);
afterAll(() => dataDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A PGlite data folder with schema and demo data (reopening one is much faster than a new database). */
async function preparedDataDir(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-server-test-'));
  dataDirs.push(dir);
  const db = await openDb(dir, { loadDataDir: await pgliteSnapshot() });
  await db.close();
  return dir;
}

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [serverFile], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: 'memory://',
      OIDC_ISSUER: 'http://idp.test/realms/portal',
      DEMO_DATA: 'false',
      WEB_DIST: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`server exited: ${stderr}`)));
  });
  listening.catch(() => undefined);
  return { child, exited, listening, output: () => ({ stdout, stderr }) };
}

describe('server process', () => {
  it('exits 1 with a message naming the bad variable', async () => {
    const server = start({ PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output().stderr).toMatch(/PORT must be a port number/);
    expect(server.output().stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('serves, then shuts down cleanly on SIGTERM', async () => {
    const server = start({ DATABASE_URL: await preparedDataDir() });
    const base = await server.listening;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const version = (await (await fetch(`${base}/version.json`)).json()) as { data: { version: string } };
    expect(version.data.version).toMatch(/^2\.6\.0\+/);
    const stopping = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(server.output().stdout).toMatch(/shutting down/);
  }, 90_000); // a whole server process starts: slow while the other test workers load both cores
});

/** An HTTP answer as the drain test reads it. */
interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

describe('graceful close', () => {
  it('lets an in-flight request finish before the app closes', async () => {
    const api = new TestApi('pglite');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const handling = new Promise<void>((resolve) => (entered = resolve));
    await api.start({
      prepare(app) {
        app.get('/slow', async () => {
          entered();
          await gate;
          return { done: true };
        });
      },
    });
    try {
      const address = await api.app.listen({ host: '127.0.0.1', port: 0 });
      const inFlight = fetch(`${address}/slow`);
      await handling;
      let closed = false;
      const closing = api.app.close().then(() => (closed = true));
      // Closing refuses new connections at once, but waits for the request in flight.
      await vi.waitFor(() => expect(fetch(`${address}/healthz`)).rejects.toThrow());
      expect(closed).toBe(false);
      release();
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ done: true });
      await closing;
      expect(closed).toBe(true);
    } finally {
      release();
      await api.stop();
    }
  });

  it('drains: /readyz 503 and Connection: close on keep-alive requests, in-flight ones finish', async () => {
    const api = new TestApi('pglite');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const handling = new Promise<void>((resolve) => (entered = resolve));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    /** A GET over the keep-alive agent: status, Connection header and body. */
    const get = (url: string) =>
      new Promise<Answer>((resolve, reject) => {
        http
          .get(url, { agent }, (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () =>
              resolve({ status: res.statusCode!, connection: res.headers.connection, body }),
            );
          })
          .on('error', reject);
      });
    let duringDrain: Promise<[Answer, Answer]> | undefined;
    let address = '';
    await api.start({
      prepare(app) {
        app.get('/slow', async () => {
          entered();
          await gate;
          return { done: true };
        });
        // Runs after the app's own preClose hooks: draining, still listening (the window a balancer sees).
        app.addHook('preClose', async () => {
          duringDrain = Promise.all([get(`${address}/readyz`), get(`${address}/version.json`)]);
          await duringDrain;
        });
      },
    });
    try {
      address = await api.app.listen({ host: '127.0.0.1', port: 0 });
      // Two keep-alive connections: one carries the slow request, the other is reused while draining.
      const before = await get(`${address}/readyz`);
      expect(before).toMatchObject({ status: 200 });
      expect(before.connection).not.toBe('close');
      const inFlight = get(`${address}/slow`);
      await handling;
      const closing = api.app.close();
      await vi.waitFor(() => expect(duringDrain).toBeDefined());
      const [readyz, version] = await duringDrain!;
      expect(readyz).toMatchObject({ status: 503, connection: 'close' });
      expect(JSON.parse(readyz.body)).toEqual({ status: 'draining' });
      // A request on a kept-alive connection is served, not refused, and told to close its connection.
      expect(version).toMatchObject({ status: 200, connection: 'close' });
      release();
      const slow = await inFlight;
      expect(slow).toMatchObject({ status: 200, connection: 'close' });
      expect(JSON.parse(slow.body)).toEqual({ done: true });
      await closing;
    } finally {
      release();
      agent.destroy();
      await api.stop();
    }
  });
});
