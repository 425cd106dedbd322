/// <reference types="vitest/config" />
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import MagicString from 'magic-string';
import { defineConfig, parseAst, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import TypeLite from './src/api/typebox-lite.ts';
import { pickKeys, type MessageTree } from './src/i18n/pick-keys.ts';
import type { RoutePreloads } from '@portal/contract';

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

/** What the first load and each route may weigh (gzip KB; issue 24, decision 236). */
export interface LoadBudget {
  /** The target for sign-in → dashboard. */
  firstLoadKb: number;
  /** The line main holds until the target is met: above it the build fails. Lower it with every cut. */
  firstLoadCeilingKb: number;
  /** A route's own chunk (its page, not the libraries it shares with others): above it the build fails. */
  routeKb: number;
}

const gzipKb = (code: string) => gzipSync(code, { level: 9 }).length / 1024;

/**
 * Measures the JavaScript a user downloads from sign-in to the dashboard (the entry with its static imports, the
 * dashboard page's chunk with its static imports, the German texts of the shell and the dashboard and the German
 * validation texts, decision 218, and the sign-in client, which a sign-in loads, decision 269) and each route's own
 * chunk; prints both on every build and fails the build when either is over its line.
 */
function loadBudget(budget: LoadBudget): Plugin {
  const wanted = [
    /src\/features\/dashboard\/dashboard-page\.tsx$/,
    /[\\/]node_modules[\\/]keycloak-js[\\/]/,
    // German is the default language; the shell's and the dashboard's texts load with it (src/i18n/areas.ts).
    /locales\/de\/validation\.json$/,
    /^\0messages-de-(shell|dashboard)$/,
  ];
  return {
    name: 'portal-load-budget',
    apply: 'build',
    // Measured as written, after every plugin's last change (Vite fills in the preload lists of the entry in its
    // own generateBundle, about 3 KB gzip that an earlier measurement missed).
    writeBundle(_options, bundle) {
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
      const lines: string[] = [];
      for (const fileName of needed) {
        const size = gzipKb(byName.get(fileName)!.code);
        total += size;
        lines.push(`  ${size.toFixed(1).padStart(6)} KB  ${fileName}`);
      }
      const pages = chunks
        .filter((chunk) => /src\/features\/.*-page\.tsx$/.test(chunk.facadeModuleId ?? ''))
        .map((chunk) => ({ fileName: chunk.fileName, kb: gzipKb(chunk.code) }))
        .sort((one, other) => other.kb - one.kb);
      const verdict = total <= budget.firstLoadKb ? 'within' : 'OVER';
      this.info(
        `sign-in → dashboard JS: ${total.toFixed(1)} KB gzip in ${needed.size} files (${verdict} the ` +
          `${budget.firstLoadKb} KB budget; the build fails above ${budget.firstLoadCeilingKb} KB)\n` +
          `${lines.sort().reverse().join('\n')}\n` +
          `largest route chunk: ${pages[0]?.kb.toFixed(1)} KB ${pages[0]?.fileName} (the build fails above ${budget.routeKb} KB)`,
      );
      const over = [
        ...(total > budget.firstLoadCeilingKb
          ? [`sign-in → dashboard loads ${total.toFixed(1)} KB gzip, over ${budget.firstLoadCeilingKb} KB`]
          : []),
        ...pages
          .filter((page) => page.kb > budget.routeKb)
          .map((page) => `${page.fileName} is ${page.kb.toFixed(1)} KB gzip, over ${budget.routeKb} KB`),
      ];
      if (over.length) this.error(`JavaScript over budget (decision 236):\n  ${over.join('\n  ')}`);
    },
  };
}

/** A string literal's value, or null. */
const literal = (node: AstNode | undefined): string | null =>
  node?.type === 'Literal' && typeof node.value === 'string' ? node.value : null;

/** The value of an object literal's property by key, or undefined. */
function property(node: AstNode, key: string): AstNode | undefined {
  for (const prop of (node.properties as AstNode[] | undefined) ?? []) {
    const name = (prop.key as AstNode | undefined)?.name ?? literal(prop.key as AstNode | undefined);
    if (prop.type === 'Property' && name === key) return prop.value as AstNode;
  }
  return undefined;
}

/** The object literal a top-level `const NAME = …` (or `export const`) starts with, through `as`/`satisfies`. */
function constInitialiser(code: string, name: string): AstNode {
  for (const statement of parseAst(code, { lang: 'ts' }).body as unknown as AstNode[]) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? (statement.declaration as AstNode | null) : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as AstNode[]) {
      if ((declarator.id as AstNode).name !== name) continue;
      let init = declarator.init as AstNode;
      while (init.type === 'TSAsExpression' || init.type === 'TSSatisfiesExpression')
        init = init.expression as AstNode;
      return init;
    }
  }
  throw new Error(`no top-level const ${name}`);
}

