// Who may call what: every endpoint of the OpenAPI document, called by each kind of caller, against one table of
// expected answers. The table is written by hand from the product's role rules (not read from the contract), so a
// route whose rule drifts fails here; a route without a row fails too, so every new endpoint is decided on.
// A caller who may not see the account gets the same 404 as for an account that does not exist.
import { expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_USERS } from './db/demo-users.ts';
import { describeApi, type DemoLogin, type TestApi } from './test/api.ts';

/** The callers: each a demo login, except anonymous. */
const CALLERS = ['anonymous', 'employee', 'admin', 'coach', 'owner', 'otherAccount', 'staff'] as const;
type Caller = (typeof CALLERS)[number];
const LOGIN: Record<Exclude<Caller, 'anonymous'>, DemoLogin> = {
  employee: 'employee', // EMPLOYEE of Muster AG
  admin: 'admin', // ADMIN of Muster AG
  coach: 'coach', // DC of Muster AG
  owner: 'owner', // OWNER of Muster AG
  otherAccount: 'newowner', // OWNER of Neu Sàrl only, no member of Muster AG
  staff: 'agent', // SUPPORT_AGENT: acts on any account as SUPPORT
};

/** `ok`: passes the access rules (the handler answers, 2xx or a rule of its own such as 409 or 422). */
type Expected = 'ok' | 401 | 403 | 404;
type Expectations = Record<Caller, Expected>;

const MUSTER: string = DEMO_ACCOUNTS.muster;
const UNKNOWN_ACCOUNT = '6f1c2b1e-0002-4000-8000-0000000000ff';

/** Public: no sign-in needed. */
const open: Expectations = {
  anonymous: 'ok',
  employee: 'ok',
  admin: 'ok',
  coach: 'ok',
  owner: 'ok',
  otherAccount: 'ok',
  staff: 'ok',
};
/** Anyone signed in, about themselves. */
const signedIn: Expectations = { ...open, anonymous: 401 };
/** Members of the account at `role` or above (EMPLOYEE < ADMIN < DC < OWNER < SUPPORT); others never see it. */
function atLeast(role: 'EMPLOYEE' | 'ADMIN' | 'OWNER'): Expectations {
  const level = { EMPLOYEE: 0, ADMIN: 1, OWNER: 3 }[role];
  const allow = (callerLevel: number): Expected => (callerLevel >= level ? 'ok' : 403);
  return {
    anonymous: 401,
    employee: allow(0),
    admin: allow(1),
    coach: allow(2),
    owner: allow(3),
    otherAccount: 404,
    staff: 'ok',
  };
}
/** About the caller's own invitation to the account: members answer from the handler, everyone else 404. */
const ownInvitation: Expectations = { ...atLeast('EMPLOYEE'), staff: 404 };
/** The owner only (staff, acting as SUPPORT, too are refused). */
const ownerOnly: Expectations = { ...atLeast('OWNER'), staff: 403 };

interface Row {
  expect: Expectations;
  /** Path parameters; `{accountUuid}` and `{id}` default to Muster AG. */
  params?: Record<string, string>;
  /** A body the schema accepts, so the access rules decide. */
  body?: unknown;
}

/**
 * One row per endpoint of the OpenAPI document. Rows run in this order and may change data (a caller allowed to
 * change something does change it), so the ones that end something come last.
 */
const MATRIX: Record<string, Row> = {
  'GET /api/config': { expect: open },
  'GET /api/users/v1/me': { expect: signedIn },
  'PATCH /api/users/v1/me': { expect: signedIn, body: {} },
  'GET /api/users/v1/me/accounts': { expect: signedIn },
  // About one's own invitation: who has none to Muster AG (staff included) hears "no such invitation", a 404.
  'POST /api/users/v1/me/accounts/{id}/invitation/accept': { expect: ownInvitation },
  'POST /api/users/v1/me/accounts/{id}/invitation/decline': { expect: ownInvitation },
  'POST /api/accounts/v1/accounts': { expect: signedIn, body: { name: 'Matrix GmbH', country: 'CH' } },
  'GET /api/accounts/v1/accounts/{id}': { expect: atLeast('EMPLOYEE') },
  // Name, country and language need ADMIN (the handler decides per field; other fields are tested in the area).
  'PATCH /api/accounts/v1/accounts/{id}': { expect: atLeast('ADMIN'), body: { preferredLanguage: 'de' } },
  'POST /api/accounts/v1/accounts/{accountUuid}/migration/begin': { expect: ownerOnly },
  // The log: every member reads it (lower roles see only their own entries; the handler filters).
  'GET /api/accounts/{accountUuid}/logs/v1/entries': { expect: atLeast('EMPLOYEE') },
  'GET /api/accounts/{accountUuid}/logs/v1/actors': { expect: atLeast('EMPLOYEE') },
  'GET /api/accounts/{accountUuid}/logs/v1/entries.csv': { expect: atLeast('EMPLOYEE') },
  'DELETE /api/accounts/v1/accounts/{id}': { expect: ownerOnly },
};

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

async function endpoints(api: TestApi): Promise<string[]> {
  const document = (await api.request('GET', '/api/openapi.json')).json<OpenApiDocument>();
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => METHODS.includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

function urlOf(path: string, params: Record<string, string> = {}, account = MUSTER): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? account);
}

async function call(api: TestApi, endpoint: string, row: Row, caller: Caller, account = MUSTER) {
  const [method, path] = endpoint.split(' ') as [string, string];
  return api.request(method as 'GET', urlOf(path, row.params, account), {
    ...(caller === 'anonymous' ? {} : { as: LOGIN[caller] }),
    ...(row.body === undefined ? {} : { body: row.body }),
  });
}

describeApi('the authorization matrix', (api) => {
  it('has a row for every endpoint of the OpenAPI document, and none for an endpoint that is gone', async () => {
    const documented = await endpoints(api);
    expect(documented.filter((endpoint) => !(endpoint in MATRIX))).toEqual([]);
    expect(Object.keys(MATRIX).filter((endpoint) => !documented.includes(endpoint))).toEqual([]);
  });

  it('answers every caller of every endpoint as the table says', async () => {
    const wrong: string[] = [];
    for (const [endpoint, row] of Object.entries(MATRIX)) {
      for (const caller of CALLERS) {
        const response = await call(api, endpoint, row, caller);
        const expected = row.expect[caller];
        const passed = ![401, 403, 404].includes(response.statusCode) && response.statusCode < 500;
        if (expected === 'ok' ? !passed : response.statusCode !== expected) {
          wrong.push(`${endpoint} as ${caller}: ${response.statusCode}, expected ${expected}`);
        }
        if (caller === 'otherAccount' || caller === 'anonymous') {
          // Nothing of Muster AG reaches a caller who may not see it.
          for (const secret of ['Muster', MUSTER, DEMO_USERS.owner.id]) {
            expect(response.body, `${endpoint} as ${caller}`).not.toContain(secret);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers a caller outside the account exactly as for an account that does not exist', async () => {
    for (const [endpoint, row] of Object.entries(MATRIX)) {
      if (row.expect.otherAccount !== 404) continue;
      const hidden = await call(api, endpoint, row, 'otherAccount');
      const missing = await call(api, endpoint, row, 'otherAccount', UNKNOWN_ACCOUNT);
      expect([hidden.statusCode, hidden.body], endpoint).toEqual([missing.statusCode, missing.body]);
    }
  });
});
