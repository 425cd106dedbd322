import type { FastifyInstance, FastifyReply } from 'fastify';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { bearerToken } from '../http/bearer.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Secrets } from '../secrets/secrets.ts';
import { DbAdapter } from './adapter.ts';
import type { BruteForceGuard } from './brute-force.ts';
import { pickLocale, translator } from './i18n.ts';
import { findIdentityById } from './identities.ts';
import { createInteractionKit } from './interaction-kit.ts';
import { loadSecrets } from './keys.ts';
import { registerLoginFlow } from './login.ts';
import { mountProvider, parseForms, providerHandoff } from './mount.ts';
import { CODE_FLOW_CLIENT, identityClaims, realmCookies, ROUTES, SCOPE_CLAIMS } from './realm.ts';
import { homeLink, messagePage } from './views.ts';

/**
 * The embedded cloud: in demo mode without an external cloud (CLOUD_ISSUER unset), a second realm of the embedded
 * provider plays the provider's cloud, so that an account's cloud connection runs end to end on one machine. It has
 * keys, cookies and stored artefacts of its own (nothing of the portal realm is valid here), one client (the
 * portal's cloud connector: authorization code with PKCE, refresh tokens, revocation) and an organisations API. The
 * demo identities sign in here with the same email and password as at the portal.
 */

export const CLOUD_REALM = 'cloud';
export const CLOUD_REALM_PATH = `/realms/${CLOUD_REALM}`;
/** The cloud's name on its sign-in pages. */
export const CLOUD_PRODUCT_NAME = 'DeepCloud';
/** The scope that lets a token read the person's organisations. */
export const ORGANIZATIONS_SCOPE = 'organizations';
const CLOUD_SCOPES = ['openid', 'profile', 'email', 'offline_access', ORGANIZATIONS_SCOPE];

/** Lifetimes at the cloud, in seconds: short access tokens, a refresh token for a month. */
const ACCESS_TOKEN_TTL = 300;
const REFRESH_TOKEN_TTL = 30 * 86_400;

export interface CloudOrganizationRecord {
  id: string;
  name: string;
  uid: string | null;
  role: string;
}

const COMPANIES = {
  alpenblick: { id: 'org-alpenblick', name: 'Alpenblick Treuhand AG', uid: 'CHE-526.018.151' },
  bergkristall: { id: 'org-bergkristall', name: 'Bergkristall Software GmbH', uid: 'CHE-908.301.668' },
  seeland: { id: 'org-seeland', name: 'Seeland Bäckerei AG', uid: 'CHE-131.860.915' },
  rhone: { id: 'org-rhone', name: 'Rhône Logistique SA', uid: 'CHE-390.996.037' },
  ticino: { id: 'org-ticino', name: 'Ticino Verde Sagl', uid: 'CHE-948.219.932' },
  zuercher: { id: 'org-zuercher', name: 'Zürcher Velowerkstatt GmbH', uid: 'CHE-518.190.931' },
} as const;
type Company = keyof typeof COMPANIES;

/** Who belongs to which demo organisation at the cloud, by email; anyone else belongs to one. */
const MEMBERSHIPS: Record<string, [Company, string][]> = {
  'owner@example.com': [
    ['alpenblick', 'owner'],
    ['bergkristall', 'admin'],
    ['seeland', 'member'],
  ],
  'admin@example.com': [
    ['alpenblick', 'admin'],
    ['rhone', 'member'],
  ],
  'employee@example.com': [['alpenblick', 'member']],
  'inhaber@example.com': [
    ['zuercher', 'owner'],
    ['ticino', 'admin'],
  ],
};
const DEFAULT_MEMBERSHIP: [Company, string][] = [['seeland', 'member']];

/** The demo organisations the cloud person with this email belongs to. */
export function demoOrganizations(email: string): CloudOrganizationRecord[] {
  return (MEMBERSHIPS[email.toLowerCase()] ?? DEFAULT_MEMBERSHIP).map(([company, role]) => ({
    ...COMPANIES[company],
    role,
  }));
}

export interface CloudRealmDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  guard: BruteForceGuard;
  sealer: Secrets;
}

