import module from 'node:module';
import type { Config } from './config.ts';

// Node 22.1 and later keep V8's compiled code of every module loaded from here on in a cache (in the system's
// temporary folder), so a restart compiles none of them again (decision 250); Node 20 has no such cache. The
// configuration is imported after this line for that reason.
if ('enableCompileCache' in module) module.enableCompileCache();
const { ConfigError, loadConfig } = await import('./config.ts');

/**
 * After the drain time (DRAIN_SECONDS), busy connections are cut and the database closes; should that hang too, the
 * process exits anyway this much later.
 */
const SHUTDOWN_GRACE_MS = 10_000;

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`${error.message}\nFix the environment variable ${error.variable} and start again.`);
    process.exit(1);
  }
  throw error;
}

// Error reporting (only with SENTRY_DSN) starts before the app loads, so its integrations see Fastify from the start.
const { initErrorReporting, flushErrorReporting } = await import('./plugins/error-reporting.ts');
await initErrorReporting(config);
// The database starts opening before the app's modules load, and goes on while they do (decision 253): PGlite
// reads its files and compiles its WebAssembly on other threads meanwhile. A failure to open it is the app's to
// report, as when the app opens it itself.
const { openDb } = await import('./db/client.ts');
const opening = openDb(config.databaseUrl);
opening.catch(() => undefined);
// Loaded after the configuration is known to be valid, so a bad variable is reported at once.
const { buildApp } = await import('./app.ts');
const app = await buildApp(config, { opening });
await app.listen({ host: config.host, port: config.port });
// The signals are taken from the moment the server listens, before anything else is awaited: a SIGTERM in between
// would end the process without draining.
let stopping = false;
/**
 * The one way the instance stops (decision 220): app.close() drains — /readyz answers 503, live streams end with a
 * reconnect hint, the listening socket and idle connections close, requests in flight finish with
 * `Connection: close`, jobs finish or go back to the queue, all within DRAIN_SECONDS — then closes the database.
 */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal, drainMs: config.drainMs }, 'shutting down: draining');
  setTimeout(() => {
    app.log.error('shutdown timed out');
    process.exit(1);
  }, config.drainMs + SHUTDOWN_GRACE_MS).unref();
  try {
    await app.close();
    app.log.info('shut down');
    await flushErrorReporting();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
if (config.secrets.development) {
  app.log.warn(
    'stored secrets are sealed with the published development key: set SECRETS_KEYS outside development',
  );
}
// The password policy's dictionaries are built once the server listens, in a worker thread of their own (decision
// 250): neither the start nor the server's thread waits for them; a registration or reset that comes first waits.
// Without the embedded sign-in service no page needs them.
if (config.oidc.embedded) {
  const { preparePasswordPolicy } = await import('./access/password-policy.ts');
  preparePasswordPolicy();
}
// The Markdown sanitiser's jsdom a few seconds later, before anyone reads a lesson.
const { prepareSanitizerSoon } = await import('./http/markdown.ts');
prepareSanitizerSoon();
