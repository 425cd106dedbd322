// Test harness for API tests through HTTP: the real app on a fresh database (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), with tokens minted by a local test key.
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  SignJWT,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type CryptoKey,
  type GenerateKeyPairResult,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp, type AppDeps } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDb, type Db } from '../db/client.ts';
import { DEMO_USERS } from '../demo/users.ts';
import type { AreaModule } from '../modules/deps.ts';
import { SecretLeakGuard } from './secret-leak-guard.ts';
import { dropPostgres, pgliteSnapshot, postgresCopy, postgresUrl } from './snapshot.ts';
import { seedDemoIdentities } from '../demo/identities.ts';

export const TEST_ISSUER = 'http://idp.test/realms/portal';
export const TEST_AUDIENCE = 'portal-api';
export const XSRF = 'test-xsrf-token';

/** A fixed secrets key for tests: a production-like address (not loopback, no demo data) needs one. */
export const TEST_SECRETS_KEYS = `test:${Buffer.alloc(32, 7).toString('base64')}`;

export { pgliteSnapshot };

export type Backend = 'pglite' | 'postgres';
export type DemoLogin = keyof typeof DEMO_USERS;

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    PUBLIC_URL: 'http://portal.test',
    DATABASE_URL: 'memory://',
    OIDC_ISSUER: TEST_ISSUER,
    OIDC_AUDIENCE: TEST_AUDIENCE,
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'false',
    SECRETS_KEYS: TEST_SECRETS_KEYS,
    BUILD_ID: 'test',
    WEB_DIST: path.join(os.tmpdir(), 'portal-no-dist'),
    ...env,
  });
}

/**
 * A fresh database with schema and demo data; `drop` removes it. On PostgreSQL, `url` opens more connections to
 * it (a second instance).
 */
export async function freshDatabase(
  backend: Backend,
): Promise<{ db: Db; drop: () => Promise<void>; url?: string }> {
  if (backend === 'pglite') {
    const db = await openDb('memory://', { loadDataDir: await pgliteSnapshot() });
    return { db, drop: () => db.close() };
  }
  const name = await postgresCopy();
  const url = postgresUrl(name);
  const db = await openDb(url);
  return {
    db,
    url,
    async drop() {
      await db.close();
      await dropPostgres(name);
    },
  };
}

export interface TokenOptions {
  claims?: JWTPayload;
  issuer?: string;
  audience?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  /** Issue time in seconds from now (default -10); more negative for a token issued earlier. */
  issuedAt?: number;
  /** Sign with another key that claims the same key id (a forgery). */
  foreignKey?: boolean;
}

export interface ApiRequest {
  as?: DemoLogin | { sub: string; email?: string; name?: string };
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send the XSRF cookie and header (default true). */
  xsrf?: boolean;
  /**
   * An event stream: the answer is returned when its headers arrive, with an empty body when it is open (it then
   * stays open until the app closes) and the whole body when it was refused.
   */
  stream?: boolean;
}

export interface ApiOptions {
  /** Environment on top of the test configuration. */
  env?: Record<string, string>;
  /** Area modules registered after the app's own, like a new area's (e.g. a test route on one account). */
  modules?: AreaModule[];
  /** Runs on the built app before it is ready (e.g. a raw route). */
  prepare?: (app: FastifyInstance) => void;
  /**
   * The embedded sign-in service runs in the app (OIDC_ISSUER unset) with the demo identities, for areas that work
   * on its credentials (security). Requests still carry this harness's tokens, issued in the embedded issuer's name.
   */
  embeddedIdp?: boolean;
  /** Settings of the jobs runner on top of the app's (a bench without the kinds' limits, say). */
  jobs?: AppDeps['jobs'];
}

/** One mail of the demo outbox. */
export interface OutboxMail {
  subject: string;
  text_body: string;
  html_body: string | null;
}

/** One audit log entry as tests check it. */
export interface AuditRow {
  action: string;
  actor_uuid: string | null;
  client_address: string | null;
  user_agent: string | null;
  target: string;
}