function cloudProvider(config: Config, db: Db, keys: Awaited<ReturnType<typeof loadSecrets>>): Provider {
  const cloud = config.cloud!;
  const errorPage = (ctx: KoaContextWithOIDC, detail: string) => {
    const query = ctx.query as Record<string, unknown>;
    const locale = pickLocale(query.kc_locale, query.ui_locales);
    const t = translator(locale);
    ctx.type = 'html';
    ctx.set('cache-control', 'no-store');
    ctx.body = messagePage(
      { locale, productName: CLOUD_PRODUCT_NAME },
      {
        title: t('errorTitle'),
        alert: { kind: 'error', text: t('errorText') },
        detail,
        link: homeLink(t, config.publicUrl, config.productName),
      },
    );
  };

  const configuration: Configuration = {
    adapter: (name: string) => new DbAdapter(db, name, CLOUD_REALM),
    clients: [
      {
        ...CODE_FLOW_CLIENT,
        client_id: cloud.clientId,
        client_name: `${config.productName} cloud connector`,
        ...(cloud.clientSecret
          ? { client_secret: cloud.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
          : { token_endpoint_auth_method: 'none' }),
        redirect_uris: [cloud.redirectUri],
      },
    ],
    jwks: { keys: keys.signingKeys as NonNullable<Configuration['jwks']>['keys'] },
    // The cloud's SSO cookie lives under its own realm's path: the portal realm's cookies never reach it.
    cookies: realmCookies(keys.cookieKeys, CLOUD_REALM_PATH),
    claims: SCOPE_CLAIMS,
    scopes: CLOUD_SCOPES,
    conformIdTokenClaims: false,
    extraParams: ['kc_locale'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
    },
    findAccount: async (_ctx, sub) => {
      const identity = await findIdentityById(db, sub);
      if (!identity) return undefined;
      return { accountId: identity.id, claims: () => identityClaims(identity) };
    },
    // The connector always gets a refresh token: it keeps the connection alive without the person.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // The cloud trusts the portal's connector: the scopes it asks for are granted without a consent page.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      const grant =
        existing && existing.accountId === session.accountId
          ? existing
          : new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      const asked = String(ctx.oidc.params?.scope ?? '')
        .split(' ')
        .filter((scope) => CLOUD_SCOPES.includes(scope));
      grant.addOIDCScope(asked.join(' '));
      await grant.save();
      return grant;
    },
    interactions: {
      url: (_ctx, interaction) => `${CLOUD_REALM_PATH}/login-actions/${interaction.uid}`,
    },
    renderError: async (ctx, out) =>
      errorPage(ctx, [out.error, out.error_description].filter(Boolean).join(': ')),
    routes: ROUTES,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      IdToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      Interaction: 60 * 60,
      Session: 60 * 60,
      Grant: REFRESH_TOKEN_TTL,
      RefreshToken: REFRESH_TOKEN_TTL,
    },
  };
  const provider = new Provider(cloud.issuer, configuration);
  // Scheme, host and client address come from the handoff, which sets them from Fastify's own values.
  provider.proxy = true;
  return provider;
}

/** The organisations API: a bearer access token of this realm with the organisations scope, else 401. */
function registerOrganizationsApi(app: FastifyInstance, provider: Provider, db: Db, clientId: string): void {
  const deny = (reply: FastifyReply, description: string) =>
    reply
      .code(401)
      .header('www-authenticate', `Bearer realm="${CLOUD_REALM}", error="invalid_token"`)
      .header('cache-control', 'no-store')
      .send({ error: 'invalid_token', error_description: description });

  app.get(`${CLOUD_REALM_PATH}/api/organizations`, async (request, reply) => {
    const value = bearerToken(request.headers.authorization);
    if (!value) return deny(reply, 'no access token provided');
    const token = await provider.AccessToken.find(value);
    if (!token || token.clientId !== clientId || !token.scopes.has(ORGANIZATIONS_SCOPE)) {
      return deny(reply, 'invalid token');
    }
    const identity = token.accountId ? await findIdentityById(db, token.accountId) : undefined;
    if (!identity) return deny(reply, 'unknown subject');
    return reply
      .header('cache-control', 'no-store')
      .send({ organizations: demoOrganizations(identity.email) });
  });
}

/** Mounts the embedded cloud realm at /realms/cloud: sign-in pages, organisations API, the provider's endpoints. */
export async function registerCloudRealm(app: FastifyInstance, deps: CloudRealmDeps): Promise<void> {
  const { config, db, mailer, guard, sealer } = deps;
  const keys = await loadSecrets(db, sealer, CLOUD_REALM);
  const provider = cloudProvider(config, db, keys);
  provider.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'cloud realm error'));

  await app.register(async (scope) => {
    parseForms(scope);
    const kit = createInteractionKit(scope, {
      provider,
      config,
      db,
      mailer,
      guard,
      secrets: sealer,
      realm: { path: CLOUD_REALM_PATH, productName: CLOUD_PRODUCT_NAME },
    });
    const login = registerLoginFlow(kit);
    kit.interactionRoute('GET', '', async (call) => login.show(call));
    registerOrganizationsApi(scope, provider, db, config.cloud!.clientId);
  });
  await mountProvider(app, CLOUD_REALM_PATH, providerHandoff(provider, CLOUD_REALM_PATH));
}
