import { Readable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { fullPath, type RouteDef } from '@portal/contract';
import { allApiRoutes } from '@portal/contract/all-routes';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../demo/users.ts';
import { invalidField } from './errors.ts';
import { describeApi } from '../test/api.ts';
import {
  checkRequestText,
  containsForbiddenText,
  DIRECTION_CHARACTERS,
  hasForbiddenCharacters,
  INVALID_CHARACTERS,
} from './text.ts';

describe('the text rule', () => {
  it('refuses control characters but tab, line feed and carriage return, and unpaired surrogates', () => {
    for (const bad of [
      'a\u0000b',
      '\u0001',
      '\u001b[31m',
      '\u007f',
      '\u0085',
      'x\ud800',
      '\udc00y',
      '\ud800\ud800',
    ]) {
      expect(hasForbiddenCharacters(bad), JSON.stringify(bad)).toBe(true);
    }
    for (const good of ['Müller AG', 'a\tb\nc\r\n', '😀 emoji', '\ud83d\ude00', '', '中文', 'e\u0301']) {
      expect(hasForbiddenCharacters(good), JSON.stringify(good)).toBe(false);
    }
  });

  it('normalises accepted text to NFC everywhere in a request, keys included', () => {
    const request = { body: { name: 'Cafe\u0301', tags: ['A\u030a'] }, query: { q: 'n\u0303' }, params: {} };
    checkRequestText(request);
    expect(request).toEqual({ body: { name: 'Café', tags: ['Å'] }, query: { q: 'ñ' }, params: {} });
  });

  it('names each refused field: 422 in body and query, 400 in the path', () => {
    const input = { body: { name: 'a\u0000', address: { city: '\ud800' } }, query: { q: 'ok' }, params: {} };
    expect(() => checkRequestText(input)).toThrow(
      expect.objectContaining({
        statusCode: 422,
        code: 'VALIDATION_FAILED',
        fields: { name: INVALID_CHARACTERS, 'address.city': INVALID_CHARACTERS },
      }),
    );
    expect(() => checkRequestText({ params: { id: '\u0000' } })).toThrow(
      expect.objectContaining({ statusCode: 400, code: 'BAD_REQUEST', fields: { id: INVALID_CHARACTERS } }),
    );
  });
});

describe('the text rule on text direction (bidirectional controls)', () => {
  it('refuses embeddings, overrides and isolates everywhere', () => {
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      const bad = `Bahnhof${String.fromCodePoint(code)}strasse`;
      expect(hasForbiddenCharacters(bad), code.toString(16)).toBe(true);
      expect(hasForbiddenCharacters(`שלום ${String.fromCodePoint(code)}`), code.toString(16)).toBe(true);
    }
  });

  it('refuses direction marks (LRM, RLM, ALM) in text without right-to-left letters, where none is needed', () => {
    for (const mark of ['\u200e', '\u200f', '\u061c']) {
      expect(hasForbiddenCharacters(`Müller${mark} AG`), JSON.stringify(mark)).toBe(true);
      expect(hasForbiddenCharacters(`דוד כהן${mark} 12`), JSON.stringify(mark)).toBe(false);
      expect(hasForbiddenCharacters(`شركة${mark} 5`), JSON.stringify(mark)).toBe(false);
    }
  });

  it('names the field with its own reason, in body and query', () => {
    const request = {
      body: { address: { street: 'Seestrasse\u202e5' } },
      query: { q: 'x\u2066' },
      params: {},
    };
    expect(() => checkRequestText(request)).toThrow(
      expect.objectContaining({
        statusCode: 422,
        fields: { 'address.street': DIRECTION_CHARACTERS, q: DIRECTION_CHARACTERS },
      }),
    );
  });

  it('walks any depth without recursion (the provider endpoints parse JSON themselves)', () => {
    let deep: unknown = 'a\u202e';
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(containsForbiddenText(deep)).toBe(true);
    const request = { body: deep, query: {}, params: {} };
    expect(() => checkRequestText(request)).toThrow(expect.objectContaining({ statusCode: 422 }));
  });
});

const ME = '/api/users/v1/me';
const ACCOUNTS = '/api/accounts/v1/accounts';
const JSON_TYPE = { 'content-type': 'application/json' };
const validAccount = { name: 'Edge AG', country: 'CH', preferredLanguage: 'de' };

interface Case {
  what: string;
  method: InjectOptions['method'];
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  as?: 'owner' | null;
  xsrf?: boolean;
  status: number;
  code: string;
  fields?: Record<string, string>;
}

