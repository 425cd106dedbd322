import path from 'node:path';
import { SHOP_TIMEOUT_MS, type SupportInfo } from '@portal/contract';
import { fileURLToPath } from 'node:url';
import { LIMITS } from './limits/limits.ts';
import { developmentSecretsKey, parseSecretsKeys, type SecretsKey } from './secrets/secrets.ts';
import { billingConfig, type BillingConfig } from './config/billing.ts';
import { brandConfig, type Brand } from './config/brand.ts';
import { retentionConfig, type RetentionConfig } from './config/retention.ts';
import { bool, ConfigError, positiveInteger, url, type Env } from './config/parse.ts';
import { supportInfo } from './config/support.ts';

export type { BillingConfig, Creditor } from './config/billing.ts';
export type { Brand } from './config/brand.ts';
export type { RetentionConfig } from './config/retention.ts';
export { ConfigError } from './config/parse.ts';

/** The built-in app version; /version.json serves it with the build suffix (`2.6.0+<build>`). */
export const APP_VERSION = '2.6.0';

/** AbaClik pairing: how many exchange attempts the app side allows per window (ABACLIK_EXCHANGE_WINDOW_SECONDS). */
export interface AbaclikConfig {
  /** Attempts one client address may make per window (ABACLIK_ATTEMPTS_PER_ADDRESS). */
  attemptsPerAddress: number;
  /** Failed attempts of all addresses together per window, against guessing from many addresses (ABACLIK_FAILURES_GLOBAL). */
  failuresGlobal: number;
}

export interface Config {
  port: number;
  host: string;
  /** Origin the browser sees, without a trailing slash, e.g. http://localhost:8080. */
  publicUrl: string;
  /** `memory://` (in-memory PGlite), a folder path (PGlite) or a postgres:// URL. */
  databaseUrl: string;
  oidc: {
    /** True when the embedded provider serves the issuer (OIDC_ISSUER unset). */
    embedded: boolean;
    issuer: string;
    clientId: string;
    /** Audience the API requires in access tokens. */
    audience: string;
    /** The identity provider's base URL and realm for keycloak-js (adapter mode). */
    url: string;
    realm: string;
    /**
     * OIDC_MFA_AMR: the `amr` values of an external provider's token that prove a second factor (comma separated;
     * default otp, hwk, mfa, swk, webauthn).
     */
    mfaAmr: string[];
    /** OIDC_MFA_ACR: an `acr` value that proves a second factor (e.g. a Keycloak level of authentication), or null. */
    mfaAcr: string | null;
  };
  smtpUrl: string | null;
  /** FILES_DIR: uploaded files (logos) are kept in this folder; null keeps them in the database. */
  filesDir: string | null;
  /** Sender address of the product's mails (MAIL_FROM). */
  mailFrom: string;
  /** Embedded identity provider settings (unused with an external issuer). */
  idp: IdpSettings;
  maintenance: boolean;
  /** Demo logins and accounts are seeded (DEMO_DATA); only on a loopback PUBLIC_URL unless forced. */
  demoData: boolean;
  /** The outbox viewer /dev/mail is registered: demo data on and ENVIRONMENT not explicitly `prod`. */
  devMail: boolean;
  /** METRICS_TOKEN: a bearer token that opens /metrics to other than loopback clients; null: loopback only. */
  metricsToken: string | null;
  /** What is kept how long, in days (AUDIT_RETENTION_DAYS, RETENTION_*; the README's table, decision 242). */
  retention: RetentionConfig;
  /** How to reach support and how fast it answers (SUPPORT_EMAIL, SUPPORT_PHONE, SUPPORT_HOURS, SUPPORT_RESPONSE_HOURS). */
  support: SupportInfo;
  /** Plans, VAT, the provider's details on invoices, payment terms and reminders (PLANS_FILE, VAT_RATES, BILLING_*). */
  billing: BillingConfig;
  /** The shop connection: how long a shop may take to answer, and whether local shops are reachable. */
  shop: ShopConfig;
  /** Source maps (*.map) of the web app are served: only when ENVIRONMENT is not `prod`. */
  serveSourceMaps: boolean;
  /**
   * SECRETS_KEYS: keys that seal secrets stored in the database (newest first: the first seals, all open). Without
   * it, outside production, a published development key (`development: true`) keeps the local start working.
   */
  secrets: { keys: SecretsKey[]; development: boolean };
  /** SENTRY_DSN: the server's errors are reported there (decision 237); null: no error reporting. */
  sentryDsn: string | null;
  /** SENTRY_WEB_DSN, else SENTRY_DSN: the web app's errors go there; the only other origin it may connect to. */
  sentryWebDsn: string | null;
  environment: string;
  logLevel: string;
  /**
   * TRUST_PROXY: whom to believe for the client address (X-Forwarded-For) — false (default), true, a hop count or
   * a comma-separated list of proxy addresses/CIDRs. Needed behind a load balancer for per-address lockouts and logs.
   */
  trustProxy: boolean | number | string;
  /**
   * DRAIN_SECONDS (default 20): on SIGTERM the instance drains for at most this long — /readyz answers 503, live
   * streams end with a reconnect hint, requests in flight finish with `Connection: close`, running jobs finish or go
   * back to the queue — then closes what is left and the database (milliseconds here).
   */
  drainMs: number;
  /** PRODUCT_NAME: the product's name in the web app, the sign-in pages, the mails and the documents. */
  productName: string;
  /** The primary colour and the optional logo (BRAND_COLOR, BRAND_LOGO; decision 207). */
  brand: Brand;
  /** Full version string served in /version.json: 2.6.0+<build>. */
  version: string;
  /** The cloud an account can connect to (CLOUD_*); null when none is configured. */
  cloud: CloudConfig | null;
  /** Folder of the built SPA. */
  webDist: string;
  /** AbaClik pairing limits. */
  abaclik: AbaclikConfig;
}

