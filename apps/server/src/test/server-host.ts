// Test servers for the browser journeys, many in one process: the fixtures (e2e/fixtures.ts) start one host per
// Playwright worker and ask it over IPC for servers. A server here is the same app server.ts starts (the config
// from the environment, the embedded sign-in service, demo data), but the modules load once per worker instead of
// once per server, and an in-memory database starts from the shared migrated and seeded snapshot, on which the
// start's own migrate and seed then have nothing left to do.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDb, type Db } from '../db/client.ts';
import { prepareSanitizerSoon } from '../http/markdown.ts';
import { pgliteSnapshot } from './snapshot.ts';

export type HostRequest =
  { type: 'start'; id: number; env: Record<string, string> } | { type: 'stop'; id: number };
export type HostAnswer =
  | { type: 'started'; id: number }
  | { type: 'stopped'; id: number }
  | { type: 'failed'; id: number; error: string };

/** Settings that change what the demo seed writes: a server with one of them seeds a database of its own. */
const SEED_SETTINGS = /^(BILLING_|VAT_|PLANS_FILE$)/;

const servers = new Map<number, { app: FastifyInstance; db?: Db }>();
let passwordPolicy: Promise<unknown> | undefined;

async function start(env: Record<string, string>): Promise<{ app: FastifyInstance; db?: Db }> {
  const config = loadConfig({ ...process.env, ...env });
  const fromSnapshot =
    config.databaseUrl === 'memory://' &&
    config.demoData &&
    !Object.keys(env).some((key) => SEED_SETTINGS.test(key));
  const db = fromSnapshot ? await openDb('memory://', { loadDataDir: await pgliteSnapshot() }) : undefined;
  try {
    const app = await buildApp(config, { db });
    await app.listen({ host: config.host, port: config.port });
    // As server.ts: the password policy's dictionaries load in the background once a server listens.
    if (config.oidc.embedded && !passwordPolicy)
      passwordPolicy = import('../access/password-policy.ts').then((policy) =>
        policy.preparePasswordPolicy(),
      );
    prepareSanitizerSoon();
    return { app, db };
  } catch (error) {
    await db?.close();
    throw error;
  }
}

async function stop(id: number): Promise<void> {
  const server = servers.get(id);
  servers.delete(id);
  await server?.app.close();
  await server?.db?.close();
}

const send = (answer: HostAnswer) => process.send!(answer);

process.on('message', (request: HostRequest) => {
  const work =
    request.type === 'start'
      ? start(request.env).then((server) => {
          servers.set(request.id, server);
          send({ type: 'started', id: request.id });
        })
      : stop(request.id).then(() => send({ type: 'stopped', id: request.id }));
  work.catch((error: Error) => send({ type: 'failed', id: request.id, error: error.stack ?? String(error) }));
});

// The fixtures' process ended (the worker is done): close every server, then leave.
process.on('disconnect', () => {
  void Promise.allSettled([...servers.keys()].map(stop)).then(() => process.exit(0));
});
