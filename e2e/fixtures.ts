import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import axe from 'axe-core';
import pg from 'pg';
import {
  DEMO_ACCOUNT_NAMES,
  DEMO_ACCOUNTS as SERVER_DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  DEMO_USERS,
} from '../apps/server/src/demo/users.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export { DEMO_PASSWORD };

/** The demo logins: the server's one list (apps/server/src/demo/users.ts). */
export const DEMO = DEMO_USERS;

/** The demo accounts: fixed ids and names, as the server seeds them. */
export const DEMO_ACCOUNTS = Object.fromEntries(
  Object.entries(SERVER_DEMO_ACCOUNTS).map(([key, uuid]) => [
    key,
    { uuid, name: DEMO_ACCOUNT_NAMES[key as keyof typeof DEMO_ACCOUNT_NAMES] },
  ]),
) as { [Key in keyof typeof SERVER_DEMO_ACCOUNTS]: { uuid: string; name: string } };

export interface PortalServer {
  url: string;
  /** Mails the embedded provider sent (the demo outbox). */
  port: number;
}

/** A port nobody listens on at 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** One server host process per Playwright worker (apps/server/src/test/server-host.ts), started when first needed. */
interface Host {
  child: ChildProcess;
  /** The host's recent output, for the error when a server does not start. */
  output: () => string;
  ask: (
    request: { type: 'start'; env: Record<string, string> } | { type: 'stop' },
    id?: number,
  ) => Promise<number>;
}

let host: Host | undefined;
let running = 0;
let nextId = 1;

function startHost(): Host {
  let log = '';
  const child = fork(path.join(repoRoot, 'apps/server/src/test/server-host.ts'), {
    cwd: repoRoot,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const waiting = new Map<number, { resolve: (id: number) => void; reject: (error: Error) => void }>();
  child.on('message', (answer: { type: string; id: number; error?: string }) => {
    const waiter = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.type === 'failed') waiter?.reject(new Error(`${answer.error}\n${log}`));
    else waiter?.resolve(answer.id);
  });
  child.on('exit', (code) => {
    if (host?.child === child) host = undefined;
    for (const waiter of waiting.values()) waiter.reject(new Error(`server host exited (${code}):\n${log}`));
    waiting.clear();
  });
  return {
    child,
    output: () => log,
    ask: (request, id = nextId++) =>
      new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ ...request, id });
      }),
  };
}

/** The host keeps this process alive only while one of its servers runs (a bench script ends after its last). */
function holdHost(current: Host, delta: number): void {
  running += delta;
  if (running > 0) {
    current.child.ref();
    current.child.channel?.ref();
  } else {
    current.child.unref();
    current.child.channel?.unref();
  }
  for (const stream of [current.child.stdout, current.child.stderr]) {
    if (running > 0) (stream as net.Socket | null)?.ref();
    else (stream as net.Socket | null)?.unref();
  }
}

/**
 * Starts the real server (built SPA, embedded provider, demo data, an in-memory database of its own unless `env`
 * names another) on a free port, in the worker's server host.
 */
export async function startServer(
  env: Record<string, string> = {},
  /** The host name the browser uses: `localhost` where an IP address will not do (WebAuthn's relying party). */
  hostname = '127.0.0.1',
): Promise<{ server: PortalServer; stop: () => Promise<void> }> {
  const port = await freePort();
  const url = `http://${hostname}:${port}`;
  const current = (host ??= startHost());
  holdHost(current, 1);
  let id: number;
  try {
    id = await current.ask({
      type: 'start',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        DATABASE_URL: 'memory://',
        DEMO_DATA: 'true',
        LOG_LEVEL: 'warn',
        ...env,
      },
    });
  } catch (error) {
    holdHost(current, -1);
    throw error;
  }
  let stopped = false;
  return {
    server: { url, port },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        if (current.child.exitCode === null) await current.ask({ type: 'stop' }, id);
      } finally {
        holdHost(current, -1);
      }
    },
  };
}

