// Development: the API (with the embedded identity provider) and Vite's dev server with hot reload, as one origin.
// The browser talks only to Vite; Vite proxies /api, /realms, /version.json and /dev to the API, whose PUBLIC_URL
// is Vite's origin so that issuer, redirects and cookies all match. Ctrl+C stops both.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitForReady(url, child) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}) before it was ready`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the API was not ready within 2 minutes');
}

const webPort = Number(process.env.WEB_PORT || 5173);
const apiPort = Number(process.env.API_PORT || (await freePort()));
const origin = `http://localhost:${webPort}`;
const backend = `http://127.0.0.1:${apiPort}`;
const children = [];

function stopAll(code = 0) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

const api = spawn(process.execPath, ['--import', 'tsx', '--watch', 'apps/server/src/server.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    PUBLIC_URL: process.env.PUBLIC_URL || origin,
  },
  stdio: 'inherit',
});
children.push(api);
api.on('exit', (code) => stopAll(code ?? 1));

await waitForReady(backend, api);
const viteBin = path.join(root, 'node_modules/vite/bin/vite.js');
const web = spawn(process.execPath, [viteBin, '--port', String(webPort), '--strictPort'], {
  cwd: path.join(root, 'apps/web'),
  env: { ...process.env, PORTAL_BACKEND: backend },
  stdio: 'inherit',
});
children.push(web);
web.on('exit', (code) => stopAll(code ?? 1));
console.log(`\n  Portal (development): ${origin}  —  API on ${backend}\n`);