/**
 * The routes of `route-table.ts` with what `page-loaders.ts` loads for them: path, the modules it renders (its page
 * and what loads alongside, as written: `@/…`; none for a route without a page) and its areas of texts. Read from
 * the two sources' syntax, so the build needs no browser module.
 */
export function routePages(
  routeTable: string,
  pageLoaders: string,
): { path: string; modules: string[]; areas: string[] }[] {
  const loaders = new Map<string, AstNode | null>();
  for (const prop of constInitialiser(pageLoaders, 'PAGE_LOADERS').properties as AstNode[]) {
    const key = prop.key as AstNode;
    loaders.set((key.name as string | undefined) ?? literal(key)!, prop.value as AstNode);
  }
  return (constInitialiser(routeTable, 'TABLE').elements as AstNode[]).map((row) => {
    const name = literal(property(row, 'name'))!;
    const path = literal(property(row, 'path'))!;
    const loader = loaders.get(name);
    if (loader === undefined) throw new Error(`route ${name} has no page loader`);
    if (loader?.type !== 'ObjectExpression' || !property(loader, 'page'))
      return { path, modules: [], areas: [] };
    // `page: () => import('…')` and `alongside: () => import('…')`: the modules the route renders.
    const modules = ['page', 'alongside']
      .map((key) => property(loader, key))
      .map((loads) => (loads ? literal((loads.body as AstNode).source as AstNode) : null))
      .filter((module): module is string => module !== null);
    const areas = (property(loader, 'messages')?.elements as AstNode[] | undefined) ?? [];
    return { path, modules, areas: areas.map((area) => literal(area)!) };
  });
}

/**
 * Names the sign-in client's chunk (keycloak-js, which auth.ts loads with `import()`) in index.html's script, which
 * preloads it with the app's code when the sign-in runs first (decision 269). The build fails without either.
 */
function signInClientPreload(): Plugin {
  const SLOT = "var signInClient = '';";
  let base = '/';
  return {
    name: 'portal-sign-in-client-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const client = Object.values(bundle ?? {}).find(
          (item) =>
            item.type === 'chunk' && /[\\/]node_modules[\\/]keycloak-js[\\/]/.test(item.facadeModuleId ?? ''),
        );
        if (!client || !html.includes(SLOT))
          throw new Error('sign-in client preload: no keycloak-js chunk, or no slot for it in index.html');
        return html.replace(SLOT, `var signInClient = '${base}${client.fileName}';`);
      },
    },
  };
}

/**
 * Writes `route-preloads.json` beside index.html: for each route, the chunks its page needs that the first load's
 * index.html does not already preload, and for each language the files of each area's texts. The server puts them
 * into index.html as `modulepreload` hints for the address asked for and the browser's last language, so a reload
 * fetches them with the app's code instead of after it has run (issue 24 item 3).
 */
