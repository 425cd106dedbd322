import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory } from '@/routing/history.ts';
import type { Account } from '@portal/contract';
import { createQueryClient } from '@/api/query-client.ts';
import { testAccount, testUser } from '@/testing/fixtures.ts';
import { createGuard, GuardError } from './guard.ts';
import { createNavigation, shownHref, type Navigation } from '@/routing/navigation.ts';

const user = testUser();
const account = testAccount;

/** A fake API: GET me, GET me/accounts and GET accounts/{id}, counting calls; `fail` makes every call a 503. */
function fakeApi(accounts: Account[], others: Account[] = []) {
  const state = { fail: false, calls: [] as string[] };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      state.calls.push(url);
      const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
      if (state.fail) return json(503, { message: 'down', code: 'UNAVAILABLE' });
      if (url === '/api/users/v1/me') return json(200, { data: user });
      if (url === '/api/users/v1/me/accounts')
        return json(200, { data: accounts, meta: { total: accounts.length, page: 1, pageSize: 100 } });
      const id = /\/api\/accounts\/v1\/accounts\/([^/?]+)$/.exec(url)?.[1];
      const found = others.find((a) => a.uuid === id);
      return found ? json(200, { data: found }) : json(404, { message: 'not found', code: 'NOT_FOUND' });
    }),
  );
  return state;
}

function setup(initial: string) {
  const queryClient = createQueryClient();
  let router: Navigation | null = null;
  const guard = createGuard({
    queryClient,
    committedHref: () => (router ? shownHref(router.state) : null),
  });
  router = createNavigation({ history: createMemoryHistory({ initialEntries: [initial] }), guard });
  return { router, queryClient };
}

async function settle(router: Navigation) {
  // A failing load is retried once after a second.
  await vi.waitFor(() => expect(router.state.initialized).toBe(true), { timeout: 5000 });
  await vi.waitFor(() => expect(router.state.pending).toBe(false), { timeout: 5000 });
}

const where = (router: Navigation) => `${router.state.location.pathname}${router.state.location.search}`;

