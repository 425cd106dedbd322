import path from 'node:path';
import { SHOP_TIMEOUT_MS, type Plan, type PostalAddress, type SupportInfo } from '@portal/contract';
import { fileURLToPath } from 'node:url';
import type { VatRate } from './invoicing/money.ts';
import { DEFAULT_PLANS, loadPlansFile } from './invoicing/plans.ts';
import { isValidIban } from './invoicing/reference.ts';
import { LIMITS } from './limits/limits.ts';
import { developmentSecretsKey, parseSecretsKeys, type SecretsKey } from './secrets/secrets.ts';

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
  /** AUDIT_RETENTION_DAYS: audit log entries older than this are purged (default 400, at least 30). */
  auditRetentionDays: number;
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
  sentryDsn: string | null;
  environment: string;
  logLevel: string;
  /**
   * TRUST_PROXY: whom to believe for the client address (X-Forwarded-For) — false (default), true, a hop count or
   * a comma-separated list of proxy addresses/CIDRs. Needed behind a load balancer for per-address lockouts and logs.
   */
  trustProxy: boolean | number | string;
  productName: string;
  /** Full version string served in /version.json: 2.6.0+<build>. */
  version: string;
  /** The cloud an account can connect to (CLOUD_*); null when none is configured. */
  cloud: CloudConfig | null;
  /** Folder of the built SPA. */
  webDist: string;
  /** AbaClik pairing limits. */
  abaclik: AbaclikConfig;
}

/** Who issues the invoices: printed on them and the creditor of their QR-bill. */
export interface Creditor {
  name: string;
  address: PostalAddress;
  /** A QR-IBAN (invoices carry a QR reference) or an IBAN (invoices carry a creditor reference, RF…). */
  iban: string;
  vatNumber: string | null;
  email: string;
  website: string | null;
}

export interface BillingConfig {
  plans: Plan[];
  /** VAT rates with the day each applies from; a rate applies to the days of a period on or after that day. */
  vatRates: VatRate[];
  creditor: Creditor;
  /** Days from issue to due date. */
  paymentTermDays: number;
  /** Reminder mails go out this many days after the due date of an unpaid invoice, one per entry. */
  reminderDays: number[];
  /** Admins see the past-due banner once an invoice is unpaid this many days after its due date. */
  pastDueBannerDays: number;
  /** Periods, issue and due dates are days in this time zone. */
  timeZone: string;
  /** Card payments through the configured provider (STRIPE_SECRET_KEY); null: invoices only. */
  card: {
    provider: 'stripe';
    secretKey: string;
    /** Another address of the provider's API (e.g. a local stand-in in tests); null: the provider's own. */
    apiUrl: string | null;
  } | null;
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

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigError(name, `must be a positive whole number (got "${raw}")`);
  }
  return value;
}

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

/** The audit log keeps at least 30 days; the database refuses to purge younger entries whatever is set. */
function auditRetentionDays(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 400;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 30) {
    throw new ConfigError(
      'AUDIT_RETENTION_DAYS',
      `must be a whole number of days, at least 30 (got "${raw}")`,
    );
  }
  return value;
}

/** support@ the public host's domain; a local start (an address or a name without a dot) gets an example one. */
function defaultSupportEmail(publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  const local = !host.includes('.') || /^[\d.]+$/.test(host) || host.startsWith('[');
  return `support@${local ? 'example.com' : host.replace(/^www\./, '')}`;
}

/**
 * Support's contact data. SUPPORT_HOURS is "<first day>-<last day> HH:MM-HH:MM <time zone>" with ISO days (1 =
 * Monday), default "1-5 08:00-17:00 Europe/Zurich"; SUPPORT_RESPONSE_HOURS the first-response time per severity in
 * business hours, default "LOW=40,NORMAL=16,HIGH=8,CRITICAL=2".
 */