function routePreloads(): Plugin {
  return {
    name: 'portal-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (fileName: string, into = new Set<string>()) => {
        if (into.has(fileName) || !byName.has(fileName)) return into;
        into.add(fileName);
        for (const imported of byName.get(fileName)!.imports) closure(imported, into);
        return into;
      };
      const inFirstLoad = new Set<string>();
      for (const chunk of chunks) if (chunk.isEntry) closure(chunk.fileName, inFirstLoad);
      const filesOf = (facade: string) => {
        const chunk = chunks.find((candidate) => candidate.facadeModuleId === facade);
        // A page is its own chunk (page-loaders.ts); one merged into another would hint at the wrong files.
        if (!chunk) this.error(`route-preloads: no chunk starts with ${facade}`);
        return [...closure(chunk.fileName)].filter((file) => !inFirstLoad.has(file));
      };
      const source = (file: string) => readFileSync(path.join(root, 'src/app', file), 'utf8');
      const routes = routePages(source('route-table.ts'), source('page-loaders.ts'))
        .filter((route) => route.modules.length > 0)
        .map((route) => ({
          path: route.path,
          files: [
            ...new Set(
              route.modules.flatMap((module) => filesOf(path.join(root, 'src', module.replace(/^@\//, '')))),
            ),
          ],
          areas: route.areas,
        }));
      const texts: RoutePreloads['texts'] = {};
      for (const chunk of chunks) {
        const id = chunk.facadeModuleId ?? '';
        const [, language, area] =
          /^\0messages-(\w+)-(\w+)$/.exec(id) ?? /locales\/(\w+)\/(validation)\.json$/.exec(id) ?? [];
        if (language && area) (texts[language] ??= {})[area] = filesOf(id);
      }
      const preloads: RoutePreloads = { routes, texts };
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: JSON.stringify(preloads) });
    },
  };
}

/**
 * `messages.json?keys=billing,company.twoFactor.dismiss` is a module of only those key paths of the file: the texts of
 * one area (src/i18n/areas.ts, decision 218), each a chunk of its own per language. It gets an id of its own, so
 * Vite's JSON support leaves it alone.
 */