/** Runs `fn` with a PostgreSQL connection to `url`, closed afterwards (journeys and benches on PostgreSQL). */
export async function withPostgres<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The live notification stream: open as long as a signed-in page is. */
export const LIVE_STREAM_PATH = '/api/notifications/v1/stream';

/**
 * Follows the page's requests from now on; `quiet()` resolves once none has been in flight for `quietMs`. The live
 * notification stream does not count: it stays open as long as the page, so Playwright's 'networkidle' never comes
 * while a signed-in page is shown.
 */
export function watchNetwork(page: Page): { quiet: (quietMs?: number) => Promise<void> } {
  const inFlight = new Set<object>();
  let changed = Date.now();
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === LIVE_STREAM_PATH) return;
    inFlight.add(request);
    changed = Date.now();
  });
  const done = (request: object) => {
    if (inFlight.delete(request)) changed = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    quiet: (quietMs = 500) =>
      expect
        .poll(() => inFlight.size === 0 && Date.now() - changed >= quietMs, {
          intervals: [100],
          timeout: 30_000,
        })
        .toBe(true),
  };
}

/** The WCAG 2.x A and AA rules axe checks. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core on the page, or on the part `include` names: no serious or critical violations of the WCAG 2.x A and AA
 * rules (each named with its help text and the elements it found). axe goes into each frame of the document once and
 * stays there across the app's own navigations; `axe.run` in the page itself (what @axe-core/playwright's legacy mode
 * does, minus injecting axe's 500 KB again before every run and its default's blank page to assemble the results in:
 * 1.7 instead of 7.5 s a run on a loaded machine, same rules and results).
 */
export async function expectNoSeriousViolations(
  page: Page,
  include?: string,
  /** Only these rules (of the same WCAG tags), instead of all. */
  rules?: string[],
): Promise<void> {
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axe.source);
  }
  const violations = await page
    .evaluate(
      ({ context, options }) => (window as unknown as { axe: typeof axe }).axe.run(context, options),
      {
        context: { include: include ? [include] : [], exclude: [] },
        options: {
          runOnly: rules
            ? { type: 'rule' as const, values: rules }
            : { type: 'tag' as const, values: WCAG_TAGS },
        },
      },
    )
    .then((results) => results.violations);
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  expect(serious).toEqual([]);
}

/** The rules whose outcome depends on colours: all a theme changes. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** Whether the app shows its dark theme (its background is dark). */
function showsDarkTheme(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.body)
      .backgroundColor.match(/\d+(\.\d+)?/g)!
      .map(Number) as [number, number, number];
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 < 0.2;
  });
}

/**
 * {@link expectNoSeriousViolations} in both themes, the one showing first, then the other: in dark the rules that
 * depend on colours, in light all (the themes differ in colours only). One switch per call, so the page ends in the
 * other theme than it started in. Before each run it waits for the transitions to end, so axe never measures a
 * contrast halfway between the themes or through a dialog fading in.
 */
export async function expectAccessibleInBothThemes(page: Page, include?: string): Promise<void> {
  const startsDark = await showsDarkTheme(page);
  for (const dark of [startsDark, !startsDark]) {
    if (dark !== startsDark) {
      await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
      // The app follows the system's scheme when it re-renders: wait until the background has turned.
      await expect
        .poll(() => showsDarkTheme(page), { message: `the ${dark ? 'dark' : 'light'} theme's background` })
        .toBe(dark);
    }
    // Then until the transitions have ended: the colours' after a switch, a dialog's fading in before.
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'),
    );
    await expectNoSeriousViolations(page, include, dark ? COLOUR_RULES : undefined);
  }
}

/** Signs in through the embedded provider's login form; the page must be on the login form. */
export async function fillLogin(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.locator('#username').fill(email);
  await page.locator('#password').fill(password);
  await page.locator('#kc-login').click();
}

