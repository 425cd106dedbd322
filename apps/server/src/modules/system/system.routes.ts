import { configRoutes, type PublicConfig } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { BRAND_LOGO_PATH } from '../../config/brand.ts';
import type { Db } from '../../db/client.ts';
import type { Route } from '../../http/route.ts';

export function publicConfig(config: Config): PublicConfig {
  return {
    productName: config.productName,
    brandColor: config.brand.color,
    brandLogo: config.brand.logo?.path ?? null,
    version: config.version,
    environment: config.environment,
    sentryDsn: config.sentryWebDsn,
    oidc: { url: config.oidc.url, realm: config.oidc.realm, clientId: config.oidc.clientId },
  };
}

const NO_CACHE = {
  'Cache-Control': 'no-cache, no-store, must-revalidate',
  Pragma: 'no-cache',
  Expires: '0',
};

const READY_TIMEOUT_MS = 2_000;

/** Operational endpoints: version document, liveness, readiness, public configuration, the brand's logo. */
export function registerSystemRoutes(
  app: FastifyInstance,
  deps: { config: Config; db: Db; route: Route; draining: () => boolean },
) {
  const { config, db, route, draining } = deps;

  app.get('/version.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.headers(NO_CACHE);
    return { data: { version: config.version, maintenance: config.maintenance } };
  });

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    // Shutting down (decision 220): a balancer that checks readiness sends no more work here.
    if (draining()) return reply.code(503).send({ status: 'draining' });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('database ping timed out')), READY_TIMEOUT_MS);
        }),
      ]);
      return { status: 'ok' };
    } catch (error) {
      reply.log.warn({ err: error }, 'not ready: database does not answer');
      return reply.code(503).send({ status: 'database unavailable' });
    } finally {
      clearTimeout(timer);
    }
  });

  const { logo } = config.brand;
  if (logo) {
    app.get(BRAND_LOGO_PATH, { schema: { hide: true } }, async (_request, reply) => {
      reply.type(logo.contentType).header('Cache-Control', 'public, max-age=86400');
      // An SVG opened on its own is a document: it may run nothing and load nothing.
      if (logo.contentType === 'image/svg+xml') {
        reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      }
      return reply.send(logo.bytes);
    });
  }

  const body = publicConfig(config);
  route(configRoutes.getConfig, {
    handler: async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return body;
    },
  });
}
