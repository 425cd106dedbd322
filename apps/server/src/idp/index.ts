import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { Mailer } from '../mail/mailer.ts';
import { purgeExpired } from './adapter.ts';
import { BruteForceGuard } from './brute-force.ts';
import { CLOUD_REALM_PATH, registerCloudRealm } from './deepcloud-realm.ts';
import { mountProvider, parseForms, providerHandoff, refusesText, refuseText } from './mount.ts';
import { registerInteractionRoutes } from './interactions.ts';
import { refreshingLocalJwks } from '../plugins/authenticate.ts';
import { createSecrets } from '../secrets/secrets.ts';
import { getPublicJwks, loadSecrets, readSecrets, rotateSigningKeyIfDue } from './keys.ts';
import { createProvider, replaceSigningKeys } from './provider.ts';
import { ROUTES } from './realm.ts';
import { registerKeycloakRoutes } from './routes.ts';
import { logoutByRefreshToken, logoutPreflight } from './token-logout.ts';
import { REALM_PATH } from './views.ts';

export { getPublicJwks } from './keys.ts';

/**
 * The path prefixes the sign-in service answers under: its own realm and the embedded cloud's, a sign-in service as
 * well. Their responses carry the sign-in service's security headers (plugins/security-headers.ts).
 */
export const SIGN_IN_PATHS = [REALM_PATH, CLOUD_REALM_PATH] as const;

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

  const toProvider = providerHandoff(provider, REALM_PATH);

  // Our own pages and Keycloak-only endpoints: form bodies parsed here.
  await app.register(async (scope) => {
    parseForms(scope);
    registerKeycloakRoutes(scope, { config, db, getKey });
    registerInteractionRoutes(scope, { provider, config, db, mailer, guard, secrets: sealer });

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

  await mountProvider(app, REALM_PATH, toProvider);

  // The embedded cloud (demo mode without an external cloud): a second realm of this provider.
  if (config.cloud?.embedded) await registerCloudRealm(app, { config, db, mailer, guard, sealer });

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
