import crypto from 'node:crypto';
import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { loadConfig, type Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { JobRunner, type RunnerOptions } from '../jobs/runner.ts';
import { createMailer } from '../mail/mailer.ts';
import { registerSecurityHeaders } from '../plugins/security-headers.ts';
import { freshDatabase, type Backend } from './api.ts';
import { seedDemoIdentities } from '../demo/identities.ts';
import { registerIdentityProvider, SIGN_IN_PATHS } from '../idp/index.ts';

/**
 * Test helpers: a real listening server with the demo identities, a local SMTP server catching its mails and a
 * browser-like cookie jar over plain fetch.
 */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface TestIdp {
  app: FastifyInstance;
  config: Config;
  base: string;
  port: number;
  /** The provider's jobs runner (its mails): `await idp.jobs.drain()` waits until they were delivered. */
  jobs: JobRunner;
}

/** The configuration of a server on this machine at `port` (a loopback PUBLIC_URL), on an in-memory database. */
export function localConfig(port: number, env: Record<string, string> = {}): Config {
  return loadConfig({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: 'memory://',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

export async function startIdp(
  db: Db,
  options: {
    port?: number;
    env?: Record<string, string>;
    configure?: (config: Config) => void;
    jobs?: Partial<RunnerOptions>;
  } = {},
): Promise<TestIdp> {
  const port = options.port ?? (await freePort());
  const config = localConfig(port, options.env);
  options.configure?.(config);
  const app = Fastify({ logger: false });
  // As in the app: the security headers of every response come from the one plugin.
  registerSecurityHeaders(app, config, SIGN_IN_PATHS);
  // As in the app: mails go through a jobs runner, started with the server and stopped before it closes.
  const jobs = new JobRunner(db, options.jobs);
  app.addHook('onReady', () => jobs.start());
  app.addHook('preClose', () => jobs.stop());
  await registerIdentityProvider(app, { config, db, mailer: createMailer(config, db, jobs), jobs });
  await app.listen({ host: '127.0.0.1', port });
  return { app, config, base: config.publicUrl, port, jobs };
}

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }
}

export async function request(
  url: string,
  jar: CookieJar,
  init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Response> {
  // No keep-alive: the restart test replaces the server behind the same port.
  const headers: Record<string, string> = { connection: 'close', ...init.headers };
  const cookie = jar.header();
  if (cookie) headers.cookie = cookie;
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const response = await fetch(url, {
    method: init.method ?? (init.form ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  });
  jar.store(response);
  return response;
}

/** Follows redirects inside the provider; stops at the first one leaving it (e.g. to the app's /oauthcb). */
export async function follow(
  idp: TestIdp,
  response: Response,
  jar: CookieJar,
  realmPath = '/realms/portal',
): Promise<Response> {
  let current = response;
  for (let hops = 0; hops < 10 && current.status >= 300 && current.status < 400; hops += 1) {
    const location = new URL(current.headers.get('location')!, idp.base);
    if (!location.pathname.startsWith(`${realmPath}/`)) return current;
    current = await request(location.href, jar);
  }
  return current;
}

export function pkce() {
  const verifier = crypto.randomBytes(48).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export const SCOPE = 'openid profile email portal accounts support';

export function authorizeUrl(idp: TestIdp, params: Record<string, string | undefined> = {}) {
  const query = new URLSearchParams({
    client_id: 'portal',
    redirect_uri: `${idp.base}/oauthcb`,
    response_type: 'code',
    response_mode: 'fragment',
    scope: SCOPE,
    state: 'state-1',
    nonce: 'nonce-1',
  });
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) query.delete(key);
    else query.set(key, value);
  }
  return `${idp.base}/realms/portal/protocol/openid-connect/auth?${query.toString()}`;
}

/** The fragment parameters of a redirect to the app (response_mode=fragment). */
export function fragmentOf(response: Response): URLSearchParams {
  const location = response.headers.get('location') ?? '';
  return new URLSearchParams(location.split('#')[1] ?? '');
}

export function formAction(html: string, id: string): string {
  const match = new RegExp(`<form id="${id}" method="post" action="([^"]+)"`).exec(html);
  if (!match) throw new Error(`form ${id} not found`);
  return match[1]!.replace(/&amp;/g, '&');
}

export async function exchangeCode(idp: TestIdp, code: string, verifier: string) {
  const response = await fetch(`${idp.base}/realms/portal/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', connection: 'close' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: `${idp.base}/oauthcb`,
      client_id: 'portal',
    }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

export async function refresh(idp: TestIdp, refreshToken: string) {
  const response = await fetch(`${idp.base}/realms/portal/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', connection: 'close' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: 'portal',
    }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** Starts an authorization (PKCE) and follows it to the login page: that page's HTML. */
export async function openLoginPage(
  idp: TestIdp,
  jar: CookieJar,
  params: Record<string, string | undefined> = {},
): Promise<string> {
  const start = await request(
    authorizeUrl(idp, { code_challenge: pkce().challenge, code_challenge_method: 'S256', ...params }),
    jar,
  );
  return (await follow(idp, start, jar)).text();
}

/** Authorize → login form → the password posted: where the provider leads next (followed inside it). */
async function submitPassword(
  idp: TestIdp,
  jar: CookieJar,
  email: string,
  password: string,
  params: Record<string, string | undefined> = {},
) {
  const { verifier, challenge } = pkce();
  const start = await request(
    authorizeUrl(idp, { code_challenge: challenge, code_challenge_method: 'S256', ...params }),
    jar,
  );
  const page = await follow(idp, start, jar);
  const html = await page.text();
  const posted = await request(new URL(formAction(html, 'kc-form-login'), idp.base).href, jar, {
    form: { username: email, password },
  });
  return { done: await follow(idp, posted, jar), verifier };
}

/** Full browser-like sign-in: authorize → login form → back at /oauthcb → token response. */
export async function signIn(
  idp: TestIdp,
  jar: CookieJar,
  email: string,
  password: string,
  params: Record<string, string | undefined> = {},
) {
  const { done, verifier } = await submitPassword(idp, jar, email, password, params);
  const code = fragmentOf(done).get('code');
  if (!code) throw new Error(`no code (status ${done.status}): ${(await done.text()).slice(0, 400)}`);
  return { redirect: done, tokens: await exchangeCode(idp, code, verifier) };
}

/** A sign-in of a person with a second factor, up to the second-factor page: its status and HTML. */
export async function signInToSecondFactor(idp: TestIdp, jar: CookieJar, email: string, password: string) {
  const { done, verifier } = await submitPassword(idp, jar, email, password);
  return { status: done.status, url: done.url, html: await done.text(), verifier };
}

/**
 * Posts form `formId` of a second-factor page `html` with `form`: refused, the page again (status and HTML);
 * accepted, the token response of the sign-in (`verifier` of its start).
 */
export async function answerSecondFactor(
  idp: TestIdp,
  jar: CookieJar,
  page: { html: string; verifier: string },
  formId: string,
  form: Record<string, string>,
) {
  const posted = await request(new URL(formAction(page.html, formId), idp.base).href, jar, { form });
  const done = await follow(idp, posted, jar);
  const code = fragmentOf(done).get('code');
  if (!code) return { status: done.status, html: await done.text(), tokens: undefined };
  return { status: done.status, html: '', tokens: await exchangeCode(idp, code, page.verifier) };
}

/** Signs in and refreshes once: the first refresh token (now used up) and the refresh's answer. */
export async function signInAndRefresh(idp: TestIdp, jar: CookieJar, email: string, password: string) {
  const { tokens } = await signIn(idp, jar, email, password);
  const first = tokens.body.refresh_token!;
  const rotated = await refresh(idp, first);
  expect(rotated.status).toBe(200);
  return { first, rotated };
}

/** Decodes quoted-printable soft breaks and escapes, enough to read links out of a raw mail. */
export function decodeMail(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (bytes) => Buffer.from(bytes.replace(/=/g, ''), 'hex').toString('utf8'));
}

interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A local SMTP server keeping every mail it receives. */
export interface Mailbox {
  readonly url: string;
  readonly mails: ReceivedMail[];
  /** The first mail to `to` after the first `since` mails, decoded; waits up to 2 s for it. */
  next(to: string, since: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * `refuse` (optional) sees each delivery attempt (counted from 1) first; an error it resolves to is the server's
 * answer to that attempt, and the mail is not kept (a slow or failing mail server).
 */
export async function startMailbox(
  options: { refuse?: (attempt: number) => Promise<Error | undefined> } = {},
): Promise<Mailbox> {
  let attempts = 0;
  const port = await freePort();
  const mails: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        attempts += 1;
        void (options.refuse?.(attempts) ?? Promise.resolve(undefined)).then((error) => {
          if (error) return callback(error);
          mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(to, since) {
      for (let i = 0; i < 100; i += 1) {
        const mail = mails.slice(since).find((m) => m.to.some((a) => a.toLowerCase() === to.toLowerCase()));
        if (mail) return decodeMail(mail.raw);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no mail to ${to}`);
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** The one-time link to `path` (e.g. "reset") in a mail. */
export function linkIn(mail: string, path: string): string {
  const match = new RegExp(
    `http://127\\.0\\.0\\.1:\\d+/realms/portal/login-actions/[\\w-]+/${path}\\?key=[\\w-]+&kc_locale=\\w+`,
  ).exec(mail);
  if (!match) throw new Error(`no ${path} link in mail:\n${mail}`);
  return match[0];
}

// PostgreSQL too when TEST_DATABASE_URL is set (as the API tests do).
const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** What a suite of describeIdp works with; set before its first test. */
export interface IdpSuite {
  db: Db;
  idp: TestIdp;
  mailbox: Mailbox;
  /** Closes the provider and starts it again on the same port, database and mail server. */
  restart(): Promise<void>;
}

/**
 * A suite against the identity provider on a fresh database with the demo identities (seeded twice: seeding is
 * idempotent), sending its mails to a local SMTP server; on PGlite and, when TEST_DATABASE_URL is set, PostgreSQL.
 */
export function describeIdp(title: string, suite: (ctx: IdpSuite) => void): void {
  describe.each(BACKENDS)(`identity provider on %s: ${title}`, (backend) => {
    const ctx = {} as IdpSuite;
    let dropDb: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      const { db, drop } = await freshDatabase(backend);
      dropDb = drop;
      await seedDemoIdentities(db);
      await seedDemoIdentities(db);
      const mailbox = await startMailbox();
      Object.assign(ctx, { db, mailbox });
      ctx.idp = await startIdp(db, { env: { SMTP_URL: mailbox.url } });
      ctx.restart = async () => {
        const { port } = ctx.idp;
        await ctx.idp.app.close();
        ctx.idp = await startIdp(db, { port, env: { SMTP_URL: mailbox.url } });
      };
    });

    afterAll(async () => {
      await ctx.idp?.app.close();
      await ctx.mailbox?.close();
      await dropDb?.();
    });

    suite(ctx);
  });
}

/** The browser's SSO session still signs in without a login page: the code it gets exchanges for tokens. */
export async function expectSilentSignIn(idp: TestIdp, jar: CookieJar): Promise<void> {
  const { verifier, challenge } = pkce();
  const again = await follow(
    idp,
    await request(authorizeUrl(idp, { code_challenge: challenge, code_challenge_method: 'S256' }), jar),
    jar,
  );
  const code = fragmentOf(again).get('code');
  expect(code).toBeTruthy();
  expect((await exchangeCode(idp, code!, verifier)).status).toBe(200);
}

/**
 * Passwords the password policy refuses for `owner`, each with the German error the sign-in pages show for it:
 * too short, common, a repeated word, the email address itself, the name with digits.
 */
export function weakPasswords(owner: { email: string; name: string }): [string, string][] {
  const tooShort = 'Das Passwort muss mindestens 12 Zeichen lang sein.';
  return [
    ['12345678', tooShort],
    ['password', tooShort],
    ['passwordpassword', 'Dieses Passwort ist zu leicht zu erraten.'],
    [owner.email, 'Das Passwort darf Ihre E-Mail-Adresse nicht enthalten.'],
    [`${owner.name.replace(/\s/g, '')}2026`, 'Das Passwort darf Ihren Namen nicht enthalten.'],
  ];
}

/** A password the policy accepts (no common words, no name, long enough). */
export const STRONG_PASSWORD = 'Kiesel-Ampel-Gurke-19';
