import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import type { Config } from './config.ts';
import { openDb, type Db } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { registerJsonBody, schemaController } from './http/input.ts';
import { API_DESCRIPTION, SECURITY_SCHEMES, copyXsrfCookie, documentedSchema } from './http/openapi.ts';
import { parseQuery } from './http/querystring.ts';
import { createRouter } from './http/route.ts';
import type { AreaModule, ExportSources } from './modules/deps.ts';
import { invoiceDocument, invoiceFileName } from './modules/billing/billing.documents.ts';
import { logsCsv } from './modules/logs/logs.csv.ts';
import { readLogBatches } from './modules/logs/logs.service.ts';
import './http/types.ts';
import { seedDemoIdentities } from './demo/identities.ts';
import { seedDemoData } from './demo/seed.ts';
import { getPublicJwks, registerIdentityProvider, SIGN_IN_PATHS } from './idp/index.ts';
import { JobRunner, type RunnerOptions } from './jobs/runner.ts';
import { defineRetention } from './jobs/retention.ts';
import { createMailer, registerDevMail } from './mail/index.ts';
import { createNotifier } from './notifications/notifier.ts';
import { createInvoicing } from './invoicing/invoicing.ts';
import { LiveHub, type LiveOptions } from './notifications/live.ts';
import { registerNotificationStreamRoutes } from './modules/notifications/stream.routes.ts';
import { createFileStore } from './files/files.ts';
import { registerAccountsRoutes } from './modules/accounts/accounts.routes.ts';
import { registerLogsRoutes } from './modules/logs/logs.routes.ts';
import { registerSupportAgentRoutes } from './modules/support/agent.routes.ts';
import { registerSubscriptionsRoutes } from './modules/subscriptions/subscriptions.routes.ts';
import { registerBillingStaffRoutes } from './modules/billing/staff.routes.ts';
import { registerMembersRoutes } from './modules/members/members.routes.ts';
import { registerNotificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { registerOwnershipRoutes } from './modules/ownership/ownership.routes.ts';
import { publicConfig, registerSystemRoutes } from './modules/system/system.routes.ts';
import { registerBackupRoute } from './db/backup.ts';
import { registerUsersRoutes } from './modules/users/users.routes.ts';
import { registerBillingRoutes } from './modules/billing/billing.routes.ts';
import { registerCompanyRoutes } from './modules/company/company.routes.ts';
import { registerSupportRoutes } from './modules/support/support.routes.ts';
import { registerDeepcloudRoutes } from './modules/deepcloud/deepcloud.routes.ts';
import { registerPeppershopRoutes } from './modules/peppershop/peppershop.routes.ts';
import { registerAbaclikRoutes } from './modules/abaclik/abaclik.routes.ts';
import { registerLessonsRoutes } from './modules/lessons/lessons.routes.ts';
import { registerAnnouncementsRoutes } from './modules/announcements/announcements.routes.ts';
import { registerSecurityRoutes } from './modules/security/security.routes.ts';
import { registerDirectoryRoutes } from './modules/directory/directory.routes.ts';
import { createAccountScope } from './plugins/account-scope.ts';
import { createAuthenticate, refreshingLocalJwks, remoteJwks } from './plugins/authenticate.ts';
import { createSecrets, type Secrets } from './secrets/secrets.ts';
import { registerCompression } from './plugins/compression.ts';
import { handleError, registerErrorHandler } from './plugins/error-handler.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { contentSecurityPolicy, registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSpa } from './plugins/spa.ts';
import { registerXsrf } from './plugins/xsrf.ts';

/** Query parameters that carry secrets (reset links, logout hints, authorization codes) never reach the logs. */
const SECRET_QUERY_PARAMS = ['key', 'code', 'id_token_hint', 'login_hint', 'token', 'refresh_token', 'state'];

export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  for (const name of SECRET_QUERY_PARAMS) if (params.has(name)) params.set(name, '[redacted]');
  return `${url.slice(0, queryStart)}?${params.toString()}`;
}

