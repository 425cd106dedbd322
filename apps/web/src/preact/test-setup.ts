import { createRequire } from 'node:module';
import { options } from 'preact';
import * as react from 'react';
import * as client from 'react-dom/client';
import * as jsxRuntime from 'react/jsx-runtime';

// The page tests run on Preact as the build does (decision 263). Vite's aliases reach the modules Vitest transforms
// (the app and the libraries it inlines, vite.config.ts); a CommonJS library Node loads itself (react-i18next's
// `use-sync-external-store/shim`, react-transition-group …) requires `react` past them. Node's require cache gets
// the modules the aliases give, so there is one Preact, not Preact beside the real React.
const require = createRequire(import.meta.url);
const modules: [string, object][] = [
  ['react', react],
  ['react-dom', react],
  ['react-dom/client', client],
  ['react/jsx-runtime', jsxRuntime],
];
for (const [name, namespace] of modules) {
  const file = require.resolve(name);
  const exports = { ...(namespace as { default?: object }).default, ...namespace };
  require.cache[file] = { id: file, filename: file, loaded: true, exports } as NodeJS.Module;
}

// Preact runs effects after the next frame: a frame or 100 ms, whichever comes first, then it cancels the other
// (preact/hooks `afterNextFrame`). Vitest tears jsdom down when a file ends, and a timer still due then found no
// `cancelAnimationFrame` (an uncaught error that fails the run). The same schedule, with nothing left to do once the
// window is gone.
options.requestAnimationFrame = (flush) => {
  const timeout = setTimeout(run, 100);
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : 0;
  function run() {
    clearTimeout(timeout);
    if (typeof cancelAnimationFrame !== 'function') return;
    cancelAnimationFrame(frame);
    setTimeout(flush);
  }
};