/** Each malformed request the edge can meet, and the answer it must give (status, the project's code). */
const CASES: Case[] = [
  {
    what: 'an empty JSON body',
    method: 'PATCH',
    url: ME,
    body: '',
    headers: JSON_TYPE,
    status: 400,
    code: 'MALFORMED_JSON',
  },
  {
    what: 'a blank JSON body',
    method: 'PATCH',
    url: ME,
    body: '  ',
    headers: JSON_TYPE,
    status: 400,
    code: 'MALFORMED_JSON',
  },
  {
    what: 'malformed JSON',
    method: 'PATCH',
    url: ME,
    body: '{"name":',
    headers: JSON_TYPE,
    status: 400,
    code: 'MALFORMED_JSON',
  },
  {
    what: 'a body that is not JSON',
    method: 'PATCH',
    url: ME,
    body: 'name=x',
    headers: { 'content-type': 'text/plain' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    what: 'a body above the limit',
    method: 'POST',
    url: ACCOUNTS,
    body: JSON.stringify({ ...validAccount, name: 'x'.repeat(1_100_000) }),
    headers: JSON_TYPE,
    status: 413,
    code: 'BODY_TOO_LARGE',
  },
  {
    what: 'a __proto__ key',
    method: 'PATCH',
    url: ME,
    body: '{"__proto__": {"admin": true}, "name": "x"}',
    headers: JSON_TYPE,
    status: 422,
    code: 'VALIDATION_FAILED',
    fields: { ['__proto__']: 'is not allowed' },
  },
  {
    what: 'a nested constructor.prototype key',
    method: 'POST',
    url: ACCOUNTS,
    body: '{"name": "x", "extra": {"constructor": {"prototype": {}}}}',
    headers: JSON_TYPE,
    status: 422,
    code: 'VALIDATION_FAILED',
    fields: { 'extra.constructor': 'is not allowed' },
  },
  {
    what: 'a number for a text (PATCH me)',
    method: 'PATCH',
    url: ME,
    body: { name: 123 },
    status: 422,
    code: 'VALIDATION_FAILED',
    fields: { name: 'must be string' },
  },
  {
    what: 'a number for a text (POST accounts)',
    method: 'POST',
    url: ACCOUNTS,
    body: { ...validAccount, name: 42 },
    status: 422,
    code: 'VALIDATION_FAILED',
    fields: { name: 'must be string' },
  },
  {
    what: 'a string for a boolean',
    method: 'PATCH',
    url: `${ACCOUNTS}/${DEMO_ACCOUNTS.muster}`,
    body: { acceptedAgb: 'true' },
    status: 422,
    code: 'VALIDATION_FAILED',
  },
  {
    what: 'NUL in a body text',
    method: 'POST',
    url: ACCOUNTS,
    body: { ...validAccount, name: 'a\u0000b' },
    status: 422,
    code: 'VALIDATION_FAILED',
    fields: { name: INVALID_CHARACTERS },
  },
  {
    what: 'an unpaired surrogate in a body text',
    method: 'PATCH',
    url: ME,
    body: '{"name": "x\\ud800"}',
    headers: JSON_TYPE,
    status: 422,
    code: 'VALIDATION_FAILED',
    fields: { name: INVALID_CHARACTERS },
  },
  {
    what: 'NUL in a query string',
    method: 'GET',
    url: `${ME}?q=%00`,
    status: 422,
    code: 'VALIDATION_FAILED',
    fields: { q: INVALID_CHARACTERS },
  },
  {
    what: 'NUL in a path parameter',
    method: 'GET',
    url: `${ACCOUNTS}/%00`,
    status: 400,
    code: 'BAD_REQUEST',
    fields: { id: INVALID_CHARACTERS },
  },
  {
    what: 'a malformed uuid in the path',
    method: 'GET',
    url: `${ACCOUNTS}/not-a-uuid`,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    what: 'an id of 5,000 characters',
    method: 'GET',
    url: `${ACCOUNTS}/${'a'.repeat(5000)}`,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    what: 'a malformed percent-encoding',
    method: 'GET',
    url: `${ACCOUNTS}/%E0%A4%A`,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    what: 'an unknown API route',
    method: 'GET',
    url: '/api/nothing/v1/here',
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    what: 'an unknown API route of 5,000 characters',
    method: 'GET',
    url: `/api/${'a'.repeat(5000)}`,
    status: 404,
    code: 'NOT_FOUND',
  },
  { what: 'no token', method: 'GET', url: ME, as: null, status: 401, code: 'UNAUTHORIZED' },
  {
    what: 'no XSRF header',
    method: 'PATCH',
    url: ME,
    body: { name: 'x' },
    xsrf: false,
    status: 403,
    code: 'XSRF_FAILED',
  },
];

describeApi('the edge answers malformed requests in the one error shape', (api) => {
  it.each(CASES)('$what → $status $code', async (c) => {
    const response = await api.request(c.method, c.url, {
      as: c.as === null ? undefined : (c.as ?? 'owner'),
      body: c.body,
      headers: c.headers,
      xsrf: c.xsrf,
    });
    expect(response.statusCode).toBe(c.status);
    const body = response.json();
    expect(Object.keys(body).every((key) => ['message', 'code', 'details'].includes(key))).toBe(true);
    expect(body.message).toEqual(expect.any(String));
    expect(body.code).toBe(c.code);
    if (c.fields) expect(body.details.fields).toEqual(c.fields);
  });

  it('stores nothing that was refused', async () => {
    const count = async () =>
      (await api.db.query<{ n: number }>('select count(*)::int as n from accounts')).rows[0]!.n;
    const before = await count();
    for (const name of [42, 'a\u0000b', '\ud800']) {
      const created = await api.request('POST', ACCOUNTS, { as: 'owner', body: { ...validAccount, name } });
      expect(created.statusCode).toBe(422);
    }
    expect(await count()).toBe(before);
    for (const name of [123, 'a\u0000b']) {
      expect((await api.request('PATCH', ME, { as: 'owner', body: { name } })).statusCode).toBe(422);
    }
    expect((await api.request('GET', ME, { as: 'owner' })).json().data.name).toBe(DEMO_USERS.owner.name);
  });

  it('stores text in NFC and counts its length after normalising', async () => {
    const decomposed = 'Ame\u0301lie '.repeat(17).trim(); // 118 characters in NFC, 135 as sent
    const saved = await api.request('PATCH', ME, { as: 'owner', body: { name: decomposed } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.name).toBe(decomposed.normalize('NFC'));
  });
});

/** `depth` objects nested in each other, as a JSON text: `{"a":{"a":…1…}}`. */
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** `depth` arrays nested in each other: `[[[…]]]`. */
const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describeApi('deeply nested JSON is refused at the edge, on every route, signed in or not', (api) => {
  const PAIRING = '/api/abaclik/v1/app/pairings';
  it.each([
    ['5,000 nested objects to the AbaClik pairing (no sign-in)', PAIRING, nestedObjects(5000), undefined],
    ['100,000 nested arrays to the AbaClik pairing (no sign-in)', PAIRING, nestedArrays(100_000), undefined],
    ['5,000 nested objects as a field of a signed-in PATCH', ME, `{"name":${nestedObjects(5000)}}`, 'owner'],
    ['65 nested objects (just past the limit)', PAIRING, nestedObjects(65), undefined],
  ] as const)('%s → 400', async (_what, url, body, as) => {
    const response = await api.request(url === ME ? 'PATCH' : 'POST', url, {
      as,
      body,
      headers: JSON_TYPE,
    });
    expect(response.statusCode, response.body.slice(0, 200)).toBe(400);
    expect(response.json()).toMatchObject({ code: 'JSON_TOO_DEEP', message: expect.any(String) });
  });

  it('a body nested within the limit reaches the schema (422, not 400)', async () => {
    const response = await api.request('PATCH', ME, {
      as: 'owner',
      body: `{"name":${nestedObjects(40)}}`,
      headers: JSON_TYPE,
    });
    expect(response.statusCode).toBe(422);
  });

  it('50 such requests log no stack trace and every one is refused', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        api.request('POST', PAIRING, { body: nestedObjects(5000), headers: JSON_TYPE }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(400));
  });
});

interface QueryNode {
  type?: string;
  format?: string;
}

/** Every listing the contract has, with its number and date-time query values. */
const QUERY_ROUTES = Object.entries(allApiRoutes as Record<string, RouteDef>)
  .filter(([, def]) => def.method === 'GET' && def.querystring && !/\{(?!accountUuid)/.test(fullPath(def)))
  .map(([name, def]) => {
    const properties = Object.entries(
      (def.querystring as { properties: Record<string, QueryNode> }).properties,
    );
    return {
      name,
      url: `/api${fullPath(def).replace('{accountUuid}', DEMO_ACCOUNTS.muster)}`,
      // Staff routes as a SUPPORT_MANAGER, account routes as the owner: both pass the role checks.
      as: def.accountScoped ? ('owner' as const) : ('billing' as const),
      numbers: properties
        .filter(([, node]) => node.type === 'integer' || node.type === 'number')
        .map(([k]) => k),
      dates: properties.filter(([, node]) => node.format === 'date-time').map(([k]) => k),
    };
  });

const EXTREME_NUMBERS = ['1e999', '-1e999', '99999999999999999999', '1e308', 'NaN', 'Infinity', '0x10'];
const EXTREME_DATES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '99999-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
];

describeApi('extreme query values are refused at the edge (422), never reach SQL', (api) => {
  it('covers the listings the review named', () => {
    const names = QUERY_ROUTES.map((r) => r.name);
    for (const name of [
      'listMembers',
      'listNotifications',
      'listTickets',
      'agentQueue',
      'listInvoices',
      'listPaymentImports',
      'listPayments',
      'listAbaclikDevices',
      'listLogs',
      'exportLogs',
    ]) {
      expect(names).toContain(name);
    }
  });

  const cases = QUERY_ROUTES.flatMap((r) => [
    ...r.numbers.flatMap((key) => EXTREME_NUMBERS.map((value) => ({ ...r, key, value }))),
    ...r.dates.flatMap((key) => EXTREME_DATES.map((value) => ({ ...r, key, value }))),
  ]);
  it.each(cases)('$name ?$key=$value → 422', async ({ url, as, key, value }) => {
    const response = await api.request('GET', `${url}?${key}=${encodeURIComponent(value)}`, {
      as,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(422);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-disposition']).toBeUndefined();
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { [key]: expect.any(String) } },
    });
  });

  it('the CSV export still streams gzip with its attachment headers for a valid range', async () => {
    const response = await api.request(
      'GET',
      `/api/accounts/${DEMO_ACCOUNTS.muster}/logs/v1/entries.csv?from=2020-01-01T00:00:00Z`,
      { as: 'owner', headers: { 'accept-encoding': 'gzip' } },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-disposition']).toMatch(/^attachment;/);
  });
});

describeApi('text-direction controls are refused in names, addresses and subjects', (api) => {
  const DETAILS = `/api/accounts/${DEMO_ACCOUNTS.muster}/billing/v1/details`;
  it('U+202E in the billing street → 422 directionCharacters, nothing stored', async () => {
    const before = (await api.request('GET', DETAILS, { as: 'admin' })).json().data;
    const refused = await api.request('PUT', DETAILS, {
      as: 'admin',
      body: {
        address: {
          street: 'Seestrasse\u202e',
          buildingNumber: '5a',
          postcode: '8002',
          city: 'Zürich',
          country: 'CH',
        },
        vatNumber: null,
        recipients: ['rechnungen@example.com'],
        purchaseOrder: null,
        paymentMethod: 'INVOICE',
      },
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().details.fields).toEqual({ 'address.street': DIRECTION_CHARACTERS });
    expect((await api.request('GET', DETAILS, { as: 'admin' })).json().data).toEqual(before);
  });

  it('an isolate in a name and an override in a ticket subject are refused', async () => {
    const name = await api.request('PATCH', ME, { as: 'owner', body: { name: 'Olivia \u2067Owner' } });
    expect(name.statusCode).toBe(422);
    expect(name.json().details.fields).toEqual({ name: DIRECTION_CHARACTERS });
    const ticket = await api.request('POST', `/api/accounts/${DEMO_ACCOUNTS.muster}/support/v1/tickets`, {
      as: 'owner',
      body: {
        subject: 'Rechnung \u202egdp.exe',
        description: 'Hallo',
        category: 'BILLING',
        severity: 'LOW',
        staffAccessConsent: false,
        attachments: [],
      },
    });
    expect(ticket.statusCode).toBe(422);
    expect(ticket.json().details.fields).toEqual({ subject: DIRECTION_CHARACTERS });
  });
});

describeApi(
  "an error on a streamed answer leaves without the stream's headers",
  (api) => {
    it('a download whose stream fails before its first byte answers JSON, not gzip or an attachment', async () => {
      const response = await api.request('GET', '/api/test/broken-download', {
        as: 'owner',
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: { from: 'range' } },
      });
    });
  },
  {
    prepare: (app) =>
      app.get('/api/test/broken-download', (_request, reply) => {
        reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', 'attachment; filename="log.csv"')
          .header('Cache-Control', 'no-store');
        const failing = new Readable({
          read() {
            this.destroy(invalidField('from', 'range'));
          },
        });
        return reply.send(failing);
      }),
  },
);
