import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineRoute, usersRoutes } from '@portal/contract';
import {
  ApiError,
  apiFile,
  apiRequest,
  buildQuery,
  buildUrl,
  MISSING_ACCOUNT_MESSAGE,
  readCookie,
} from './client.ts';

const scoped = defineRoute({
  method: 'GET',
  path: '/inbox/v1/notifications/{id}',
  summary: 'test',
  tags: ['test'],
  accountScoped: true,
  response: {},
});

function mockFetch(status = 200, body: unknown = { data: {} }) {
  const fetchMock = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

describe('query parameters', () => {
  it('repeats the key for arrays on GET and DELETE', () => {
    expect(buildQuery('GET', { a: [1, 2], b: 'x' })).toBe('?a=1&a=2&b=x');
    expect(buildQuery('DELETE', { a: ['x', 'y'] })).toBe('?a=x&a=y');
  });

  it('uses the bracket form for arrays on other methods', () => {
    expect(buildQuery('POST', { a: [1, 2], b: 3 })).toBe('?a%5B%5D=1&a%5B%5D=2&b=3');
    expect(buildQuery('PATCH', { ids: ['u1'] })).toBe('?ids%5B%5D=u1');
    expect(buildQuery('PUT', { ids: [] })).toBe('');
  });

  it('leaves out null and undefined', () => {
    expect(buildQuery('GET', { a: null, b: undefined, c: [null, 1], d: false, e: 0 })).toBe(
      '?c=1&d=false&e=0',
    );
    expect(buildQuery('GET', undefined)).toBe('');
  });
});

describe('URLs', () => {
  beforeEach(() => sessionStorage.clear());

  it('puts /api in front and fills path parameters', () => {
    expect(buildUrl(usersRoutes.acceptInvitation, { params: { id: 'a b' } })).toBe(
      '/api/users/v1/me/accounts/a%20b/invitation/accept',
    );
  });

  it('prefixes account-scoped routes with the account the caller names', () => {
    expect(buildUrl(scoped, { accountUuid: 'acc-1', params: { id: 'n1' }, query: { tag: ['a', 'b'] } })).toBe(
      '/api/accounts/acc-1/inbox/v1/notifications/n1?tag=a&tag=b',
    );
  });

  it("takes the named account, never this tab's stored one", () => {
    sessionStorage.setItem('accountUuid', 'acc-1');
    expect(buildUrl(scoped, { params: { id: 'n1' }, accountUuid: 'acc-9' })).toBe(
      '/api/accounts/acc-9/inbox/v1/notifications/n1',
    );
  });

  it('refuses an account-scoped route without a named account, whatever the tab has stored', () => {
    sessionStorage.setItem('accountUuid', 'acc-1');
    localStorage.setItem('accountUuid', 'acc-2');
    const unnamed = { params: { id: 'n1' } } as { params: { id: string }; accountUuid: string };
    expect(() => buildUrl(scoped, unnamed)).toThrow(MISSING_ACCOUNT_MESSAGE);
    localStorage.clear();
  });

  it('throws "please provide a accountUuid" without an account, before any request', async () => {
    sessionStorage.setItem('accountUuid', 'acc-1');
    const fetchMock = mockFetch();
    const unnamed = { params: { id: 'n1' } } as { params: { id: string }; accountUuid: string };
    await expect(apiRequest(scoped, unnamed)).rejects.toThrow('please provide a accountUuid');
    await expect(apiFile(scoped, unnamed)).rejects.toThrow('please provide a accountUuid');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('requests', () => {
  beforeEach(() => {
    sessionStorage.clear();
    clearCookies();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the bearer token and echoes the XSRF cookie', async () => {
    sessionStorage.setItem('kc-token', 'tok');
    document.cookie = 'other=1';
    document.cookie = 'XSRF-TOKEN=abc%3D%3D';
    const fetchMock = mockFetch();
    await apiRequest(usersRoutes.updateMe, { body: { language: 'fr' } });
    const [url, init] = fetchMock.mock.calls[0]!;
    const headers = init!.headers as Headers;
    expect(url).toBe('/api/users/v1/me');
    expect(init!.method).toBe('PATCH');
    expect(headers.get('Authorization')).toBe('Bearer tok');
    expect(headers.get('X-XSRF-TOKEN')).toBe('abc==');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init!.body).toBe('{"language":"fr"}');
  });

  it('echoes the XSRF cookie on the methods that change something only', async () => {
    document.cookie = 'XSRF-TOKEN=abc';
    const fetchMock = mockFetch();
    await apiRequest(usersRoutes.getMe);
    await apiRequest(usersRoutes.updateMe, { body: { language: 'fr' } });
    expect(fetchMock.mock.calls.map(([, init]) => (init!.headers as Headers).get('X-XSRF-TOKEN'))).toEqual([
      null,
      'abc',
    ]);
  });

  it('sends no Authorization or XSRF header when there is neither token nor cookie', async () => {
    const fetchMock = mockFetch();
    await apiRequest(usersRoutes.getMe);
    const headers = fetchMock.mock.calls[0]![1]!.headers as Headers;
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.has('X-XSRF-TOKEN')).toBe(false);
    expect(headers.has('Content-Type')).toBe(false);
  });

  it('turns an error response into an ApiError with its message and field errors', async () => {
    mockFetch(422, {
      message: 'Ungültige Eingabe',
      code: 'VALIDATION',
      details: { fields: { language: 'x' } },
    });
    const error = await apiRequest(usersRoutes.updateMe, { body: { language: 'de' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      message: 'Ungültige Eingabe',
      code: 'VALIDATION',
      fields: { language: 'x' },
    });
  });

  it('falls back to the status when the error body is not JSON', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('oops', { status: 502, statusText: 'Bad Gateway' })),
    );
    await expect(apiRequest(usersRoutes.getMe)).rejects.toMatchObject({
      status: 502,
      message: '502 Bad Gateway',
    });
  });

  it('returns undefined for 204', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(apiRequest(usersRoutes.declineInvitation, { params: { id: 'x' } })).resolves.toBeUndefined();
  });
});

describe('cookies', () => {
  it('reads one cookie by name', () => {
    expect(readCookie('b', 'a=1; b=two%20words; c=3')).toBe('two words');
    expect(readCookie('XSRF-TOKEN', 'X=1')).toBeNull();
  });
});
