// Builds the server ahead of time (decision 223): apps/server/src with packages/contract bundled by esbuild into
// apps/server/dist, which `npm run start:server` starts with plain `node`; then the migrated PGlite template that a
// new data folder starts from. Dependencies are not bundled: Node loads them from node_modules as they are. Every
// module keeps the meaning of its own `import.meta.url`, so the SQL migrations and the sign-in pages' CSS and
// scripts are read beside their sources: the bundle runs from the repository's tree (or a copy of it).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.resolve(root, process.argv[2] ?? 'apps/server/dist');

/** `import.meta.url` in a source module becomes that module's own URL, relative to the bundle's folder. */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      const own = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', own), loader: 'ts' };
    });
  },
};

/** Only the workspace's own TypeScript is bundled; every other package is imported from node_modules. */
const dependenciesExternal = {
  name: 'dependencies-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@portal/') ? undefined : { path: args.path, external: true },
    );
  },
};

const started = performance.now();
fs.mkdirSync(outdir, { recursive: true });
// The previous bundle goes (its chunks have other names); the database template stays while it is current.
for (const file of fs.readdirSync(outdir)) {
  if (/\.js(\.map)?$/.test(file)) fs.rmSync(path.join(outdir, file));
}
await build({
  entryPoints: { server: 'apps/server/src/server.ts', cli: 'apps/server/src/cli.ts' },
  absWorkingDir: root,
  outdir,
  bundle: true,
  // server.ts loads the app only once the configuration is valid: that import stays a chunk of its own.
  splitting: true,
  chunkNames: '[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  plugins: [ownImportMetaUrl, dependenciesExternal],
  logLevel: 'warning',
});
console.log(
  `server bundled into ${path.relative(root, outdir)} in ${(performance.now() - started).toFixed(0)} ms`,
);
execFileSync(process.execPath, [path.join(outdir, 'cli.js'), 'template'], { cwd: root, stdio: 'inherit' });
