import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The web's test files, split by what they need (decision 246): a file that replaces a module or a global
 * (`vi.mock`, `vi.stubGlobal` …) or loads modules afresh (`vi.resetModules`) gets a module graph of its own; the
 * others share their worker's, which costs a quarter of the CPU time.
 */
function webTestFiles(): { shared: string[]; isolated: string[] } {
  const root = path.resolve(import.meta.dirname, 'apps/web');
  const files = fs
    .readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => path.join('src', file));
  const needsOwnModules = (file: string) =>
    /\bvi\.(mock|doMock|stubGlobal|stubEnv|resetModules)\(/.test(
      fs.readFileSync(path.join(root, file), 'utf8'),
    );
  return {
    shared: files.filter((file) => !needsOwnModules(file)),
    isolated: files.filter(needsOwnModules),
  };
}
const web = webTestFiles();

// Unit and API tests of every workspace; the browser journeys run in e2e/ with Playwright.
export default defineConfig({
  test: {
    // Most API tests wait on the database and on HTTP: more workers than cores keeps both cores busy (decision 170).
    maxWorkers: 3,
    projects: [
      { test: { name: 'contract', root: 'packages/contract', environment: 'node' } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['src/test/global-setup.ts'],
          // Test files of a worker share its loaded modules (decision 192): loading the server again for each file
          // cost more than the tests themselves. No server test mocks a module or changes the environment.
          isolate: false,
        },
      },
      {
        extends: 'apps/web/vite.config.ts',
        // Page tests type and click through several steps: 5 s, Vitest's default, was too little on a loaded machine.
        test: {
          name: 'web',
          root: 'apps/web',
          environment: 'jsdom',
          testTimeout: 15_000,
          include: web.shared,
          isolate: false,
        },
      },
      {
        extends: 'apps/web/vite.config.ts',
        test: {
          name: 'web-isolated',
          root: 'apps/web',
          environment: 'jsdom',
          testTimeout: 15_000,
          include: web.isolated,
        },
      },
    ],
  },
});
