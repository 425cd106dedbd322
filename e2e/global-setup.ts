import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files index.html loads that the copy lacks (a build was running while we copied). */
function missingAssets(dist: string): string[] {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\/([^"?#]+)"/g)].map((match) => match[1]!);
  return refs.filter((ref) => !fs.existsSync(path.join(dist, ref)));
}

/**
 * Serves a snapshot of the built SPA (WEB_DIST, inherited by the workers' servers), so a `npm run build` started
 * during the run cannot swap chunks under a journey that is loading them.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const source = path.join(repoRoot, 'apps/web/dist');
  if (!fs.existsSync(path.join(source, 'index.html')))
    throw new Error('apps/web/dist/index.html is missing: run `npm run build` first');
  const snapshot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-web-'));
  for (let attempt = 1; ; attempt += 1) {
    fs.rmSync(snapshot, { recursive: true, force: true });
    fs.cpSync(source, snapshot, { recursive: true, filter: (file) => !file.endsWith('.map') });
    const missing = missingAssets(snapshot);
    if (missing.length === 0) break;
    if (attempt === 3) throw new Error(`apps/web/dist is incomplete (${missing.join(', ')}): rebuild it`);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  }
  process.env.WEB_DIST = snapshot;
  return async () => fs.rmSync(snapshot, { recursive: true, force: true });
}
