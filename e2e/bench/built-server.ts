/**
 * The built server as production starts it (`npm run start:server`: `node apps/server/dist/server.js`, decision 223)
 * in a child process of its own, so that its start can be timed from the spawn to /readyz and its memory read from
 * /proc. Needs `npm run build` first.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../fixtures.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(repoRoot, 'apps/server/dist/server.js');

export interface BuiltServer {
  url: string;
  pid: number;
  /** Milliseconds from the spawn to the first 200 of /readyz. */
  readyMs: number;
  /** CPU seconds (user + system) the server's process used so far, from /proc; NaN where /proc is missing. */
  cpuSeconds: () => number;
  /** Resident memory of the server's process in bytes, from /proc (VmRSS); NaN where /proc is missing. */
  rssBytes: () => number;
  stop: () => Promise<void>;
}

function readProc(pid: number, file: string): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
}

/** Starts the built server with `env` on a free port and resolves once /readyz answers 200. */
export async function startBuilt(env: Record<string, string>): Promise<BuiltServer> {
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build first`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const pid = child.pid!;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`the built server exited (${exitCode}) before it was ready`);
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    if (performance.now() - started > 300_000) {
      child.kill('SIGKILL');
      throw new Error('the built server was not ready within 300 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const readyMs = performance.now() - started;
  const ticks = 100; // USER_HZ on Linux
  return {
    url,
    pid,
    readyMs,
    cpuSeconds: () => {
      // Fields 14 and 15 (utime, stime) after the command name, which may hold spaces: count from its ')'.
      const stat = readProc(pid, 'stat');
      if (!stat) return NaN;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / ticks;
    },
    rssBytes: () => {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readProc(pid, 'status') ?? '')?.[1];
      return kb ? Number(kb) * 1024 : NaN;
    },
    stop: async () => {
      if (exitCode !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
