import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDb } from './db/client.ts';
import { pgliteSnapshot, TestApi } from './test/api.ts';

const serverFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.ts');
const dataDirs: string[] = [];
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
  const child = spawn(process.execPath, ['--import', 'tsx', serverFile], {
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
});