declare module 'fastify' {
  /** What buildApp decorates the instance with. */
  interface FastifyInstance {
    config: Config;
    db: Db;
    /** The jobs runner: areas enqueue work; tests `await app.jobs.drain()` to wait for the queue to empty. */
    jobs: JobRunner;
  }
}

export interface AppDeps {
  /** An open database (tests); otherwise config.databaseUrl is opened, and closed with the app. */
  db?: Db;
  /**
   * config.databaseUrl as it is being opened (server.ts starts it while the app's modules load, decision 253): the
   * app takes it over as its own, as if it had opened it.
   */
  opening?: Promise<Db>;
  /** Token key source (tests); otherwise the embedded provider's keys or the issuer's JWKS. */
  getKey?: JWTVerifyGetKey;
  /** More area modules, registered after the app's own (tests add routes this way). */
  modules?: AreaModule[];
  /** Settings of the jobs runner (tests: shorter backoff and polling). */
  jobs?: Partial<Omit<RunnerOptions, 'log'>>;
  /** Settings of the live notifications (tests: a shorter heartbeat, fewer streams per user). */
  live?: Partial<Omit<LiveOptions, 'log'>>;
  /** The secrets helper of the areas (tests record what is sealed); otherwise made from config.secrets.keys. */
  secrets?: Secrets;
}

/** The area modules, each registering its contract routes; a new area adds its `register…Routes` here. */
const MODULES: AreaModule[] = [
  registerUsersRoutes,
  registerAccountsRoutes,
  registerCompanyRoutes,
  registerMembersRoutes,
  registerOwnershipRoutes,
  registerLogsRoutes,
  registerNotificationsRoutes,
  registerSupportRoutes,
  registerNotificationStreamRoutes,
  registerSupportAgentRoutes,
  registerBillingRoutes,
  registerSubscriptionsRoutes,
  registerBillingStaffRoutes,
  registerDeepcloudRoutes,
  registerPeppershopRoutes,
  registerAbaclikRoutes,
  registerLessonsRoutes,
  registerSecurityRoutes,
  registerAnnouncementsRoutes,
  registerDirectoryRoutes,
];

