import { ConfigError, loadConfig, type Config } from './config.ts';

/** Longest wait for in-flight requests on shutdown before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 15_000;

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

// Loaded after the configuration is known to be valid, so a bad variable is reported at once.
const { buildApp } = await import('./app.ts');
const app = await buildApp(config);
await app.listen({ host: config.host, port: config.port });
if (config.secrets.development) {
  app.log.warn(
    'stored secrets are sealed with the published development key: set SECRETS_KEYS outside development',
  );
}
// The password policy's dictionaries load once the server listens, in the background: start does not wait for
// them, and neither does the first registration or reset. Without the embedded sign-in service no page needs them.
if (config.oidc.embedded) {
  const { preparePasswordPolicy } = await import('./access/password-policy.ts');
  void preparePasswordPolicy();
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  setTimeout(() => {
    app.log.error('shutdown timed out');
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS).unref();
  try {
    // Stops listening, answers 503 to new requests on open connections, waits for in-flight ones, closes the db.
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
