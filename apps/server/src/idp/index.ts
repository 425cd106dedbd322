import type { IncomingMessage } from 'node:http';
import querystring from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { containsForbiddenText } from '../http/text.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { Mailer } from '../mail/mailer.ts';
import { purgeExpired } from './adapter.ts';
import { BruteForceGuard } from './brute-force.ts';
import { registerInteractionRoutes } from './interactions.ts';
import { refreshingLocalJwks } from '../plugins/authenticate.ts';
import { createSecrets } from '../secrets/secrets.ts';
import { getPublicJwks, loadSecrets, readSecrets, rotateSigningKeyIfDue } from './keys.ts';
import { createProvider, replaceSigningKeys, ROUTES } from './provider.ts';
import { registerKeycloakRoutes } from './routes.ts';
import { logoutByRefreshToken, logoutPreflight } from './token-logout.ts';
import { REALM_PATH } from './views.ts';

export { getPublicJwks, rotateSigningKeyIfDue } from './keys.ts';
export { seedDemoIdentities } from './identities.ts';

declare module '../jobs/runner.ts' {
  interface JobKinds {
    'idp.rotate-signing-key': Record<string, never>;
    'idp.purge-expired': Record<string, never>;
  }
}

export interface IdentityProviderOptions {
  config: Config;
  db: Db;
  mailer: Mailer;
  jobs: JobRunner;
}

const PURGE_INTERVAL_MS = 15 * 60 * 1000;
/** Leeway for clocks of instances that differ a little, in seconds. */
const CLOCK_SKEW = 60;

/** Whether a request to the provider's endpoints carries text the server's text rule refuses (query or body). */
function refusesText(request: FastifyRequest): boolean {
  const body = request.body;
  let parsed: unknown = body;
  if (typeof body === 'string') {
    const isJson = request.headers['content-type']?.includes('json') ?? false;
    try {
      parsed = isJson ? JSON.parse(body) : querystring.parse(body);
    } catch {
      parsed = undefined; // not JSON: the provider refuses it itself
    }
  }
  // The query as the provider decodes it (node:querystring, lenient with malformed escapes), not as Fastify did.
  const at = request.url.indexOf('?');
  const rawQuery = at < 0 ? '' : request.url.slice(at + 1);
  return containsForbiddenText([querystring.parse(rawQuery), parsed]);
}

/** The protocol endpoints' answer (OAuth's error shape) to text the rule refuses. */
const refuseText = (reply: FastifyReply) =>
  reply.code(400).header('cache-control', 'no-store').send({
    error: 'invalid_request',
    error_description: 'The request contains characters that are not allowed (control characters)',
  });

/**
 * Mounts the embedded OpenID Connect provider at /realms/portal with Keycloak's route names (issuer
 * `${publicUrl}/realms/portal`), its sign-in pages and the Keycloak-only endpoints keycloak-js calls.
 * Needs migrations applied; all state lives in the database.
 */
