import { defineConfig } from 'vitest/config';

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
          // Test files of a worker share its loaded modules (decision 192): loading the server again for each file
          // cost more than the tests themselves. No server test mocks a module or changes the environment.
          isolate: false,
        },
      },
      {
        extends: 'apps/web/vite.config.ts',
        // Page tests type and click through several steps: 5 s, Vitest's default, was too little on a loaded machine.
        test: { name: 'web', root: 'apps/web', environment: 'jsdom', testTimeout: 15_000 },
      },
    ],
  },
});