describe('guard', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('loads user and accounts once and reuses them without network on later navigations', async () => {
    const api = fakeApi([account('a1')]);
    const { router } = setup('/');
    await settle(router);
    expect(router.state.error).toBeNull();
    expect(api.calls.sort()).toEqual(['/api/users/v1/me', '/api/users/v1/me/accounts']);
    await router.navigate('/inbox');
    await router.navigate('/');
    expect(api.calls).toHaveLength(2);
    expect(sessionStorage.getItem('accountUuid')).toBe('a1');
    expect(localStorage.getItem('accountUuid')).toBe('a1');
  });

  it('shows the error state when the first load fails, and keeps the page when a later one does', async () => {
    const api = fakeApi([account('a1')]);
    api.fail = true;
    const first = setup('/');
    await settle(first.router);
    expect(first.router.state.error?.at).toBe('root');
    expect(first.router.state.error?.error).toBeInstanceOf(GuardError);
    // The retry asks again: while the API is down the error page stays (no page without a session), then it opens.
    await first.router.revalidate();
    expect(first.router.state.error?.error).toBeInstanceOf(GuardError);
    api.fail = false;
    await first.router.revalidate();
    expect(first.router.state.error).toBeNull();
    expect(where(first.router)).toBe('/');

    api.fail = false;
    const later = setup('/inbox');
    await settle(later.router);
    later.queryClient.clear();
    api.fail = true;
    await later.router.navigate('/billing');
    await settle(later.router);
    expect(where(later.router)).toBe('/inbox');
    expect(later.router.state.error).toBeNull();
  }, 15_000);

  it('redirects per the rules: no account → onboarding, terms → accept-agb, permission → dashboard, unknown → 404', async () => {
    fakeApi([]);
    let { router } = setup('/inbox');
    await settle(router);
    expect(where(router)).toBe('/onboarding');

    fakeApi([account('n1', { accountRole: 'OWNER', isOwner: true, acceptedAgb: false })]);
    ({ router } = setup('/inbox?x=1'));
    await settle(router);
    expect(where(router)).toBe('/accept-agb?redirect=%2Finbox%3Fx%3D1');

    fakeApi([account('e1')]);
    ({ router } = setup('/billing'));
    await settle(router);
    expect(where(router)).toBe('/');

    ({ router } = setup('/what?x=1'));
    await settle(router);
    expect(where(router)).toBe('/404?path=%2Fwhat%3Fx%3D1');
  });

  it('leads a member of an account that requires two-factor to the security tab; their other accounts stay open', async () => {
    const enforced = account('t1', { twoFactorRequired: 'enforced' });
    const other = account('t2', { twoFactorRequired: 'none' });
    fakeApi([enforced, other]);
    let { router } = setup('/billing?uuid=t1');
    await settle(router);
    expect(where(router)).toBe('/settings/users?tab=security&uuid=t1');
    // Their own settings and the account list need no account: they stay reachable.
    await router.navigate('/accounts');
    await settle(router);
    expect(where(router)).toBe('/accounts');
    ({ router } = setup('/inbox?uuid=t2'));
    await settle(router);
    expect(where(router)).toBe('/inbox?uuid=t2');
    // During the grace period nothing is in the way.
    fakeApi([account('g1', { twoFactorRequired: 'grace' })]);
    ({ router } = setup('/inbox'));
    await settle(router);
    expect(where(router)).toBe('/inbox');
  });

  it('sends the sign-in return path to the saved location and forgets it', async () => {
    fakeApi([account('a1')]);
    sessionStorage.setItem('requestedLocation', '/inbox?tab=2');
    const { router } = setup('/oauthcb');
    await settle(router);
    expect(where(router)).toBe('/inbox?tab=2');
    expect(sessionStorage.getItem('requestedLocation')).toBeNull();
  });

  it('lets staff open any account by uuid, and forgets a stored one that no longer loads', async () => {
    const staff = { ...user, userRole: 'SUPPORT_AGENT' as const };
    const opened = account('x1', { accountRole: 'SUPPORT' });
    const api = fakeApi([], [opened]);
    vi.mocked(fetch).mockImplementation(async (input) => {
      const url = String(input);
      api.calls.push(url);
      if (url === '/api/users/v1/me') return new Response(JSON.stringify({ data: staff }));
      if (url === '/api/users/v1/me/accounts') return new Response(JSON.stringify({ data: [], meta: {} }));
      if (url.endsWith('/x1')) return new Response(JSON.stringify({ data: opened }));
      return new Response(JSON.stringify({ message: 'not found', code: 'NOT_FOUND' }), { status: 404 });
    });
    sessionStorage.setItem('accountUuid', 'gone');
    const { router } = setup('/billing?uuid=x1');
    await settle(router);
    expect(where(router)).toBe('/billing?uuid=x1');
    expect(sessionStorage.getItem('accountUuid')).toBe('x1');

    sessionStorage.setItem('accountUuid', 'gone');
    localStorage.clear();
    const again = setup('/');
    await settle(again.router);
    expect(where(again.router)).toBe('/support/queue');
    expect(sessionStorage.getItem('accountUuid')).toBeNull();

    // An account the server does not open for staff (unknown, or the customer does not allow it) is said on the
    // accounts page instead of being silently passed over.
    sessionStorage.setItem('accountUuid', 'x1');
    const refused = setup('/billing?uuid=refused1');
    await settle(refused.router);
    expect(where(refused.router)).toBe('/accounts?notOpened=refused1');
    expect(sessionStorage.getItem('accountUuid')).toBe('x1');
  });
});