/**
 * The whole server as one Fastify instance, not yet listening: database migrated (and seeded in demo mode),
 * plugins and modules registered explicitly in order.
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      serializers: {
        req: (request) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
    },
    // Unknown fields are refused (422), not silently dropped; every field error is reported at once.
    ajv: { customOptions: { removeAdditional: false, allErrors: true } },
    // Bodies are validated without type coercion, query strings and path parameters with it.
    schemaController,
    // A path parameter of any length reaches its route (and its schema's answer); the URL's length is bounded by
    // the HTTP parser's header limit, and no route matches parameters by regular expression.
    routerOptions: { querystringParser: parseQuery, maxParamLength: 16 * 1024 },
    // A hop count becomes a function: Fastify's types take booleans, address lists and functions.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // The router's own refusals (a URL it cannot decode) get the one error shape too.
    frameworkErrors: handleError,
    // Draining (app.close(), on SIGTERM: decision 220): a request that reaches the instance is served, with
    // `Connection: close`, rather than refused; the listening socket and idle connections close at once.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  // While draining, answers end their keep-alive connection, so the close waits for in-flight requests only.
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('Connection', 'close');
    done(null, payload);
  });

  const db = deps.db ?? (await (deps.opening ?? openDb(config.databaseUrl)));
  const ownsDb = !deps.db;
  app.addHook('onClose', async () => {
    if (ownsDb) await db.close();
  });
  try {
    await migrate(db);
    if (config.demoData) {
      // Seeds only when this tree's demo data version is not the stored one (decision 253).
      await seedDemoData(db, config.billing, { unlessCurrent: true });
      if (config.oidc.embedded) await seedDemoIdentities(db);
    }
  } catch (error) {
    if (ownsDb) await db.close();
    throw error;
  }

  app.decorate('config', config);
  app.decorate('db', db);
  // One jobs runner per instance: started when the app is ready. On close it stops claiming at once, while
  // requests drain; running jobs finish within the drain time or go back to the queue (their lease given up), and
  // the database closes after that.
  const jobs = new JobRunner(db, { log: app.log, stopTimeoutMs: config.drainMs, ...deps.jobs });
  app.decorate('jobs', jobs);
  defineRetention(jobs, db, config.retention);
  app.addHook('onReady', () => jobs.start());
  let jobsStopped: Promise<void> = Promise.resolve();
  app.addHook('preClose', async () => {
    // Awaited in onClose; a failure to hand jobs back is logged (their leases run out and they are taken again).
    jobsStopped = jobs
      .stop()
      .catch((error: unknown) => app.log.error({ err: error }, 'jobs not handed back'));
  });
  // One listener per instance for live notifications; its streams end, telling clients to reconnect (to another
  // instance), before the server stops listening.
  const live = new LiveHub(db, { log: app.log, ...deps.live });
  app.addHook('onReady', () => live.start());
  app.addHook('preClose', () => live.stop());
  // The drain is bounded: connections still busy after the drain time are cut, so the close goes on.
  let drainTimer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    drainTimer = setTimeout(() => app.server.closeAllConnections(), config.drainMs);
    drainTimer.unref();
  });
  // onClose hooks run last first: this one, after the server closed, before the database closes.
  app.addHook('onClose', async () => {
    clearTimeout(drainTimer);
    await jobsStopped;
  });
  app.decorateRequest('user', null);
  app.decorateRequest('account', null);

  registerErrorHandler(app);
  registerJsonBody(app);
  registerSecurityHeaders(app, config, SIGN_IN_PATHS);
  await registerCompression(app);
  await app.register(cookie);
  registerXsrf(app, config);
  registerMetrics(app, { token: config.metricsToken, jobs, live });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.productName} API`,
        version: config.version,
        description: API_DESCRIPTION,
      },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    // Only the API is documented; the SPA, probes and identity provider are not part of it.
    transform: ({ schema, url, route }) => ({
      schema: url.startsWith('/api/') ? documentedSchema(schema, route)! : { ...schema, hide: true },
      url,
    }),
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // "Try it out" sends the XSRF header the unsafe methods need (the function goes into a script file).
    uiConfig: { validatorUrl: null, requestInterceptor: copyXsrfCookie } as never,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const secrets = deps.secrets ?? createSecrets(config.secrets.keys);
  const getKey =
    deps.getKey ??
    (config.oidc.embedded ? refreshingLocalJwks(() => getPublicJwks(db, secrets)) : remoteJwks(config));
  const route = createRouter(app, {
    authenticate: createAuthenticate({ config, db, getKey }),
    accountScope: createAccountScope(db),
  });
  registerIdempotency(app, db);

  const files = createFileStore(config.filesDir);
  const mailer = createMailer(config, db, jobs, files);
  const notifier = createNotifier({ db, jobs, mailer, config });
  const invoicing = createInvoicing({ config: config.billing, jobs, notifier });
  const exportSources: ExportSources = {
    invoiceFileName,
    invoicePdf: async (q, accountUuid, invoiceUuid) =>
      (await invoiceDocument(q, files, config.billing, accountUuid, invoiceUuid))?.content ?? null,
    logCsv: (q, reader, accountUuid, to, language) =>
      logsCsv(
        readLogBatches(q, reader, { accountUuid, role: 'OWNER', viaStaff: false }, { to, lang: language }),
        language,
      ),
  };
  registerSystemRoutes(app, { config, db, route, draining: () => draining });
  // The embedded database's backups are taken by the server that holds it (decision 224).
  if (db.dumpDataDir) registerBackupRoute(app, { config, db });
  for (const register of [...MODULES, ...(deps.modules ?? [])])
    register({ config, db, route, mailer, jobs, secrets, files, notifier, live, invoicing, exportSources });

  if (config.oidc.embedded) {
    await registerIdentityProvider(app, { config, db, mailer, jobs });
    // Demo mode on a developer's machine only: a person reads the outbox (verification and reset links) there.
    if (config.devMail) await registerDevMail(app, { db });
  }

  await registerSpa(app, {
    webDist: config.webDist,
    config: publicConfig(config),
    contentSecurityPolicy: contentSecurityPolicy(config),
    serveSourceMaps: config.serveSourceMaps,
  });
  return app;
}