export interface IdpSettings {
  /** Access token lifetime in seconds (ACCESS_TOKEN_TTL, default 300). */
  accessTokenTtl: number;
  /** SSO session idle timeout in seconds (SSO_SESSION_IDLE, default 1800); token refreshes extend it. */
  ssoSessionIdle: number;
  /** SSO session maximum lifetime in seconds (SSO_SESSION_MAX, default 36000). */
  ssoSessionMax: number;
  /** The provider's signing key is replaced after this many seconds (SIGNING_KEY_ROTATION_DAYS, default 30). */
  signingKeyRotation: number;
  /** How often each instance checks whether the signing key is due and reloads the key set, in seconds (60). */
  signingKeyCheck: number;
  /** Brute-force protection: temporary lockout after repeated failed sign-ins. */
  bruteForce: {
    /** Failures of one identity before its first lockout (LOGIN_MAX_FAILURES, default 5). */
    maxFailuresPerIdentity: number;
    /** Failures from one client address before its first lockout (default 20). */
    maxFailuresPerAddress: number;
    /** Registrations from one client address before it must wait (default 10); the waits grow like lockouts. */
    maxRegistrationsPerAddress: number;
    /** First lockout in seconds; each further failure doubles it (default 60). */
    waitIncrementSeconds: number;
    /** Longest lockout in seconds (default 900). */
    maxWaitSeconds: number;
    /** Failures older than this many seconds are forgotten (default 43200). */
    failureResetSeconds: number;
  };
}

/** The cloud's OAuth 2.0 authorization server and API, for the accounts' cloud connections. */
export interface CloudConfig {
  /** True when the embedded provider's second realm plays the cloud (demo mode without CLOUD_ISSUER). */
  embedded: boolean;
  /** CLOUD_ISSUER: its discovery document is `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** CLOUD_CLIENT_SECRET: a confidential client's secret; null for a public client (PKCE is used either way). */
  clientSecret: string | null;
  /** Scopes asked for, space-separated (CLOUD_SCOPES). */
  scopes: string;
  /** The cloud API's organisations endpoint (CLOUD_ORGANIZATIONS_URL). */
  organizationsUrl: string;
  /** Where the cloud sends the browser back: the web app's deepcloud/connect page. */
  redirectUri: string;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface ShopConfig {
  /** SHOP_TIMEOUT_MS: a shop request (test or sync page) gives up after this (default 5000, the product's 5 s). */
  timeoutMs: number;
  /** Plain http and loopback shop addresses are allowed: only with demo data (a local stand-in or demo shop). */
  allowLocalShops: boolean;
}

function shopConfig(env: Env, demo: boolean): ShopConfig {
  const raw = env.SHOP_TIMEOUT_MS;
  const timeoutMs = raw === undefined || raw === '' ? SHOP_TIMEOUT_MS : Number(raw);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 50 || timeoutMs > 60_000) {
    throw new ConfigError('SHOP_TIMEOUT_MS', `must be milliseconds between 50 and 60000 (got "${raw}")`);
  }
  return { timeoutMs, allowLocalShops: demo };
}