function supportInfo(env: Env, publicUrl: string): SupportInfo {
  const hoursRaw = env.SUPPORT_HOURS || '1-5 08:00-17:00 Europe/Zurich';
  const hours =
    /^([1-7])-([1-7]) ([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d) ([A-Za-z_]+(?:\/[A-Za-z_+-]+)*)$/.exec(
      hoursRaw.trim(),
    );
  if (!hours || Number(hours[1]) > Number(hours[2])) {
    throw new ConfigError(
      'SUPPORT_HOURS',
      `must look like "1-5 08:00-17:00 Europe/Zurich" (got "${hoursRaw}")`,
    );
  }
  const responseRaw = env.SUPPORT_RESPONSE_HOURS || 'LOW=40,NORMAL=16,HIGH=8,CRITICAL=2';
  const response: Record<string, number> = {};
  for (const part of responseRaw.split(',')) {
    const match = /^\s*(LOW|NORMAL|HIGH|CRITICAL)=([1-9]\d{0,3})\s*$/.exec(part);
    if (match) response[match[1]!] = Number(match[2]);
  }
  const { LOW, NORMAL, HIGH, CRITICAL } = response;
  if (LOW === undefined || NORMAL === undefined || HIGH === undefined || CRITICAL === undefined) {
    throw new ConfigError(
      'SUPPORT_RESPONSE_HOURS',
      `must name hours for LOW, NORMAL, HIGH and CRITICAL, e.g. "LOW=40,NORMAL=16,HIGH=8,CRITICAL=2" (got "${responseRaw}")`,
    );
  }
  const from = Number(hours[1]);
  const to = Number(hours[2]);
  return {
    email: env.SUPPORT_EMAIL || defaultSupportEmail(publicUrl),
    phone: env.SUPPORT_PHONE || null,
    hours: {
      days: Array.from({ length: to - from + 1 }, (_, i) => from + i),
      from: `${hours[3]}:${hours[4]}`,
      to: `${hours[5]}:${hours[6]}`,
      timeZone: hours[7]!,
    },
    responseHours: { LOW, NORMAL, HIGH, CRITICAL },
  };
}

function url(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  try {
    const parsed = new URL(raw);
    if (!['http:', 'https:'].includes(parsed.protocol)) throw new Error('protocol');
  } catch {
    throw new ConfigError(name, `must be an http(s) URL (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
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

function days(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 3650)
    throw new ConfigError(name, 'must be a number of days');
  return value;
}

/** Billing settings; the provider's details default to a sample company so a local start issues complete invoices. */
function billingConfig(env: Env): BillingConfig {
  let plans = DEFAULT_PLANS;
  if (env.PLANS_FILE) {
    try {
      plans = loadPlansFile(env.PLANS_FILE);
    } catch (error) {
      throw new ConfigError('PLANS_FILE', (error as Error).message);
    }
  }
  const vatRates = (env.VAT_RATES || '7.7@2018-01-01,8.1@2024-01-01').split(',').map((entry) => {
    const match = /^\s*(\d{1,2}(?:\.\d{1,2})?)@(\d{4}-\d{2}-\d{2})\s*$/.exec(entry);
    if (!match) throw new ConfigError('VAT_RATES', `must be "<percent>@<YYYY-MM-DD>,…" (got "${entry}")`);
    return { rateBp: Math.round(Number(match[1]) * 100), validFrom: match[2]! };
  });
  const iban = (env.BILLING_IBAN || 'CH4431999123000889012').replace(/\s+/g, '');
  if (!isValidIban(iban)) {
    throw new ConfigError('BILLING_IBAN', 'is not a Swiss or Liechtenstein IBAN with valid check digits');
  }
  const country = env.BILLING_COUNTRY || 'CH';
  if (!/^[A-Z]{2}$/.test(country))
    throw new ConfigError('BILLING_COUNTRY', 'must be an ISO country code like CH');
  const reminderDays = (env.BILLING_REMINDER_DAYS || '10,30').split(',').map((entry) => {
    const value = Number(entry);
    if (!Number.isInteger(value) || value < 1)
      throw new ConfigError('BILLING_REMINDER_DAYS', 'must list days, e.g. 10,30');
    return value;
  });
  return {
    plans,
    vatRates,
    creditor: {
      name: env.BILLING_NAME || `${env.PRODUCT_NAME || 'Portal'} AG`,
      address: {
        street: env.BILLING_STREET || 'Bahnhofstrasse',
        buildingNumber: env.BILLING_BUILDING_NUMBER || '1',
        postcode: env.BILLING_POSTCODE || '8001',
        city: env.BILLING_CITY || 'Zürich',
        country,
      },
      iban,
      vatNumber: env.BILLING_VAT_NUMBER || 'CHE-123.456.789 MWST',
      email: env.BILLING_EMAIL || 'billing@example.com',
      website: env.BILLING_WEBSITE || null,
    },
    paymentTermDays: days(env, 'BILLING_PAYMENT_TERM_DAYS', 30),
    reminderDays: reminderDays.sort((a, b) => a - b),
    pastDueBannerDays: days(env, 'BILLING_PAST_DUE_BANNER_DAYS', 14),
    timeZone: env.BILLING_TIME_ZONE || 'Europe/Zurich',
    card: env.STRIPE_SECRET_KEY
      ? { provider: 'stripe', secretKey: env.STRIPE_SECRET_KEY, apiUrl: env.STRIPE_API_URL || null }
      : null,
  };
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
    auditRetentionDays: auditRetentionDays(env.AUDIT_RETENTION_DAYS),
    support: supportInfo(env, publicUrl),
    billing: billingConfig(env),
    shop: shopConfig(env, demo),
    serveSourceMaps: environment !== 'prod',
    secrets: secretsKeys(env, loopback, demo),
    sentryDsn: env.SENTRY_DSN || null,
    environment,
    logLevel,
    trustProxy: trustProxy(env.TRUST_PROXY),
    productName: env.PRODUCT_NAME || 'Portal',
    version: `${APP_VERSION}+${build}`,
    cloud: cloudConfig(env, publicUrl, embedded, demo),
    webDist: env.WEB_DIST || path.join(repoRoot, 'apps/web/dist'),
    abaclik: abaclikConfig(env),
  };
}