function messageAreas(): Plugin {
  const PREFIX = '\0';
  const areas = new Map<string, { file: string; keys: string[] }>();
  return {
    name: 'portal-message-areas',
    enforce: 'pre',
    resolveId(source, importer) {
      const [file = '', query = ''] = source.split('?');
      const params = new URLSearchParams(query);
      const [area, keys] = [params.get('area'), params.get('keys')];
      if (!file.endsWith('/messages.json') || !area || !keys) return null;
      const absolute = path.resolve(path.dirname(importer ?? root), file);
      // Named by language and area: the chunk is messages-de-shell-<hash>.js.
      const id = `${PREFIX}messages-${path.basename(path.dirname(absolute))}-${area}`;
      areas.set(id, { file: absolute, keys: keys.split(',') });
      return id;
    },
    load(id) {
      const area = areas.get(id);
      if (!area) return null;
      this.addWatchFile(area.file);
      const tree = pickKeys(JSON.parse(readFileSync(area.file, 'utf8')) as MessageTree, area.keys);
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(tree))});`;
    },
  };
}

/** Text files of the build worth compressing; source maps are left to the server (only developer tools load them). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

/**
 * Writes a brotli (`.br`, best quality) and a gzip (`.gz`, level 9) copy beside every compressible file of the build,
 * which the server sends as they are, chosen by the browser's Accept-Encoding. A copy that is not smaller is not
 * written. index.html is left out: the server fills in the configuration at start and compresses that result itself.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let outDir = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter(
        (file) =>
          COMPRESSIBLE.test(file) && file !== 'index.html' && statSync(path.join(outDir, file)).isFile(),
      );
      const totals = { plain: 0, br: 0, gzip: 0 };
      await Promise.all(
        files.map(async (file) => {
          const plain = readFileSync(path.join(outDir, file));
          const [br, gzipped] = await Promise.all([
            brotli(plain, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: plain.length,
              },
            }),
            gz(plain, { level: zlibConstants.Z_BEST_COMPRESSION }),
          ]);
          totals.plain += plain.length;
          for (const [suffix, copy] of [
            ['br', br],
            ['gz', gzipped],
          ] as const) {
            if (copy.length < plain.length) writeFileSync(path.join(outDir, `${file}.${suffix}`), copy);
          }
          totals.br += Math.min(br.length, plain.length);
          totals.gzip += Math.min(gzipped.length, plain.length);
        }),
      );
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
      this.info(
        `precompressed ${files.length} files: ${kb(totals.plain)} → ${kb(totals.br)} brotli, ${kb(totals.gzip)} gzip`,
      );
    },
  };
}

/** Route fields only the server and the API document read: the web calls routes by method, path and access. */
const SERVER_ONLY_ROUTE_FIELDS = new Set([
  'summary',
  'description',
  'tags',
  'security',
  'params',
  'querystring',
  'body',
  'response',
]);

type AstNode = { type: string; start: number; end: number; [key: string]: unknown };
const isNode = (value: unknown): value is AstNode =>
  typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';

/**
 * The contract as the web needs it (decision 235): each `defineRoute({…})` loses the fields only the server reads
 * (its schemas and documentation), and the calls that build a module's top-level values are marked pure, so a
 * schema no web code uses leaves the bundle. Calls inside functions stay as they are (their effects count).
 */
export function contractForWeb(code: string): string {
  const source = new MagicString(code);
  const visit = (node: AstNode): void => {
    if (/Function/.test(node.type)) return;
    if (node.type === 'CallExpression' || node.type === 'NewExpression')
      source.appendLeft(node.start, '/* @__PURE__ */ ');
    const callee = node.callee as AstNode | undefined;
    const route = (node.arguments as AstNode[] | undefined)?.[0];
    if (
      node.type === 'CallExpression' &&
      callee?.type === 'Identifier' &&
      callee.name === 'defineRoute' &&
      route?.type === 'ObjectExpression'
    ) {
      for (const property of route.properties as AstNode[]) {
        const key = property.key as AstNode | undefined;
        if (
          property.type !== 'Property' ||
          key?.type !== 'Identifier' ||
          !SERVER_ONLY_ROUTE_FIELDS.has(key.name as string)
        )
          continue;
        const comma = /^\s*,/.exec(code.slice(property.end));
        source.remove(property.start, property.end + (comma ? comma[0].length : 0));
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'typeAnnotation' || key === 'typeParameters') continue;
      for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) visit(child);
    }
  };
  for (const statement of parseAst(code, { lang: 'ts' }).body as unknown as AstNode[]) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? (statement.declaration as AstNode | null) : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as AstNode[])
      if (isNode(declarator.init)) visit(declarator.init);
  }
  return source.toString();
}

/** The kinds of top-level statement that only declare: a module made of them alone has no side effects. */
const DECLARATIONS = new Set([
  'ImportDeclaration',
  'ExportNamedDeclaration',
  'ExportAllDeclaration',
  'VariableDeclaration',
  'FunctionDeclaration',
  'ClassDeclaration',
  'TSTypeAliasDeclaration',
  'TSInterfaceDeclaration',
  'TSModuleDeclaration',
  'TSDeclareFunction',
  'EmptyStatement',
]);

/**
 * The top-level statements of a contract file that run code when it loads (`registry.add(x);`, `if (…) …`), as
 * `kind at line n`; none in a file the web build may take as free of side effects. Declarations' initialisers are
 * calls that `contractForWeb` marks pure.
 */
export function topLevelEffects(code: string): string[] {
  const body = parseAst(code, { lang: 'ts' }).body as unknown as AstNode[];
  return body
    .filter((statement) => !DECLARATIONS.has(statement.type))
    .map((statement) => `${statement.type} at line ${code.slice(0, statement.start).split('\n').length}`);
}

/**
 * Inside packages/contract, `typebox` resolves to a light JSON Schema builder: the SPA uses the contract's route
 * definitions and types, not its validators (see src/api/typebox-lite.ts), and `contractForWeb` drops what only the
 * server reads. Web code importing typebox itself (the form rules) gets the real library. A contract calling a
 * builder the stand-in lacks (`Type.Intersect(…)`) fails the build, naming file and builder: it typechecks against
 * the real TypeBox, but would break the bundle.
 */
export function contractWithoutValidators(): Plugin {
  const contractDir = path.resolve(root, '../../packages/contract');
  const lite = path.join(root, 'src/api/typebox-lite.ts');
  return {
    name: 'portal-contract-typebox-lite',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'typebox' && importer?.startsWith(contractDir)) return lite;
      return null;
    },
    transform(code, id) {
      if (!id.startsWith(contractDir) || !id.endsWith('.ts')) return null;
      // Calls only: `Type.Static<…>` and `Type.TSchema` are types, gone once TypeScript is stripped.
      const called = new Set([...code.matchAll(/\bType\.(\w+)\s*\(/g)].map((match) => match[1]!));
      const missing = [...called].filter((builder) => !(builder in TypeLite));
      if (/from 'typebox'/.test(code) && missing.length)
        this.error(
          `${path.relative(root, id)} calls Type.${missing.join(', Type.')}, which src/api/typebox-lite.ts does not ` +
            'provide: add the builder there (the web bundle would break without it)',
        );
      const effects = topLevelEffects(code);
      if (effects.length)
        this.error(
          `${path.relative(root, id)} runs code when it loads (${effects.join(', ')}): the web build takes every ` +
            'contract file as free of side effects (decision 255), so move it into a function',
        );
      // Free of side effects: a contract file only the lazy pages use stays out of the first load, although the
      // index (`@portal/contract`), which every page imports, re-exports it (decision 255).
      return { code: contractForWeb(code), map: null, moduleSideEffects: false };
    },
  };
}

/**
 * MUI's `createTheme` and `ThemeProvider` as the build bundles them: only their path for a theme without CSS variables
 * (decision 255). Both take that path whenever the theme has neither `cssVariables` nor `colorSchemes`, which
 * Portal's never has (ui/theme.tsx); yet both import the other path too (createThemeWithVars, CssVarsProvider with its
 * colour-scheme storage), and a module's import is kept whatever branch runs. The build's versions keep the first
 * path as MUI writes it and throw where MUI would take the second, so a theme that asks for CSS variables fails
 * loudly instead of silently losing them. Tests and the dev server use MUI's own files.
 */
const MUI_WITHOUT_CSS_VARS: Record<string, string> = {
  createTheme: `import createThemeNoVars from './createThemeNoVars.mjs';
