import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../db/demo-users.ts';
import { describeApi } from '../test/api.ts';
import { checkRequestText, hasForbiddenCharacters, INVALID_CHARACTERS } from './text.ts';

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
