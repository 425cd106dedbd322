// One lint setup for every workspace. The local `portal/boundaries` rule keeps the layering: no web feature imports
// another feature, code below the app layer takes only `href` from app/ (links by route name), and the web app
// never imports server code.
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const webSrc = path.resolve('apps/web/src');
const featuresDir = path.join(webSrc, 'features');
const appDir = path.join(webSrc, 'app');
// The one module of app/ that the layers below it may import: link building from the route table.
const appHref = path.join(appDir, 'href.ts');
const inApp = (file) => file.startsWith(appDir + path.sep);
// main.tsx wires the app together; it is above every layer.
const entry = path.join(webSrc, 'main.tsx');
const serverDir = path.resolve('apps/server');

function resolveImport(fromFile, source) {
  if (source.startsWith('@/')) return path.join(webSrc, source.slice(2));
  if (source.startsWith('.')) return path.resolve(path.dirname(fromFile), source);
  return null;
}

function featureOf(file) {
  const rel = path.relative(featuresDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0];
}

const boundaries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      feature: '{{from}} must not import feature {{to}}',
      app: 'only app/href.ts may be imported from below the app layer',
      server: 'web code must not import server code',
    },
  },
  create(context) {
    const file = context.filename;
    if (!file.startsWith(webSrc)) return {};
    const own = featureOf(file);
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      if (source.startsWith('@portal/server')) return context.report({ node, messageId: 'server' });
      const target = resolveImport(file, source);
      if (!target) return;
      if (target.startsWith(serverDir)) return context.report({ node, messageId: 'server' });
      if (inApp(target) && target !== appHref && !inApp(file) && file !== entry && node.importKind !== 'type')
        return context.report({ node, messageId: 'app' });
      const other = featureOf(target);
      if (other && own && other !== own)
        context.report({ node, messageId: 'feature', data: { from: own, to: other } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/test-results/**', '**/playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { portal: { rules: { boundaries } } },
    rules: {
      'portal/boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // French texts put a no-break space before : ; ? ! and inside « », in strings and in text templates alike.
      'no-irregular-whitespace': ['error', { skipStrings: true, skipTemplates: true }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // One way to route: the app's router of '@/routing/navigation-view.tsx' (wouter on the navigation controller,
    // decisions 261 and 267), whose links and navigate settle once the next page shows and run the guard.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/routing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'wouter',
              message:
                "Import the router's parts from '@/routing/navigation-view.tsx': they navigate through the guard.",
            },
          ],
          patterns: [{ group: ['wouter/*'], message: "Use '@/routing/navigation-view.tsx' (decision 267)." }],
        },
      ],
    },
  },
);