export default function createTheme(options = {}, ...args) {
  if (options.cssVariables || 'colorSchemes' in options)
    throw new Error('MUI is built without CSS variables (decision 255): no cssVariables or colorSchemes');
  return createThemeNoVars(options, ...args);
}`,
  ThemeProvider: `import * as React from 'react';
import ThemeProviderNoVars from './ThemeProviderNoVars.mjs';
import THEME_ID from './identifier.mjs';
import { jsx } from 'react/jsx-runtime';
export default function ThemeProvider({ theme, ...props }) {
  const noVarsTheme = React.useMemo(() => {
    if (typeof theme === 'function') return theme;
    const muiTheme = THEME_ID in theme ? theme[THEME_ID] : theme;
    if ('colorSchemes' in muiTheme)
      throw new Error('MUI is built without CSS variables (decision 255): no theme with colorSchemes');
    return 'vars' in muiTheme ? theme : { ...theme, vars: null };
  }, [theme]);
  return jsx(ThemeProviderNoVars, { theme: noVarsTheme, ...props });
}`,
};

export function muiWithoutCssVars(): Plugin {
  const file = /[\\/]@mui[\\/]material[\\/]styles[\\/](createTheme|ThemeProvider)\.mjs$/;
  return {
    name: 'portal-mui-without-css-vars',
    apply: 'build',
    load(id) {
      const name = file.exec(id)?.[1];
      return name ? MUI_WITHOUT_CSS_VARS[name]! : null;
    },
  };
}

/**
 * wouter's own location hooks (its default router's) patch history.pushState and replaceState once loaded; the app's
 * router hands wouter hooks of its own (src/routing/navigation-view.tsx, decision 267), so that module is a stand-in
 * that patches nothing and throws if used.
 */
function wouterWithoutBrowserLocation(): Plugin {
  return {
    name: 'portal-wouter-without-browser-location',
    load(id) {
      if (!/[\\/]wouter[\\/]src[\\/]use-browser-location\.js$/.test(id)) return null;
      return [
        `const unused = () => { throw new Error("wouter's own location: render inside the app's <AppRouter>"); };`,
        'export const useBrowserLocation = unused;',
        'export const useSearch = unused;',
      ].join('\n');
    },
  };
}

/**
 * React as Preact's compat layer (decision 263): the same API in 10 KB gzip instead of 66. `react` and `react-dom`
 * are src/preact/compat.js, which adds the one React behaviour the app needs that compat leaves out (`autoFocus`).
 * Exact names only, so `react-dom/client` is not taken for `react-dom` + "/client".
 */
export const PREACT_ALIASES = [
  { find: /^react$/, replacement: path.join(root, 'src/preact/compat.js') },
  { find: /^react-dom$/, replacement: path.join(root, 'src/preact/compat.js') },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
];

export default defineConfig({
  root,
  plugins: [
    contractWithoutValidators(),
    muiWithoutCssVars(),
    wouterWithoutBrowserLocation(),
    messageAreas(),
    // React's Fast Refresh cannot re-render Preact's components: an edit was "hot updated" and the page kept showing
    // the old code. Without it Vite reloads the page on an edit (the session survives a reload).
    react({ refreshExclude: /./ }),
    devConfig(),
    loadBudget({ firstLoadKb: 150, firstLoadCeilingKb: 150, routeKb: 50 }),
    routePreloads(),
    signInClientPreload(),
    precompress(),
  ],
  resolve: { alias: [{ find: '@', replacement: path.join(root, 'src') }, ...PREACT_ALIASES] },
  define: { __APP_VERSION__: JSON.stringify(appVersion) },
  server: {
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
            // Everything not named here is split automatically, so code only a lazy page needs (forms, dialogs,
            // Trans …) stays out of the first load.
            // The bars under the app bar, which every signed-in page renders with its first paint, and what they
            // are built on (Rolldown takes a group's dependencies along: MUI's core, Emotion), so the entry's MUI
            // too: one file of the first load instead of about fifteen of 1–8 KB, which queued on the browser's six
            // connections per host (decision 258: 30 → 16 files, 218.6 → 218.2 KB, cold LCP about 0.2 s sooner).
            // React (Preact, decision 263) and useQuery with what it is built on are in it too: two files fewer
            // beside the three loads index.html starts (decision 269), for one long-cached file less.
            {
              name: 'shell',
              test: /(node_modules[\\/](react|react-dom|scheduler|preact)[\\/]|src[\\/]preact[\\/]|node_modules[\\/]@tanstack[\\/]react-query[\\/]build[\\/]modern[\\/](useBaseQuery|useQuery|queryOptions)\.js$|src[\\/]app[\\/]shell[\\/](announcement-bars|toolbar-bar)\.tsx|src[\\/]ui[\\/](toast-store|page)\.tsx?$|contract[\\/]src[\\/](ownership|brand)\.ts$|src[\\/]config\.ts$|node_modules[\\/]@mui[\\/](material[\\/](esm[\\/])?(Alert|Link|Card|CardContent|internal[\\/]svg-icons[\\/]Close)[\\/.]|system[\\/]useThemeProps[\\/]getThemeProps|utils[\\/]isMuiElement[\\/]|icons-material[\\/]Logout\.))/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
  test: {
    setupFiles: ['./src/preact/test-setup.ts', './src/test-setup.ts'],
    alias: [
      {
        find: /^@testing-library\/react$/,
        replacement: path.join(
          root,
          '../../node_modules/@testing-library/react/dist/@testing-library/react.esm.js',
        ),
      },
    ],
    // Libraries that import React are transformed by Vitest, so the Preact aliases reach them (decision 263);
    // Testing Library through its ES module build, whose CommonJS one requires react-dom itself.
    server: {
      deps: {
        inline: [
          /[\\/]@mui[\\/]/,
          /[\\/]@emotion[\\/]/,
          /[\\/]@tanstack[\\/]react-query[\\/]/,
          /[\\/]@testing-library[\\/]react[\\/]/,
          /[\\/]wouter[\\/]/,
          /[\\/]react-hook-form[\\/]/,
          /[\\/]react-i18next[\\/]/,
          /[\\/]@sentry[\\/]react[\\/]/,
        ],
      },
    },
  },
});