describe('guard: a route with an entry step (the cloud callback)', () => {
  const verifier = 'v'.repeat(43);
  const connection = { uuid: 'c0ffee00-0000-4000-8000-000000000001' };

  /** The session API plus POST …/deep-cloud/v1/auth answering `authStatus`; records method and URL of each call. */
  function cloudApi(authStatus: number) {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${url}`);
        const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
        if (url === '/api/users/v1/me') return json(200, { data: user });
        if (url === '/api/users/v1/me/accounts')
          return json(200, { data: [account('a1', { accountRole: 'ADMIN' })], meta: { total: 1 } });
        if (url === '/api/accounts/a1/deep-cloud/v1/auth')
          return authStatus === 201
            ? json(201, { data: connection })
            : json(authStatus, { message: 'refused', code: 'BAD_GATEWAY' });
        return json(404, { message: 'not found', code: 'NOT_FOUND' });
      }),
    );
    return calls;
  }

  function store(state: string, entry: Record<string, unknown>) {
    localStorage.setItem(`deepcloud-connect:${state}`, JSON.stringify(entry));
  }

  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('exchanges code and verifier after the session loads, forgets the state and opens the connection', async () => {
    const calls = cloudApi(201);
    store('s1', { pkceCodeVerifier: verifier, accountUuid: 'a1', createdAt: Date.now() });
    const { router } = setup('/deepcloud/connect?code=abc&state=s1');
    await settle(router);
    expect(where(router)).toBe(`/deepcloud/connection/${connection.uuid}`);
    // Posted once, after the session loaded (a slow machine may see the session read again afterwards).
    const exchange = 'POST /api/accounts/a1/deep-cloud/v1/auth';
    expect(calls.filter((call) => call === exchange)).toHaveLength(1);
    expect(calls.indexOf('GET /api/users/v1/me')).toBeGreaterThanOrEqual(0);
    expect(calls.indexOf(exchange)).toBeGreaterThan(calls.indexOf('GET /api/users/v1/me'));
    const post = vi.mocked(fetch).mock.calls[calls.indexOf(exchange)]![1]!;
    expect(JSON.parse(String(post.body))).toEqual({ pkceCodeVerifier: verifier, code: 'abc' });
    // A repeated post of the same attempt replays the first answer.
    expect(new Headers(post.headers).get('Idempotency-Key')).toBe('s1');
    expect(localStorage.getItem('deepcloud-connect:s1')).toBeNull();
    // Nothing of the callback stays in the history.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('ends on the dashboard when the exchange fails, with the state forgotten and no toast', async () => {
    const calls = cloudApi(502);
    store('s1', { pkceCodeVerifier: verifier, accountUuid: 'a1', createdAt: Date.now() });
    const { router } = setup('/deepcloud/connect?code=abc&state=s1');
    await settle(router);
    expect(where(router)).toBe('/');
    expect(calls).toContain('POST /api/accounts/a1/deep-cloud/v1/auth');
    expect(localStorage.getItem('deepcloud-connect:s1')).toBeNull();
  });

  it.each([
    ['no code', '/deepcloud/connect?state=s1'],
    ['no state', '/deepcloud/connect?code=abc'],
    ['an unknown state', '/deepcloud/connect?code=abc&state=other'],
  ])('ends on the dashboard without a request for %s', async (_case, path) => {
    const calls = cloudApi(201);
    store('s1', { pkceCodeVerifier: verifier, accountUuid: 'a1', createdAt: Date.now() });
    const { router } = setup(path);
    await settle(router);
    expect(where(router)).toBe('/');
    expect(calls.some((call) => call.startsWith('POST'))).toBe(false);
  });

  it('refuses a state stored for another account, and an expired one, and forgets both', async () => {
    const calls = cloudApi(201);
    store('s1', { pkceCodeVerifier: verifier, accountUuid: 'a2', createdAt: Date.now() });
    store('s2', { pkceCodeVerifier: verifier, accountUuid: 'a1', createdAt: Date.now() - 61 * 60_000 });
    for (const state of ['s1', 's2']) {
      const { router } = setup(`/deepcloud/connect?code=abc&state=${state}`);
      await settle(router);
      expect(where(router)).toBe('/');
    }
    expect(calls.some((call) => call.startsWith('POST'))).toBe(false);
    expect(Object.keys(localStorage).filter((key) => key.startsWith('deepcloud-connect:'))).toEqual([]);
  });
});