/**
 * The signing key and a forger's key, made once per test process: an RSA key pair costs tens of milliseconds of CPU,
 * and every suite made two on each backend. Each suite's app still trusts only the test key.
 */
let keyPairs: Promise<{ keys: GenerateKeyPairResult; foreign: GenerateKeyPairResult }> | undefined;
const testKeys = () =>
  (keyPairs ??= Promise.all([generateKeyPair('RS256'), generateKeyPair('RS256')]).then(([keys, foreign]) => ({
    keys,
    foreign,
  })));

/**
 * How long a request `as` a demo login reuses its token: signing costs a millisecond of CPU, and the suites (the fuzz
 * test's tens of thousands of requests most of all) signed one per request. Well within the token's five minutes,
 * and short enough that `auth_time` stays recent.
 */
const REUSE_TOKEN_MS = 30_000;

export class TestApi {
  app!: FastifyInstance;
  db!: Db;
  config!: Config;
  private drop!: () => Promise<void>;
  private url?: string;
  private getKey!: JWTVerifyGetKey;
  private readonly others: { app: FastifyInstance; db: Db }[] = [];
  private readonly demoTokens = new Map<DemoLogin, { token: string; until: number }>();
  private key!: CryptoKey;
  private foreign!: CryptoKey;
  /** Every value the areas sealed in this suite, and every answer the suite received (see `stop`). */
  readonly leaks = new SecretLeakGuard();

  constructor(readonly backend: Backend) {}

  async start(options: ApiOptions = {}): Promise<void> {
    const [{ keys, foreign }, database] = await Promise.all([testKeys(), freshDatabase(this.backend)]);
    this.key = keys.privateKey;
    this.foreign = foreign.privateKey;
    ({ db: this.db, drop: this.drop, url: this.url } = database);
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    this.config = testConfig({ ...(options.embeddedIdp ? { OIDC_ISSUER: '' } : {}), ...options.env });
    if (options.embeddedIdp) await seedDemoIdentities(this.db);
    this.getKey = createLocalJWKSet({ keys: [jwk] });
    this.app = await buildApp(this.config, {
      db: this.db,
      getKey: this.getKey,
      modules: options.modules,
      secrets: this.leaks.recording(this.config.secrets.keys),
      ...(options.jobs ? { jobs: options.jobs } : {}),
    });
    this.leaks.watch(this.app);
    options.prepare?.(this.app);
    await this.app.ready();
    // The recurring jobs' first occurrences (due at start) finish before the first test, so that none of them runs
    // in the background in the middle of a test (the cloud's token refresh did, on a slow machine).
    await this.app.jobs.drain();
  }

  /**
   * PostgreSQL only: another instance of the app on the same database, with connections of its own (as a second
   * server behind a load balancer); it accepts this harness's tokens and stops with it.
   */
  async secondInstance(): Promise<FastifyInstance> {
    if (!this.url) throw new Error('a second instance needs PostgreSQL');
    const db = await openDb(this.url);
    const app = await buildApp(this.config, {
      db,
      getKey: this.getKey,
      secrets: this.leaks.recording(this.config.secrets.keys),
    });
    this.leaks.watch(app);
    this.others.push({ app, db });
    await app.ready();
    return app;
  }

  async stop(): Promise<void> {
    for (const other of this.others.splice(0)) {
      await other.app.close();
      await other.db.close();
    }
    await this.app?.close();
    await this.drop?.();
    // A stored secret (a cloud token, a shop key) must never reach a client: fail the suite if one did.
    this.leaks.assertNoLeaks();
  }

