/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const root = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
// Same default build id as the server's config (BUILD_ID, default "local"), so /version.json matches.
const appVersion = `${pkg.version}+${process.env.BUILD_ID || 'local'}`;
const backend = process.env.PORTAL_BACKEND || 'http://127.0.0.1:8080';

/** Development only: fills the `<!--portal-config-->` placeholder the way the server does in production. */
function devConfig(): Plugin {
  return {
    name: 'portal-dev-config',
    apply: 'serve',
    async transformIndexHtml(html) {
      const response = await fetch(`${backend}/api/config`);
      if (!response.ok) throw new Error(`GET ${backend}/api/config answered ${response.status}`);
      const body = (await response.json()) as Record<string, unknown>;
      const config = 'data' in body ? body.data : body;
      const content = JSON.stringify(config).replace(/&/g, '&amp;').replace(/'/g, '&#39;');
      return html.replace('<!--portal-config-->', `<meta name="portal-config" content='${content}'>`);
    },
  };
}

/**
 * Prints the gzipped size of the JavaScript a user downloads from sign-in to the dashboard: the entry with its
 * static imports, the dashboard page's chunk with its static imports, and the German locale files.
 */
function signInBudget(budgetKb: number): Plugin {
  const wanted = [
    /src\/features\/dashboard\/dashboard-page\.tsx$/,
    /locales\/de\/(messages|validation)\.json$/,
  ];
  return {
    name: 'portal-sign-in-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const needed = new Set<string>();
      const add = (fileName: string) => {
        if (needed.has(fileName)) return;
        const chunk = byName.get(fileName);
        if (!chunk) return;
        needed.add(fileName);
        chunk.imports.forEach(add);
      };
      for (const chunk of chunks) {
        const id = chunk.facadeModuleId ?? '';
        if (chunk.isEntry || wanted.some((re) => re.test(id))) add(chunk.fileName);
      }
      let total = 0;
      for (const fileName of needed) total += gzipSync(byName.get(fileName)!.code, { level: 9 }).length;
      const kb = total / 1024;
      const verdict = kb <= budgetKb ? 'within' : 'OVER';
      this.info(
        `sign-in → dashboard JS: ${kb.toFixed(1)} KB gzip in ${needed.size} files (${verdict} the ${budgetKb} KB budget)`,
      );
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), devConfig(), signInBudget(150)],
  resolve: { alias: { '@': path.join(root, 'src') } },
  define: { __APP_VERSION__: JSON.stringify(appVersion) },
  server: {
    host: '127.0.0.1',
    proxy: Object.fromEntries(
      ['/api', '/realms', '/version.json', '/dev'].map((prefix) => [prefix, { target: backend, xfwd: true }]),
    ),
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Long-lived vendor chunks that every page needs; they change less often than the app. MUI stays with
            // automatic splitting so components only a lazy page uses stay out of the first load.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            {
              name: 'vendor',
              test: /node_modules[\\/](react-router|@tanstack|i18next|react-i18next|keycloak-js|cookie|set-cookie-parser)[\\/]/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
  test: {
    setupFiles: ['./src/test-setup.ts'],
  },
});