function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || /^(0|false|off|no)$/i.test(raw)) return false;
  if (/^(true|on|yes)$/i.test(raw)) return true;
  if (/^[1-9]\d*$/.test(raw)) return Number(raw);
  if (!/^[0-9a-fA-F.:/,\s]+$/.test(raw)) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be true, false, a hop count or proxy addresses (got "${raw}")`,
    );
  }
  return raw;
}

/** True for a loopback host name or address: localhost, 127.0.0.0/8 or [::1]. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' ||
    bare.endsWith('.localhost') ||
    bare === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(bare) ||
    /^::ffff:127(\.\d{1,3}){3}$/.test(bare)
  );
}

const DEMO_RISK =
  'is on while PUBLIC_URL is not a loopback address: demo mode publishes shared passwords (one of them a staff ' +
  'login that opens every account) and an outbox with password-reset links, so anyone who reaches the server ' +
  'could take over accounts. Turn it off, or set DEMO_DATA=force for a throw-away demo that holds no real data';

/**
 * Demo data: explicitly set (true, false or force), or by default on only with the embedded issuer on a loopback
 * PUBLIC_URL. On a non-loopback PUBLIC_URL only `force` turns it on; `true` stops the start and names the risk.
 */
function demoData(env: Env, embedded: boolean, loopback: boolean): boolean {
  const raw = env.DEMO_DATA;
  if (raw !== undefined && raw.toLowerCase() === 'force') return true;
  const on = bool(env, 'DEMO_DATA', embedded && loopback);
  if (on && !loopback) throw new ConfigError('DEMO_DATA', DEMO_RISK);
  return on;
}

const SECRETS_KEY_REQUIRED =
  'is required in production (ENVIRONMENT=prod, or a PUBLIC_URL that is not a loopback address without demo ' +
  "data): it encrypts the secrets stored in the database, such as the sign-in service's signing and cookie keys. " +
  'Set SECRETS_KEYS=<id>:<32 random bytes, base64>, e.g. key1:$(openssl rand -base64 32)';

/**
 * The secrets keys: SECRETS_KEYS when set. Production (ENVIRONMENT explicitly prod, or a non-loopback PUBLIC_URL
 * without demo data) refuses to start without it; elsewhere the published development key stands in.
 */
function secretsKeys(env: Env, loopback: boolean, demo: boolean): Config['secrets'] {
  const raw = env.SECRETS_KEYS;
  if (raw) {
    try {
      return { keys: parseSecretsKeys(raw), development: false };
    } catch (error) {
      throw new ConfigError('SECRETS_KEYS', (error as Error).message);
    }
  }
  const production = env.ENVIRONMENT === 'prod' || (!loopback && !demo);
  if (production) throw new ConfigError('SECRETS_KEYS', SECRETS_KEY_REQUIRED);
  return { keys: [developmentSecretsKey()], development: true };
}

function abaclikConfig(env: Env): AbaclikConfig {
  return {
    attemptsPerAddress: positiveInteger(env, 'ABACLIK_ATTEMPTS_PER_ADDRESS', LIMITS['abaclik-pairing'].max),
    failuresGlobal: positiveInteger(env, 'ABACLIK_FAILURES_GLOBAL', LIMITS['abaclik-failures'].max),
  };
}

/** The client id of the portal at the embedded cloud realm. */
export const EMBEDDED_CLOUD_CLIENT_ID = 'portal-cloud-connector';

/**
 * The cloud connection's settings: CLOUD_ISSUER names an external authorization server; without it, demo mode with
 * the embedded sign-in service plays the cloud in a second realm of it; otherwise no cloud is configured.
 */
function cloudConfig(env: Env, publicUrl: string, embeddedIdp: boolean, demo: boolean): CloudConfig | null {
  const embedded = !env.CLOUD_ISSUER && embeddedIdp && demo;
  if (!env.CLOUD_ISSUER && !embedded) return null;
  const issuer = embedded ? `${publicUrl}/realms/cloud` : url(env, 'CLOUD_ISSUER', '');
  const clientId = env.CLOUD_CLIENT_ID || (embedded ? EMBEDDED_CLOUD_CLIENT_ID : '');
  if (!clientId) throw new ConfigError('CLOUD_CLIENT_ID', 'is required with CLOUD_ISSUER');
  return {
    embedded,
    issuer,
    clientId,
    clientSecret: env.CLOUD_CLIENT_SECRET || null,
    scopes: env.CLOUD_SCOPES || 'openid profile email offline_access organizations',
    organizationsUrl: env.CLOUD_ORGANIZATIONS_URL
      ? url(env, 'CLOUD_ORGANIZATIONS_URL', '')
      : `${issuer}/api/organizations`,
    redirectUri: `${publicUrl}/deepcloud/connect`,
  };
}

/** Reads and validates the environment; throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const portRaw = env.PORT || '8080';
  const port = Number(portRaw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError('PORT', `must be a port number (got "${portRaw}")`);
  }
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`);

  const databaseUrl = env.DATABASE_URL || path.join(repoRoot, 'data');
  if (/^[a-z]+:\/\//i.test(databaseUrl) && !/^(memory|postgres|postgresql):\/\//i.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must be memory://, a folder path or a postgres:// URL');
  }

  const embedded = !env.OIDC_ISSUER;
  const issuer = embedded ? `${publicUrl}/realms/portal` : url(env, 'OIDC_ISSUER', '');
  const realmMatch = /^(.*)\/realms\/([^/]+)$/.exec(issuer);
  if (!realmMatch) {
    throw new ConfigError('OIDC_ISSUER', `must look like https://host/realms/<realm> (got "${issuer}")`);
  }

  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const build = env.BUILD_ID || 'local';
  if (!/^[0-9A-Za-z.-]+$/.test(build))
    throw new ConfigError('BUILD_ID', 'may hold letters, digits, dots and dashes');

  const environment = env.ENVIRONMENT || 'prod';
  const loopback = isLoopbackHost(new URL(publicUrl).hostname);
  const demo = demoData(env, embedded, loopback);
  const brand = brandConfig(env);

  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl,
    databaseUrl,
    oidc: {
      embedded,
      issuer,
      clientId: env.OIDC_CLIENT_ID || 'portal',
      audience: env.OIDC_AUDIENCE || 'portal-api',
      url: realmMatch[1]!,
      realm: realmMatch[2]!,
      mfaAmr: (env.OIDC_MFA_AMR || 'otp,hwk,mfa,swk,webauthn')
        .split(',')
        .map((value) => value.trim())
        .filter(Boolean),
      mfaAcr: env.OIDC_MFA_ACR?.trim() || null,
    },
    smtpUrl: env.SMTP_URL || null,
    filesDir: env.FILES_DIR ? path.resolve(env.FILES_DIR) : null,
    mailFrom: env.MAIL_FROM || `${env.PRODUCT_NAME || 'Portal'} <no-reply@${new URL(publicUrl).hostname}>`,
    idp: {
      accessTokenTtl: positiveInteger(env, 'ACCESS_TOKEN_TTL', 300),
      ssoSessionIdle: positiveInteger(env, 'SSO_SESSION_IDLE', 1800),
      ssoSessionMax: positiveInteger(env, 'SSO_SESSION_MAX', 36_000),
      signingKeyRotation: positiveInteger(env, 'SIGNING_KEY_ROTATION_DAYS', 30) * 86_400,
      signingKeyCheck: 60,
      bruteForce: {
        maxFailuresPerIdentity: positiveInteger(env, 'LOGIN_MAX_FAILURES', 5),
        maxFailuresPerAddress: 20,
        maxRegistrationsPerAddress: 10,
        waitIncrementSeconds: 60,
        maxWaitSeconds: 900,
        failureResetSeconds: 43_200,
      },
    },
    maintenance: bool(env, 'MAINTENANCE', false),
    demoData: demo,
    // ENVIRONMENT defaults to prod, so the local start keeps the outbox; only an explicit prod turns it off.
    devMail: demo && env.ENVIRONMENT !== 'prod',
    metricsToken: env.METRICS_TOKEN || null,
    retention: retentionConfig(env),
    support: supportInfo(env, publicUrl),
    billing: billingConfig(env, brand),
    shop: shopConfig(env, demo),
    serveSourceMaps: environment !== 'prod',
    secrets: secretsKeys(env, loopback, demo),
    sentryDsn: env.SENTRY_DSN ? url(env, 'SENTRY_DSN', '') : null,
    sentryWebDsn:
      env.SENTRY_WEB_DSN || env.SENTRY_DSN
        ? url(env, env.SENTRY_WEB_DSN ? 'SENTRY_WEB_DSN' : 'SENTRY_DSN', '')
        : null,
    environment,
    logLevel,
    trustProxy: trustProxy(env.TRUST_PROXY),
    drainMs: positiveInteger(env, 'DRAIN_SECONDS', 20) * 1000,
    productName: env.PRODUCT_NAME || 'Portal',
    brand,
    version: `${APP_VERSION}+${build}`,
    cloud: cloudConfig(env, publicUrl, embedded, demo),
    webDist: env.WEB_DIST || path.join(repoRoot, 'apps/web/dist'),
    abaclik: abaclikConfig(env),
  };
}