/** The embedded provider's login form is showing (its pages live under /realms/portal on the portal's origin). */
export async function expectLoginPage(page: Page, server: PortalServer): Promise<void> {
  await expect(page.locator('#username')).toBeVisible();
  const url = new URL(page.url());
  expect(url.origin).toBe(server.url);
  expect(url.pathname).toMatch(/^\/realms\/portal\//);
}

/** The web app's client, scopes and callback (apps/web/src/auth/auth.ts), for a sign-in made outside the app. */
const WEB_CLIENT = {
  clientId: 'portal',
  scope: 'profile email portal accounts support',
  callbackPath: '/oauthcb',
};

/** Where the web app keeps its tokens (apps/web/src/auth/tokens.ts): a reload restores the session from there. */
const TOKEN_KEYS = { access: 'kc-token', refresh: 'kc-refreshToken', id: 'kc-idToken' };

/** The tokens of a sign-in as `email`: the provider's code flow with PKCE over HTTP (see {@link signIn}). */
export async function signInTokens(
  request: APIRequestContext,
  server: PortalServer,
  email: string,
): Promise<{ access_token: string; refresh_token: string; id_token: string }> {
  const verifier = crypto.randomBytes(48).toString('base64url');
  const redirectUri = `${server.url}${WEB_CLIENT.callbackPath}`;
  const authorize = new URL('/realms/portal/protocol/openid-connect/auth', server.url);
  authorize.search = new URLSearchParams({
    client_id: WEB_CLIENT.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    response_mode: 'fragment',
    scope: `openid ${WEB_CLIENT.scope}`,
    state: crypto.randomUUID(),
    nonce: crypto.randomUUID(),
    code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const loginPage = await (await request.get(authorize.href)).text();
  const action = /<form id="kc-form-login" method="post" action="([^"]+)"/.exec(loginPage)?.[1];
  if (!action) throw new Error(`no login form for ${email}:\n${loginPage.slice(0, 400)}`);
  let response = await request.post(new URL(action.replaceAll('&amp;', '&'), server.url).href, {
    form: { username: email, password: DEMO_PASSWORD },
    maxRedirects: 0,
  });
  // Inside the provider (its resume step), follow; the first redirect out of it carries the code to the app.
  let location = new URL(response.headers().location ?? '', server.url);
  while (response.status() >= 300 && response.status() < 400 && location.pathname.startsWith('/realms/')) {
    response = await request.get(location.href, { maxRedirects: 0 });
    location = new URL(response.headers().location ?? '', server.url);
  }
  const code = new URLSearchParams(location.hash.slice(1)).get('code');
  if (!code) throw new Error(`no code for ${email} (status ${response.status()}): ${await response.text()}`);
  const tokens = await request.post(
    new URL('/realms/portal/protocol/openid-connect/token', server.url).href,
    {
      form: {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id: WEB_CLIENT.clientId,
      },
    },
  );
  expect(tokens.status()).toBe(200);
  return (await tokens.json()) as { access_token: string; refresh_token: string; id_token: string };
}

/**
 * Signs in as `email` and opens `pathname` in the portal. The sign-in is the provider's real code flow with PKCE
 * (its login form posted, the code exchanged) made over HTTP with the page's cookies and user agent (page.request),
 * and the tokens go where the app keeps them, so the app starts signed in as after a reload. Through Chromium the
 * same sign-in loaded the app twice and the login page once; the login form itself is the subject of the sign-in
 * journeys (fillLogin).
 */
export async function signIn(page: Page, server: PortalServer, email: string, pathname = '/'): Promise<void> {
  const { access_token, refresh_token, id_token } = await signInTokens(page.request, server, email);
  // sessionStorage belongs to the tab and the origin: written on a page of the origin that is not the app.
  await page.goto(`${server.url}/readyz`);
  await page.evaluate(
    ({ keys, values }) => {
      sessionStorage.setItem(keys.access, values.access_token);
      sessionStorage.setItem(keys.refresh, values.refresh_token);
      sessionStorage.setItem(keys.id, values.id_token);
    },
    {
      keys: TOKEN_KEYS,
      values: { access_token: access_token!, refresh_token: refresh_token!, id_token: id_token! },
    },
  );
  await page.goto(`${server.url}${pathname}`);
  // The app starts by renewing the tokens it finds (keycloak-js' init). Until it has stored the renewed ones, a
  // navigation would cut the renewal off and leave it holding a refresh token the provider already took back.
  await page.waitForFunction(({ key, seeded }) => sessionStorage.getItem(key) !== seeded, {
    key: TOKEN_KEYS.refresh,
    seeded: refresh_token!,
  });
  await page.waitForURL(
    (url) =>
      url.origin === server.url &&
      !url.pathname.startsWith('/realms/') &&
      !url.pathname.startsWith('/oauthcb'),
  );
}

/**
 * Opens `pathname` as the app's own links do (the history and the router), without loading the app again: a load
 * is most of a sign-in's cost (decision 208). No dialog may be left open from before.
 */
export async function openInApp(page: Page, pathname: string): Promise<void> {
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, pathname);
  await page.waitForURL((url) => url.pathname + url.search === pathname);
}