export async function registerIdentityProvider(
  app: FastifyInstance,
  opts: IdentityProviderOptions,
): Promise<void> {
  const { config, db, mailer, jobs } = opts;
  const sealer = createSecrets(config.secrets.keys);
  const secrets = await loadSecrets(db, sealer);
  const provider = createProvider({ config, db, secrets, log: app.log });
  // Userinfo and the account routes check access tokens with the same key lookup as the API.
  const getKey = refreshingLocalJwks(() => getPublicJwks(db, sealer));
  const guard = new BruteForceGuard(db, config.idp.bruteForce);

  const callback = provider.callback();
  /** Hands a request to oidc-provider: reply hijacked, prefix stripped, `originalUrl` kept for its own URLs. */
  const toProvider = (request: FastifyRequest, reply: FastifyReply, parsedBody?: unknown) => {
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string; body?: unknown };
    raw.originalUrl = raw.url;
    // The provider reads scheme, host and client address from the forwarded headers (it runs in proxy mode); they
    // are replaced by what Fastify decided, which honours a forwarded header only from a proxy TRUST_PROXY trusts.
    raw.headers['x-forwarded-proto'] = request.protocol;
    raw.headers['x-forwarded-host'] = request.host;
    raw.headers['x-forwarded-for'] = request.ip;
    raw.url = raw.url!.slice(REALM_PATH.length) || '/';
    // A body Fastify has read already: the provider takes it from `req.body` (it warns about that once).
    if (parsedBody !== undefined) raw.body = parsedBody;
    // Its security headers are on the raw response already (plugins/security-headers.ts, when the request came in).
    void callback(raw, reply.raw);
    return reply;
  };

  // Our own pages and Keycloak-only endpoints: form bodies parsed here.
  await app.register(async (scope) => {
    if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 64 * 1024 },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
    }
    registerKeycloakRoutes(scope, { config, db, getKey });
    registerInteractionRoutes(scope, { provider, config, db, mailer, guard });

    // Logout with a refresh token (Keycloak's call without a browser redirect) is ours; any other post stays the
    // provider's (which takes RP-initiated logout by GET only, as enableHttpPostMethods is off).
    const logoutPath = `${REALM_PATH}${ROUTES.end_session}`;
    const clientOrigins = new Set([new URL(config.publicUrl).origin]);
    scope.post(logoutPath, async (request, reply) => {
      if (refusesText(request)) return refuseText(reply);
      const form = request.body;
      const isForm = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
      if (isForm && typeof form === 'object' && form !== null && 'refresh_token' in form) {
        return logoutByRefreshToken({ provider, db }, request, reply, form as Record<string, unknown>);
      }
      return toProvider(request, reply, form ?? {});
    });
    scope.options(logoutPath, async (request, reply) => logoutPreflight(clientOrigins, request, reply));
  });

  // Everything else under the realm goes to oidc-provider. Form and JSON bodies are read here as text, so that the
  // server's text rule sees them; the provider parses that same text itself. Other bodies it reads raw.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'application/json'],
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all(`${REALM_PATH}/*`, (request, reply) => {
      if (refusesText(request)) return refuseText(reply);
      toProvider(request, reply, request.body ?? undefined);
    });
  });

  // Signing-key rotation. Whether the key is due is one job for the whole installation (any instance may run it,
  // under a lock); reloading the key set is each instance's own, so that it signs with the newest key and keeps
  // verifying tokens of the retired one. A retired key stays published until the tokens it signed have expired and
  // every instance has reloaded.
  let signingKids = secrets.signingKeys.map((key) => key.kid).join(' ');
  const policy = {
    rotateEvery: config.idp.signingKeyRotation,
    grace: config.idp.accessTokenTtl + config.idp.signingKeyCheck + CLOCK_SKEW,
  };
  const reloadSigningKeys = async () => {
    const stored = await readSecrets(db, sealer);
    const kids = stored?.signingKeys.map((key) => key.kid).join(' ');
    if (!stored || kids === signingKids) return;
    replaceSigningKeys(provider, stored.signingKeys);
    signingKids = kids!;
    app.log.info({ kids }, 'identity provider signing keys reloaded');
  };
  // Whether the key is due: one job for the installation. Reloading: every instance, on its own timer.
  jobs.define('idp.rotate-signing-key', {
    every: config.idp.signingKeyCheck * 1000,
    handler: async ({ log }) => {
      const { rotated, removed } = await rotateSigningKeyIfDue(db, sealer, policy, new Date());
      if (rotated || removed.length) log.info({ rotated, removed }, 'identity provider signing key rotation');
    },
  });
  const reloadFailed = (error: unknown) =>
    app.log.error({ err: error }, 'identity provider signing keys could not be reloaded');
  const keysTimer = setInterval(
    () => void reloadSigningKeys().catch(reloadFailed),
    config.idp.signingKeyCheck * 1000,
  );
  keysTimer.unref();
  app.addHook('onClose', async () => clearInterval(keysTimer));

  // Expired sessions, grants, tokens and interactions go in the background (finding them skips expired ones anyway).
  jobs.define('idp.purge-expired', {
    every: PURGE_INTERVAL_MS,
    handler: async () => {
      await purgeExpired(db);
    },
  });
}
