import { expect, it } from 'vitest';
import { describeApi } from '../test/api.ts';

interface Operation {
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, unknown>;
}

describeApi('the OpenAPI document', (api) => {
  const operation = async (path: string, method: string): Promise<Operation> => {
    const document = (await api.request('GET', '/api/openapi.json')).json();
    return document.paths[path][method];
  };
  const headers = (op: Operation) =>
    Object.fromEntries(
      (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => [p.name, p.required ?? false]),
    );

  it('lists per route the error statuses the edge can answer, beside the route own ones', async () => {
    const patchMe = await operation('/api/users/v1/me', 'patch');
    expect(Object.keys(patchMe.responses)).toEqual(['200', '400', '401', '403', '404', '413', '415', '422']);
    const getMe = await operation('/api/users/v1/me', 'get');
    expect(Object.keys(getMe.responses)).toEqual(['200', '400', '401', '422']);
    const create = await operation('/api/accounts/v1/accounts', 'post');
    expect(Object.keys(create.responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
    ]);
    const config = await operation('/api/config', 'get');
    expect(Object.keys(config.responses)).toEqual(['200', '400', '422']);
  });

  it('names the X-XSRF-TOKEN header on unsafe methods and Idempotency-Key where it is honoured', async () => {
    expect(headers(await operation('/api/users/v1/me', 'patch'))).toEqual({ 'x-xsrf-token': true });
    expect(headers(await operation('/api/users/v1/me', 'get'))).toEqual({});
    expect(headers(await operation('/api/accounts/v1/accounts', 'post'))).toEqual({
      'x-xsrf-token': true,
      'idempotency-key': false,
    });
    const document = (await api.request('GET', '/api/openapi.json')).json();
    expect(document.info.description).toContain('X-XSRF-TOKEN');
  });

  it('lets /api/docs "Try it out" send the XSRF header, from a script file (no inline script)', async () => {
    const script = await api.request('GET', '/api/docs/static/swagger-initializer.js');
    expect(script.statusCode).toBe(200);
    expect(script.body).toMatch(/"requestInterceptor":\s*function copyXsrfCookie\(request\)/);
    expect(script.body).toMatch(/request\.headers\[["']X-XSRF-TOKEN["']\]/);
    const page = await api.request('GET', '/api/docs/');
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
  });
});
