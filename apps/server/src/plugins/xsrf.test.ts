// The XSRF check follows the route the router matched, not the URL's text: spellings of an API path that the router
// decodes or folds to the same route are checked like the plain one, and the others find no route at all.
import { expect, it } from 'vitest';
import { fullPath, type RouteDef } from '@portal/contract';
import { allApiRoutes } from '@portal/contract/all-routes';
import { DEMO_ACCOUNTS } from '../demo/users.ts';
import { describeApi } from '../test/api.ts';

// A native app's routes carry no cookie and are exempt (their own tests call them without the header).
const UNSAFE = Object.entries(allApiRoutes as Record<string, RouteDef>).filter(
  ([, def]) => def.method !== 'GET' && !def.appRoute,
);

/** The route's path with every parameter filled by a demo account's id. */
const pathOf = (def: RouteDef) => fullPath(def).replace(/\{\w+\}/g, DEMO_ACCOUNTS.muster);

/** Spellings of `/api<path>` an attacker might try to slip past a check on the URL's text. */
const variants = (path: string) => [
  `/%61pi${path}`,
  `/%2561pi${path}`,
  `/api${path.replace(/^\/(\w)/, (_, c: string) => `/%${c.charCodeAt(0).toString(16)}`)}`,
  `//api${path}`,
  `/api/${path}`,
  `/api${path.replace(/\//g, '//')}`,
  `/API${path}`,
  `/Api${path.toUpperCase()}`,
  `/api${path}/`,
  `/./api${path}`,
  `/api/./${path.slice(1)}`,
  `/x/../api${path}`,
];

describeApi('the XSRF check follows the matched route', (api) => {
  it('covers every unsafe route in the contract', () => {
    expect(UNSAFE.length).toBeGreaterThan(0);
  });

  it('gives every new cookie a token of its own, also past a draw of the token buffer (decision 254)', async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const response = await api.app.inject({ method: 'GET', url: '/healthz' });
      const token = /^XSRF-TOKEN=([\w-]+);/.exec(String(response.headers['set-cookie']))?.[1];
      expect(token).toMatch(/^[\w-]{32}$/);
      tokens.add(token!);
    }
    expect(tokens.size).toBe(300);
  });

  for (const [name, def] of UNSAFE) {
    it(`${name}: no spelling of ${def.method} ${fullPath(def)} passes without the header`, async () => {
      for (const url of [`/api${pathOf(def)}`, ...variants(pathOf(def))]) {
        const response = await api.request(def.method, url, { as: 'owner', body: {}, xsrf: false });
        expect([403, 404], `${def.method} ${url}: ${response.statusCode} ${response.body}`).toContain(
          response.statusCode,
        );
      }
    });
  }
});
