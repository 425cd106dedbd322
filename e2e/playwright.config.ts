import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

/** Debian's Chromium, the browser people run: the benches measure paint times in it. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * The journeys run in Debian's old headless shell (package chromium-headless-shell) where it is installed: the same
 * Blink of the same version as Debian's chromium, without a browser around the page, at a third less CPU for the same
 * journeys (decision 256). CHROMIUM_PATH names another browser for both.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const journeyBrowser =
  process.env.CHROMIUM_PATH || (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);

// Browser journeys in Debian's Chromium (no browser download). Each worker starts its own server on a free
// port with a fresh in-memory database (see fixtures.ts; the servers of one worker run in one host process, each
// from the seeded snapshot), so journeys never see each other's changes. They serve a snapshot of apps/web/dist
// taken at the start (global-setup.ts): build before running.
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  // Sized for a slow 2-core machine: a journey that signs in several times took over a minute in CI. No retries: a
  // flaky journey is fixed, not hidden.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    locale: 'de-DE',
    timezoneId: 'Europe/Zurich',
    // Recording a trace cost about a third of Chromium's CPU time in every journey, failing or not; rerun a failing
    // journey with `--trace retain-on-failure` to get one.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: journeyBrowser,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