/** An API call with the page's session (bearer token and XSRF header), as the web app makes it: the status. */
export async function callApi(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = sessionStorage.getItem('kc-token');
      const xsrf = document.cookie
        .split('; ')
        .find((cookie) => cookie.startsWith('XSRF-TOKEN='))
        ?.split('=')[1];
      const response = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-xsrf-token': decodeURIComponent(xsrf ?? ''),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return response.status;
    },
    { method, path, body },
  );
}

/**
 * Registers a new identity through the provider's registration form (via the SPA's /signup path) and ends
 * signed in on the portal, on onboarding since a new user has no account.
 */
export async function register(
  page: Page,
  server: PortalServer,
  person: { firstName: string; lastName: string; email: string; password?: string },
): Promise<void> {
  const password = person.password ?? 'Another-Secret-2026';
  await page.goto(`${server.url}/signup`);
  await page.locator('#firstName').fill(person.firstName);
  await page.locator('#lastName').fill(person.lastName);
  await page.locator('#email').fill(person.email);
  await page.locator('#password').fill(password);
  await page.locator('#password-confirm').fill(password);
  await page.locator('#kc-register').click();
  await confirmRegistration(page, server, person.email);
}

/**
 * After the registration form: the "check your mail" page, then the link from the verification mail (read from
 * the demo outbox once the jobs runner delivered it) opened in the same browser ends where the sign-in was
 * started from: the portal's onboarding, or `landing` (an invitation's page).
 */
export async function confirmRegistration(
  page: Page,
  server: PortalServer,
  email: string,
  landing = '/onboarding',
): Promise<void> {
  await expect(page.locator('#kc-message')).toContainText(email);
  let link: string | undefined;
  await expect
    .poll(async () => {
      const response = await fetch(`${server.url}/dev/mail.json?to=${encodeURIComponent(email)}`);
      const { data } = (await response.json()) as { data: { text: string }[] };
      link = data.map((mail) => /http\S+\/verify-email\?key=\S+/.exec(mail.text)?.[0]).find(Boolean);
      return link;
    })
    .toBeTruthy();
  await page.goto(link!);
  await page.waitForURL((url) => url.origin === server.url && url.pathname === landing);
}

/** A unique address for a new registration (the provider refuses one that exists). */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
}

export const test = base.extend<object, { server: PortalServer }>({
  server: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { server, stop } = await startServer();
      await use(server);
      await stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

/**
 * One page signed in as `email` on the worker's server for all tests of the calling describe block, which then run
 * in order on it (serial: after a failure the rest of the block is skipped). Each test opens its route with
 * {@link openInApp} and closes the dialogs it opened.
 */
export function signedInPageForBlock(email: string): () => Page {
  let page: Page | undefined;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async ({ browser, server }) => {
    page = await browser.newPage({ baseURL: server.url });
    await signIn(page, server, email);
  });
  test.afterAll(async () => page?.context().close());
  return () => page!;
}

/** For journeys that change demo data: each journey gets a server and database of its own (`own`, the base URL). */
export const testOnOwnServer = base.extend<{ own: PortalServer }>({
  // eslint-disable-next-line no-empty-pattern
  own: async ({}, use) => {
    const { server, stop } = await startServer();
    await use(server);
    await stop();
  },
  baseURL: async ({ own }, use) => use(own.url),
});

export { expect };
