import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import Provider, {
  errors,
  interactionPolicy,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import initializeKeystore from 'oidc-provider/lib/helpers/initialize_keystore.js';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { DbAdapter } from './adapter.ts';
import { pickLocale, translator, type Translate } from './i18n.ts';
import { findIdentityById } from './identities.ts';
import type { IdpSecrets } from './keys.ts';
import { CODE_FLOW_CLIENT, endSession, identityClaims, realmCookies, ROUTES, SCOPE_CLAIMS } from './realm.ts';
import { recordSessionUse } from './sessions.ts';
import {
  homeLink,
  ICON_LINK,
  logoutConfirmPage,
  messagePage,
  REALM_PATH,
  type PageContext,
} from './views.ts';

/** Scopes of the portal client; the first-party client is granted all of them without a consent page. */
export const PORTAL_SCOPES = ['openid', 'profile', 'email', 'portal', 'accounts', 'support'];

export interface ProviderDeps {
  config: Config;
  db: Db;
  secrets: IdpSecrets;
  log: FastifyBaseLogger;
}

const epoch = () => Math.floor(Date.now() / 1000);

/**
 * The app asked to come back to an address the client does not have: sign-in (redirect_uri) or sign-out
 * (post_logout_redirect_uri) started from another host than PUBLIC_URL.
 */
function isWrongAddress(out: { error: string; error_description?: string }): boolean {
  return (
    out.error === 'invalid_redirect_uri' ||
    (out.error === 'invalid_request' && out.error_description === 'post_logout_redirect_uri not registered')
  );
}

function localeOf(ctx: KoaContextWithOIDC) {
  let params: Record<string, unknown> | undefined;
  try {
    params = ctx.oidc?.params as Record<string, unknown> | undefined;
  } catch {
    params = undefined;
  }
  const query = ctx.query as Record<string, unknown>;
  return pickLocale(params?.kc_locale, params?.ui_locales, query.kc_locale, query.ui_locales);
}

/**
 * Gives a running provider a new signing key set (newest first: it signs with the first). oidc-provider reads its
 * keys only at construction and has no API to change them; this runs the same loader its constructor runs, which
 * replaces both the keys it signs and verifies with and the set its certs endpoint publishes. A test covers it, so a
 * version of oidc-provider that changes this fails there.
 */
export function replaceSigningKeys(provider: Provider, keys: readonly object[]): void {
  initializeKeystore.call(provider, { keys: structuredClone([...keys]) });
}

export function createProvider({ config, db, secrets, log }: ProviderDeps): Provider {
  const { idp } = config;
  const resource = `${config.publicUrl}/api`;
  const portalClientId = config.oidc.clientId;
  const { Check, Prompt } = interactionPolicy;

  // Policy: registration (prompt=create) first, then login, then email verification (kc_action), then consent.
  const policy = interactionPolicy.base();
  policy.add(new Prompt({ name: 'create', requestable: true }), 0);
  policy.add(
    new Prompt(
      { name: 'verify_email', requestable: false },
      new Check('kc_action_verify_email', 'email verification was requested', async (ctx) => {
        const { oidc } = ctx;
        const accountId = oidc.session?.accountId;
        if (oidc.params?.kc_action !== 'VERIFY_EMAIL' || !accountId) return Check.NO_NEED_TO_PROMPT;
        if (oidc.result?.verify_email) return Check.NO_NEED_TO_PROMPT;
        const identity = await findIdentityById(db, accountId);
        return identity && !identity.emailVerified ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT;
      }),
    ),
    policy.findIndex((prompt) => prompt.name === 'login') + 1,
  );

  const page = (ctx: KoaContextWithOIDC, status: number, html: string) => {
    ctx.status = status;
    ctx.type = 'html';
    ctx.set('cache-control', 'no-store');
    ctx.body = html;
  };

  /** A page in the request's language, its renderer given the translations and the way back to the portal. */
  const localisedPage = (
    ctx: KoaContextWithOIDC,
    render: (context: PageContext, t: Translate, home: { href: string; text: string }) => string,
  ) => {
    const locale = localeOf(ctx);
    const t = translator(locale);
    const home = homeLink(t, config.publicUrl, config.productName);
    page(
      ctx,
      200,
      render({ locale, productName: config.productName, logo: config.brand.logo?.path }, t, home),
    );
  };

  /** Logout without a confirmation page (as Keycloak): end the session, revoke its grants, go back. */
  async function logoutNow(ctx: KoaContextWithOIDC) {
    const session = ctx.oidc.session!;
    const params = ctx.oidc.params ?? {};
    await endSession(db, session);
    ctx.oidc.cookies.set(provider.cookieName('session'), null, configuration.cookies!.long);
    const target =
      typeof params.post_logout_redirect_uri === 'string'
        ? new URL(params.post_logout_redirect_uri)
        : new URL(ctx.oidc.urlFor('end_session_success'));
    if (typeof params.post_logout_redirect_uri === 'string' && typeof params.state === 'string') {
      target.searchParams.set('state', params.state);
    }
    ctx.state.portalLoggedOut = true;
    ctx.status = 303;
    ctx.redirect(target.href);
  }

  const configuration: Configuration = {
    adapter: (name: string) => new DbAdapter(db, name),
    clients: [
      {
        ...CODE_FLOW_CLIENT,
        client_id: portalClientId,
        client_name: config.productName,
        token_endpoint_auth_method: 'none',
        redirect_uris: [`${config.publicUrl}/oauthcb`],
        // After logout: the portal's root (with or without the slash), or /oauthcb, keycloak-js' default target.
        post_logout_redirect_uris: [`${config.publicUrl}/`, config.publicUrl, `${config.publicUrl}/oauthcb`],
      },
    ],
    jwks: { keys: secrets.signingKeys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: realmCookies(secrets.cookieKeys, REALM_PATH),
    // `amr` (RFC 8176) in every ID token tells how the person signed in: `pwd`, or with a second factor `otp`/`mfa`.
    claims: { ...SCOPE_CLAIMS, openid: [...SCOPE_CLAIMS.openid, 'amr'] },
    scopes: [...PORTAL_SCOPES, 'offline_access'],
    conformIdTokenClaims: false,
    // `invitation`: the token of the invitation link the sign-in started from; registering through it with the
    // invited address proves that address (registration.ts, decision 193).
    extraParams: ['kc_locale', 'kc_action', 'invitation'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    // The SPA calls the token endpoint with fetch (Origin header): allow the client's own origin only.
    clientBasedCORS: (_ctx, origin, client) =>
      (client.redirectUris ?? []).some((uri) => new URL(uri).origin === origin),
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // A link anyone could send must not sign a person out: only the id token of the signed-in person (which
        // the app's own logout sends, the provider has verified its signature) skips the question.
        logoutSource: async (ctx, form) => {
          const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
          if (hint?.payload?.sub !== undefined && hint.payload.sub === ctx.oidc.session?.accountId) {
            return logoutNow(ctx);
          }
          localisedPage(ctx, (context, _t, cancel) => logoutConfirmPage(context, { form, cancel }));
          ctx.state.portalLogoutAsked = true;
        },
        postLogoutSuccessSource: async (ctx) =>
          localisedPage(ctx, (context, t, link) =>
            messagePage(context, {
              title: t('signedOutTitle'),
              alert: { kind: 'success', text: t('signedOut') },
              link,
            }),
          ),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => (oneOf?.length ? oneOf[0]! : resource),
        // Tokens from the refresh grant keep the API audience (keycloak-js sends no resource parameter).
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: PORTAL_SCOPES.join(' '),
            audience: config.oidc.audience,
            accessTokenTTL: idp.accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    findAccount: async (_ctx, sub) => {
      // Read on every use, so a change (e.g. email verified) shows in the next token.
      const identity = await findIdentityById(db, sub);
      if (!identity) return undefined;
      return { accountId: identity.id, claims: () => identityClaims(identity) };
    },
    extraTokenClaims: async (ctx, token) => {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      if (!accountId) return undefined;
      const identity = await findIdentityById(db, accountId);
      if (!identity) return undefined;
      const { sub: _sub, ...claims } = identityClaims(identity);
      // `sid` names the sign-in session the token belongs to (its uid), so the API can tell "this session" apart
      // from the person's others (the sessions list, signing out everywhere else).
      const sessionUid = 'sessionUid' in token ? token.sessionUid : undefined;
      // `amr` as in the ID token (from the code or refresh token it was issued for), so the API sees how the person
      // signed in.
      const { AuthorizationCode: code, RefreshToken: refresh } = ctx?.oidc.entities ?? {};
      const amr = code?.amr ?? refresh?.amr;
      return {
        ...claims,
        azp: token.clientId,
        ...(sessionUid ? { sid: sessionUid } : {}),
        ...(amr ? { amr } : {}),
      };
    },
    // keycloak-js never asks for offline_access, so issue refresh tokens to every client allowed the grant.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // First-party client: no consent page; its grant covers every portal scope.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (client.clientId !== portalClientId) return existing;
      const grant =
        existing && existing.accountId === session.accountId
          ? existing
          : new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId! });
      grant.addOIDCScope(PORTAL_SCOPES.join(' '));
      grant.addResourceScope(resource, PORTAL_SCOPES.join(' '));
      await grant.save();
      return grant;
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `${REALM_PATH}/login-actions/${interaction.uid}`,
    },
    renderError: async (ctx, out, error) => {
      const locale = localeOf(ctx);
      const t = translator(locale);
      const context = { locale, productName: config.productName, logo: config.brand.logo?.path };
      if (isWrongAddress(out)) {
        // The app was opened at another address than PUBLIC_URL (localhost vs 127.0.0.1): name the right one.
        const url = config.publicUrl;
        page(
          ctx,
          ctx.status || 400,
          messagePage(context, {
            title: t('wrongAddressTitle'),
            alert: { kind: 'error', text: t('wrongAddress', { product: config.productName, url }) },
            link: { href: `${url}/`, text: t('openAddress', { url }) },
          }),
        );
        return;
      }
      const expired = error instanceof errors.SessionNotFound;
      page(
        ctx,
        ctx.status || 400,
        messagePage(context, {
          title: t('errorTitle'),
          alert: { kind: 'error', text: expired ? t('sessionExpired') : t('errorText') },
          detail: expired ? undefined : [out.error, out.error_description].filter(Boolean).join(': '),
          link: homeLink(t, config.publicUrl, config.productName),
        }),
      );
    },
    routes: ROUTES,
    ttl: {
      AccessToken: idp.accessTokenTtl,
      IdToken: idp.accessTokenTtl,
      AuthorizationCode: 60,
      Interaction: 60 * 60,
      Grant: idp.ssoSessionMax,
      // Rotation keeps the first token's end (no endless chains); the session bounds it anyway.
      RefreshToken: (ctx) => {
        const rotated = ctx?.oidc?.entities.RotatedRefreshToken;
        return rotated ? Math.max(1, rotated.remainingTTL) : idp.ssoSessionMax;
      },
      // SSO Session Idle, within SSO Session Max from the login.
      Session: (_ctx, session) => {
        const untilMax = session.loginTs ? session.loginTs + idp.ssoSessionMax - epoch() : idp.ssoSessionMax;
        return Math.max(1, Math.min(idp.ssoSessionIdle, untilMax));
      },
    },
  };

  const provider = new Provider(config.oidc.issuer, configuration);
  // The provider takes scheme, host and client address from the forwarded headers, which the handoff from Fastify
  // (idp/index.ts) always overwrites with Fastify's own values: an untrusted client's headers never get here.
  provider.proxy = true;

  // keycloak-js decodes the refresh token like a JWT: make its id "header.payload.random" (still opaque here).
  // (generateTokenId is the model's id factory; the typings do not declare it.)
  type RefreshTokenModel = InstanceType<typeof provider.RefreshToken>;
  const prototype = provider.RefreshToken.prototype as RefreshTokenModel & {
    generateTokenId(this: RefreshTokenModel): string;
  };
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const generateOpaqueId = prototype.generateTokenId;
  prototype.generateTokenId = function generateTokenId(this: RefreshTokenModel) {
    const iat = epoch();
    const payload = {
      iat,
      exp: this.exp ?? iat + this.remainingTTL,
      jti: crypto.randomUUID(),
      iss: config.oidc.issuer,
      aud: config.oidc.issuer,
      sub: this.accountId,
      typ: 'Refresh',
      azp: this.clientId,
      sid: this.sid,
      scope: this.scope,
    };
    return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.${generateOpaqueId.call(this)}`;
  };

  provider.use(async (ctx, next) => {
    await next();
    // The provider's own pages (e.g. the auto-submitting form ending a session) link the icon as ours do, so
    // browsers do not ask for /favicon.ico.
    if (ctx.response.is('html') && typeof ctx.body === 'string' && !ctx.body.includes('rel="icon"')) {
      ctx.body = ctx.body.replace('<head>', `<head>\n${ICON_LINK}`);
    }
    const oidc = (ctx as KoaContextWithOIDC).oidc as KoaContextWithOIDC['oidc'] | undefined;
    if (!oidc) return;
    // end_session without a signed-in session answers with an auto-submitting form: just go back instead.
    if (
      oidc.route === 'end_session' &&
      ctx.status === 200 &&
      !ctx.state.portalLoggedOut &&
      !ctx.state.portalLogoutAsked
    ) {
      await logoutNow(ctx as KoaContextWithOIDC);
    }
    // The browser and address a session is used from, and when (the person's sessions list): at the authorization
    // endpoint when it signs a client in, and on each token refresh, which also keeps the SSO session alive
    // (Keycloak's SSO Session Idle) in the same single write.
    const activity = { userAgent: ctx.get('user-agent'), clientAddress: ctx.ip };
    if ((oidc.route === 'resume' || oidc.route === 'authorization') && oidc.session?.accountId) {
      await recordSessionUse(db, oidc.session.uid, activity);
    }
    if (oidc.route === 'token' && ctx.status === 200) {
      const sessionUid =
        oidc.entities.RefreshToken?.sessionUid ?? oidc.entities.AuthorizationCode?.sessionUid;
      if (sessionUid) {
        await recordSessionUse(db, sessionUid, activity, {
          idleSeconds: idp.ssoSessionIdle,
          maxSeconds: idp.ssoSessionMax,
        });
      }
    }
  });

  provider.on('server_error', (_ctx, error) => log.error({ err: error }, 'identity provider error'));
  provider.on('grant.revoked', (_ctx, grantId) => log.info({ grantId }, 'grant revoked'));
  return provider;
}
