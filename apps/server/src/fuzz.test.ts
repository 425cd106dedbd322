// Hostile text at every text field the server accepts: the body, path and query fields of every contract route, the
// fields of every sign-in form and those a client sends the provider's endpoints; extreme numbers and dates in every
// query, deeply nested JSON as every body. Whatever arrives, the answer is never a 5xx. `npm test` runs a few cases per
// field; FUZZ_RUNS raises the count (`npm run fuzz`).
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { fullPath, type RouteDef } from '@portal/contract';
import { allApiRoutes } from '@portal/contract/all-routes';
import { DEMO_ACCOUNTS } from './demo/users.ts';
import * as idp from './test/idp.ts';
import { describeApi } from './test/api.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const TIMEOUT = 30_000 + RUNS * 500;

/** Text as people and attackers type it: any code point or code unit, NUL and lone surrogates most of all. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({
    unit: fc.constantFrom('\u0000', '\ud800', '\udfff', '\u001b', 'e', '\u0301', ' ', '😀'),
    maxLength: 12,
  }),
  fc.constantFrom('a\u0000b', '\ud800', 'x\udc00', '\u0000', ' ', 'x'.repeat(5000), '😀'.repeat(200)),
);

/** Any bytes, percent-encoded: invalid UTF-8 and encoded surrogates included, as a URL or form may carry them. */
const percentBytes = (bytes: Uint8Array) =>
  [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const encodeText = (text: string) => percentBytes(Buffer.from(text, 'utf8'));
const hostileEncoded = fc.oneof(
  hostileText.map(encodeText),
  fc.uint8Array({ maxLength: 30 }).map(percentBytes),
);

/** Query values at the edges of numbers and dates: beyond any maximum, not finite, not decimal, before year 1. */
const extremeValue = fc.constantFrom(
  '1e999',
  '-1e999',
  '99999999999999999999',
  'Infinity',
  'NaN',
  '0x10',
  '0000-01-01T00:00:00Z',
  '99999-12-31T00:00:00Z',
);

/** JSON nested far deeper than any body: objects or arrays, 100 to 20,000 levels. */
const deepJson = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([depth, objects]) =>
    objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`,
  );

interface SchemaNode {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
}

/** A valid value for a schema node, enough to let the fuzzed field reach the handler. */
function sample(node: SchemaNode): unknown {
  if (node.enum) return node.enum[0];
  if ('const' in node) return node.const;
  if (node.type === 'null') return null;
  if (node.type === 'boolean') return true;
  if (node.pattern === '^[A-Z]{2}$') return 'CH';
  return 'Fuzz';
}

const isText = (node: SchemaNode) =>
  node.type === 'string' || (node.enum?.every((v) => typeof v === 'string') ?? false);

const routes = Object.entries(allApiRoutes as Record<string, RouteDef>);
const checkAnswer = (label: string, response: { statusCode: number; body: string }) =>
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);

describeApi('hostile text at every API field', (api) => {
  const validParams = (def: RouteDef) =>
    Object.fromEntries(
      Object.keys((def.params as SchemaNode | undefined)?.properties ?? {}).map((name) => [
        name,
        DEMO_ACCOUNTS.muster,
      ]),
    );
  const url = (def: RouteDef, params: Record<string, string>, query = '') =>
    `/api${fullPath(def).replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? DEMO_ACCOUNTS.muster)}${query}`;

  for (const [name, def] of routes) {
    const body = def.body as SchemaNode | undefined;
    const required = body?.required ?? [];
    const base = Object.fromEntries(required.map((field) => [field, sample(body!.properties![field]!)]));
    for (const [field] of Object.entries(body?.properties ?? {}).filter(([, node]) => isText(node))) {
      it(`${name}: body field ${field}`, { timeout: TIMEOUT }, async () => {
        await fc.assert(
          fc.asyncProperty(hostileText, async (text) => {
            const answer = await api.request(def.method, url(def, validParams(def)), {
              as: 'owner',
              body: { ...base, [field]: text },
            });
            checkAnswer(`${name} ${field}=${JSON.stringify(text)}`, answer);
          }),
          { numRuns: RUNS },
        );
      });
    }
    if (def.body || def.method !== 'GET') {
      it(`${name}: deeply nested JSON`, { timeout: TIMEOUT }, async () => {
        await fc.assert(
          fc.asyncProperty(deepJson, async (json) => {
            const answer = await api.request(def.method, url(def, validParams(def)), {
              as: 'owner',
              body: json,
              headers: { 'content-type': 'application/json' },
            });
            checkAnswer(`${name} nested body of ${json.length} characters`, answer);
          }),
          { numRuns: Math.min(RUNS, 3) },
        );
      });
      it(`${name}: raw body bytes`, { timeout: TIMEOUT }, async () => {
        await fc.assert(
          fc.asyncProperty(fc.uint8Array({ maxLength: 60 }), async (bytes) => {
            const answer = await api.request(def.method, url(def, validParams(def)), {
              as: 'owner',
              body: Buffer.from(bytes),
              headers: { 'content-type': 'application/json' },
            });
            checkAnswer(`${name} body ${Buffer.from(bytes).toString('hex')}`, answer);
          }),
          { numRuns: RUNS },
        );
      });
    }
    for (const param of Object.keys((def.params as SchemaNode | undefined)?.properties ?? {})) {
      it(`${name}: path parameter ${param}`, { timeout: TIMEOUT }, async () => {
        await fc.assert(
          fc.asyncProperty(hostileEncoded, async (encoded) => {
            const answer = await api.request(
              def.method,
              url(def, { ...validParams(def), [param]: encoded }),
              {
                as: 'owner',
              },
            );
            checkAnswer(`${name} ${param}=${encoded}`, answer);
          }),
          { numRuns: RUNS },
        );
      });
    }
    it(`${name}: query string`, { timeout: TIMEOUT }, async () => {
      const known = Object.keys((def.querystring as SchemaNode | undefined)?.properties ?? {});
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('q', 'x[]', ...known),
          fc.oneof(hostileEncoded, extremeValue.map(encodeURIComponent)),
          async (key, encoded) => {
            const answer = await api.request(def.method, url(def, validParams(def), `?${key}=${encoded}`), {
              as: 'owner',
            });
            checkAnswer(`${name} ?${key}=${encoded}`, answer);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }
});

/** The sign-in forms and their fields; a valid value for each, so that one hostile field reaches the handler. */
const FORMS: { page: string; fields: Record<string, string> }[] = [
  { page: '/login', fields: { username: 'owner@example.com', password: 'a-long-password' } },
  {
    page: '/register',
    fields: {
      firstName: 'Fuzz',
      lastName: 'Tester',
      email: 'fuzz@example.com',
      password: 'a-long-password',
      'password-confirm': 'a-long-password',
    },
  },
  { page: '/forgot', fields: { username: 'owner@example.com' } },
  {
    page: '/reset',
    fields: { key: 'no-such-key', password: 'a-long-password', 'password-confirm': 'a-long-password' },
  },
];

/** The provider's endpoints and the fields a client sends them (query for GET, form body for POST). */
const ENDPOINTS: { method: 'GET' | 'POST'; path: string; fields: string[] }[] = [
  {
    method: 'GET',
    path: '/protocol/openid-connect/auth',
    fields: ['state', 'nonce', 'login_hint', 'ui_locales', 'kc_locale', 'scope', 'client_id', 'prompt'],
  },
  { method: 'POST', path: '/protocol/openid-connect/token', fields: ['refresh_token', 'code', 'client_id'] },
  { method: 'POST', path: '/protocol/openid-connect/logout', fields: ['refresh_token', 'client_id'] },
];

idp.describeIdp('hostile text at every sign-in form', (ctx) => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.method} ${endpoint.path}: every field`, { timeout: TIMEOUT }, async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...endpoint.fields), hostileEncoded, async (name, encoded) => {
          const grant = endpoint.path.endsWith('/token') ? '&grant_type=refresh_token' : '';
          const base = `client_id=portal${grant}`;
          const params = `${base.replace(new RegExp(`${name}=[^&]*`), '')}&${name}=${encoded}`;
          const url =
            endpoint.method === 'GET'
              ? `${idp.authorizeUrl(ctx.idp, { [name]: undefined })}&${name}=${encoded}`
              : `${ctx.idp.base}/realms/portal${endpoint.path}`;
          // A GET is followed through the provider's redirects (its interaction pages store what it was sent).
          const jar = new idp.CookieJar();
          const answer =
            endpoint.method === 'GET'
              ? await idp.follow(ctx.idp, await idp.request(url, jar), jar)
              : await fetch(url, {
                  method: 'POST',
                  headers: { 'content-type': 'application/x-www-form-urlencoded', connection: 'close' },
                  body: params,
                });
          const text = await answer.text();
          expect(answer.status, `${endpoint.path} ${name}=${encoded}: ${text.slice(0, 300)}`).toBeLessThan(
            500,
          );
        }),
        { numRuns: RUNS },
      );
    });
  }

  let run = 0;
  for (const form of FORMS) {
    it(`${form.page}: every field`, { timeout: TIMEOUT }, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...Object.keys(form.fields)),
          hostileEncoded,
          async (name, encoded) => {
            const jar = new idp.CookieJar();
            const login = new URL(
              idp.formAction(await idp.openLoginPage(ctx.idp, jar), 'kc-form-login'),
              ctx.idp.base,
            );
            const action = login.href.replace(/\/login(\?|$)/, `${form.page}$1`);
            // A unique address per run, so that a registration gets as far as storing the names.
            const values = { ...form.fields, email: `fuzz-${(run += 1)}@example.com` };
            const body = Object.entries(values)
              .filter(([key]) => key in form.fields)
              .map(
                ([key, value]) =>
                  `${encodeURIComponent(key)}=${key === name ? encoded : encodeURIComponent(value)}`,
              )
              .join('&');
            const answer = await fetch(action, {
              method: 'POST',
              headers: {
                cookie: jar.header(),
                'content-type': 'application/x-www-form-urlencoded',
                connection: 'close',
              },
              body,
              redirect: 'manual',
            });
            const text = await answer.text();
            expect(answer.status, `${form.page} ${name}=${encoded}: ${text.slice(0, 300)}`).toBeLessThan(500);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }
});
