// What `react` and `react-dom` resolve to (vite.config.ts, decision 263): Preact's compat layer, with `autoFocus`
// working as in ReactDOM. JavaScript, not TypeScript: compat's types are `export =`, which `export *` cannot take.
import './auto-focus.ts';

export * from 'preact/compat';
export { default } from 'preact/compat';