  /** An access token as the provider would issue it for a demo login (or any subject). */
  async token(as: ApiRequest['as'] = 'owner', options: TokenOptions = {}): Promise<string> {
    const user = typeof as === 'string' ? DEMO_USERS[as] : null;
    const claims: JWTPayload = user
      ? { sub: user.id, email: user.email, name: user.name, email_verified: user.emailVerified }
      : { ...(as as object) };
    const now = Math.floor(Date.now() / 1000);
    // Signed in when the token was issued, as a provider says by `auth_time` (Keycloak's basic scope).
    const authTime = now + (options.issuedAt ?? -10);
    return new SignJWT({ auth_time: authTime, ...claims, ...options.claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'at+jwt' })
      .setIssuer(options.issuer ?? this.config.oidc.issuer)
      .setAudience(options.audience ?? this.config.oidc.audience)
      .setIssuedAt(now + (options.issuedAt ?? -10))
      .setExpirationTime(now + (options.expiresIn ?? 300))
      .sign(options.foreignKey ? this.foreign : this.key);
  }

  /** A token for a request: a demo login's is reused for {@link REUSE_TOKEN_MS}, any other subject's is new. */
  private async tokenFor(as: NonNullable<ApiRequest['as']>): Promise<string> {
    if (typeof as !== 'string') return this.token(as);
    const reused = this.demoTokens.get(as);
    if (reused && reused.until > Date.now()) return reused.token;
    const token = await this.token(as);
    this.demoTokens.set(as, { token, until: Date.now() + REUSE_TOKEN_MS });
    return token;
  }

  /** An HTTP request through the app, signed in as `as` (default owner) unless `as: undefined` and no token. */
  async request(
    method: InjectOptions['method'],
    url: string,
    options: ApiRequest = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token ?? (options.as ? await this.tokenFor(options.as) : undefined);
    if (token) headers.authorization ??= `Bearer ${token}`;
    if (options.xsrf !== false) {
      headers.cookie = [headers.cookie, `XSRF-TOKEN=${XSRF}`].filter(Boolean).join('; ');
      headers['x-xsrf-token'] ??= XSRF;
    }
    const request: InjectOptions = {
      method,
      url,
      headers,
      ...(options.body === undefined ? {} : { payload: options.body as InjectOptions['payload'] }),
    };
    if (!options.stream) return this.app.inject(request);
    const response = await this.app.inject({ ...request, payloadAsStream: true });
    const chunks: Buffer[] = [];
    if (response.statusCode === 200) response.stream().destroy();
    else for await (const chunk of response.stream()) chunks.push(Buffer.from(chunk as Uint8Array));
    return Object.assign(response, { body: Buffer.concat(chunks).toString() });
  }

  /** Mails to `recipient` in the demo outbox, oldest first, once every queued mail is delivered. */
  async mailsTo(recipient: string): Promise<OutboxMail[]> {
    await this.app.jobs.drain();
    const { rows } = await this.db.query<OutboxMail>(
      'select subject, text_body, html_body from mail_outbox where recipient = $1 order by id',
      [recipient],
    );
    return rows;
  }

  /** Audit entries of an account, newest first. */
  async audit(accountUuid: string): Promise<AuditRow[]> {
    const { rows } = await this.db.query<AuditRow>(
      'select action, actor_uuid, client_address, user_agent, target from audit_log where account_uuid = $1 order by id desc',
      [accountUuid],
    );
    return rows;
  }
}

/**
 * Runs the same API suite on PGlite and on PostgreSQL (the latter only when TEST_DATABASE_URL names an admin
 * connection that may create databases; each suite gets its own database, dropped afterwards).
 */
export function describeApi(title: string, body: (api: TestApi) => void, options: ApiOptions = {}): void {
  for (const backend of ['pglite', 'postgres'] as const) {
    const skip = backend === 'postgres' && !process.env.TEST_DATABASE_URL;
    if (skip) {
      console.warn(
        `SKIPPED on PostgreSQL: "${title}" (set TEST_DATABASE_URL=postgres://user:pass@host/db to run it there)`,
      );
    }
    describe.skipIf(skip)(`${title} [${backend}]`, () => {
      const api = new TestApi(backend);
      beforeAll(() => api.start(options), 60_000);
      afterAll(() => api.stop());
      body(api);
    });
  }
}
