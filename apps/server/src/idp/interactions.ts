import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import { endIdentitySessions } from './adapter.ts';
import {
  ACTION_TTL,
  consumeActionToken,
  createActionToken,
  peekActionToken,
  sentRecently,
  type ActionKind,
} from './action-tokens.ts';
import type { BruteForceGuard } from './brute-force.ts';
import { formatWait, pickLocale, translator, type Locale, type Translate } from './i18n.ts';
import {
  createIdentity,
  EmailTakenError,
  findIdentityByEmail,
  findIdentityById,
  isValidEmail,
  markEmailVerified,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  setPassword,
  verifyPassword,
  type Identity,
} from './identities.ts';
import { IDP_CSP } from './provider.ts';
import {
  escapeHtml,
  forgotPage,
  loginPage,
  messagePage,
  REALM_PATH,
  registerPage,
  resetPage,
  verifyEmailPage,
  type Alert,
  type PageContext,
  type RegisterValues,
} from './views.ts';

export interface InteractionDeps {
  provider: Provider;
  config: Config;
  db: Db;
  mailer: Mailer;
  guard: BruteForceGuard;
}

type Body = Record<string, string | undefined>;
type Req = FastifyRequest<{ Params: { uid: string }; Querystring: Body; Body: Body | undefined }>;
type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** A mail link may be requested again only after this many seconds. */
const MAIL_INTERVAL_SECONDS = 60;

export const interactionPath = (uid: string) => `${REALM_PATH}/login-actions/${encodeURIComponent(uid)}`;

export function sendPage(reply: FastifyReply, html: string, status = 200) {
  return (
    reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', IDP_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      // Links carry one-time keys: never leak them in a Referer.
      .header('referrer-policy', 'no-referrer')
      .send(html)
  );
}

export function registerInteractionRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  const { provider, config, db, mailer, guard } = deps;
  const product = config.productName;
  const bf = config.idp.bruteForce;

  const field = (body: Body | undefined, name: string) => String(body?.[name] ?? '');

  async function interactionFor(request: Req, reply: FastifyReply): Promise<Interaction | undefined> {
    try {
      const interaction = await provider.interactionDetails(request.raw, reply.raw);
      return interaction.uid === request.params.uid ? interaction : undefined;
    } catch {
      return undefined;
    }
  }

  function localeFor(request: Req, interaction?: Interaction): Locale {
    const params = interaction?.params ?? {};
    return pickLocale(request.body?.kc_locale, request.query.kc_locale, params.kc_locale, params.ui_locales);
  }

  const pageContext = (locale: Locale, selfPath?: string): PageContext => ({
    locale,
    productName: product,
    selfPath,
  });
  const withLocale = (path: string, locale: Locale) => `${path}?kc_locale=${locale}`;
  const home = (t: Translate) => ({ href: `${config.publicUrl}/`, text: t('continueTo', { product }) });

  function expired(reply: FastifyReply, locale: Locale) {
    const t = translator(locale);
    return sendPage(
      reply,
      messagePage(pageContext(locale), {
        title: t('errorTitle'),
        alert: { kind: 'error', text: t('sessionExpired') },
        link: home(t),
      }),
      400,
    );
  }

  async function finish(request: Req, reply: FastifyReply, result: InteractionResults) {
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result);
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  }

  /** Unsafe requests must come from our own pages (the interaction cookie is SameSite=Lax as well). */
  function foreignOrigin(request: Req): boolean {
    const origin = request.headers.origin;
    return typeof origin === 'string' && origin !== 'null' && origin !== new URL(config.publicUrl).origin;
  }

  async function sendActionMail(kind: ActionKind, identity: Identity, uid: string) {
    const token = await createActionToken(db, kind, identity);
    const path = kind === 'verify-email' ? 'verify-email' : 'reset';
    const link = `${config.publicUrl}${interactionPath(uid)}/${path}?key=${token}&kc_locale=${identity.locale}`;
    const t = translator(identity.locale);
    const ttl = ACTION_TTL[kind];
    const duration =
      ttl >= 3600 ? t('durationHours', { count: ttl / 3600 }) : t('durationMinutes', { count: ttl / 60 });
    const subject = kind === 'verify-email' ? t('mailVerifySubject') : t('mailResetSubject');
    const intro =
      kind === 'verify-email' ? t('mailVerifyBody', { product }) : t('mailResetBody', { product });
    const action = kind === 'verify-email' ? t('mailVerifyAction') : t('mailResetAction');
    const greeting = t('mailGreeting', { name: identity.name || identity.email });
    const closing = [t('mailValidity', { duration }), t('mailIgnore')];
    const text = [greeting, '', intro, link, '', ...closing, '', `— ${product}`].join('\n');
    const html = `<!doctype html><html lang="${identity.locale}"><body>
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>
<p>${closing.map(escapeHtml).join('<br>')}</p><p>— ${escapeHtml(product)}</p>
</body></html>`;
    await mailer.send({ to: identity.email, subject: `${product}: ${subject}`, text, html });
  }

  // --- the interaction page: what it shows depends on the pending prompt -------------------------------

  function renderLogin(
    reply: FastifyReply,
    interaction: Interaction,
    locale: Locale,
    extra: { username?: string; alert?: Alert; status?: number } = {},
  ) {
    const base = interactionPath(interaction.uid);
    const hint =
      typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined;
    return sendPage(
      reply,
      loginPage(pageContext(locale, `${base}/login`), {
        action: `${base}/login`,
        registerUrl: withLocale(`${base}/register`, locale),
        forgotUrl: withLocale(`${base}/forgot`, locale),
        username: extra.username ?? hint,
        alert: extra.alert,
      }),
      extra.status,
    );
  }

  function renderRegister(
    reply: FastifyReply,
    interaction: Interaction,
    locale: Locale,
    extra: {
      values?: RegisterValues;
      errors?: Parameters<typeof registerPage>[1]['errors'];
      status?: number;
    } = {},
  ) {
    const base = interactionPath(interaction.uid);
    return sendPage(
      reply,
      registerPage(pageContext(locale, `${base}/register`), {
        action: `${base}/register`,
        loginUrl: withLocale(`${base}/login`, locale),
        values: extra.values,
        errors: extra.errors,
        passwordMin: PASSWORD_MIN_LENGTH,
      }),
      extra.status,
    );
  }

  async function renderVerify(reply: FastifyReply, interaction: Interaction, locale: Locale, alert?: Alert) {
    const identity = interaction.session?.accountId
      ? await findIdentityById(db, interaction.session.accountId)
      : undefined;
    if (!identity) return expired(reply, locale);
    const base = interactionPath(interaction.uid);
    return sendPage(
      reply,
      verifyEmailPage(pageContext(locale, base), {
        email: identity.email,
        resendAction: `${base}/verify-email/resend`,
        continueAction: `${base}/verify-email/continue`,
        alert,
      }),
    );
  }

  /** First-party client only: grant what the consent prompt misses, without asking (no consent page). */
  async function autoConsent(request: Req, reply: FastifyReply, interaction: Interaction) {
    const { accountId } = interaction.session ?? {};
    const clientId = String(interaction.params.client_id);
    if (!accountId || clientId !== config.oidc.clientId)
      return expired(reply, localeFor(request, interaction));
    const grant = interaction.grantId
      ? await provider.Grant.find(interaction.grantId)
      : new provider.Grant({ accountId, clientId });
    if (!grant) return expired(reply, localeFor(request, interaction));
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    return finish(request, reply, { consent: { grantId: await grant.save() } });
  }

  app.get<{ Params: { uid: string }; Querystring: Body }>(
    '/realms/portal/login-actions/:uid',
    async (request, reply) => {
      const req = request as Req;
      const interaction = await interactionFor(req, reply);
      if (!interaction) return expired(reply, localeFor(req));
      const locale = localeFor(req, interaction);
      switch (interaction.prompt.name) {
        case 'create':
          return renderRegister(reply, interaction, locale);
        case 'verify_email': {
          const identity = interaction.session?.accountId
            ? await findIdentityById(db, interaction.session.accountId)
            : undefined;
          if (identity && !(await sentRecently(db, 'verify-email', identity.id, MAIL_INTERVAL_SECONDS))) {
            await sendActionMail('verify-email', identity, interaction.uid);
          }
          return renderVerify(reply, interaction, locale);
        }
        case 'consent':
          return autoConsent(req, reply, interaction);
        default:
          return renderLogin(reply, interaction, locale);
      }
    },
  );

  // --- login ---------------------------------------------------------------------------------------------

  app.get<{ Params: { uid: string }; Querystring: Body }>(
    '/realms/portal/login-actions/:uid/login',
    async (request, reply) => {
      const req = request as Req;
      const interaction = await interactionFor(req, reply);
      if (!interaction) return expired(reply, localeFor(req));
      return renderLogin(reply, interaction, localeFor(req, interaction));
    },
  );

  app.post<{ Params: { uid: string }; Body: Body }>(
    '/realms/portal/login-actions/:uid/login',
    async (request, reply) => {
      const req = request as Req;
      const interaction = await interactionFor(req, reply);
      if (!interaction || foreignOrigin(req)) return expired(reply, localeFor(req));
      const locale = localeFor(req, interaction);
      const t = translator(locale);
      const username = field(req.body, 'username').trim();
      const password = field(req.body, 'password');
      if (!username || !password) {
        return renderLogin(reply, interaction, locale, {
          username,
          alert: { kind: 'error', text: t('invalidCredentials') },
          status: 400,
        });
      }
      const lockout = (seconds: number) =>
        renderLogin(reply, interaction, locale, {
          username,
          alert: { kind: 'error', text: t('lockedOut', { wait: formatWait(t, locale, seconds) }) },
          status: 429,
        });

      const addressKey = guard.addressKey(req.ip);
      const known = await findIdentityByEmail(db, username);
      const lockedFor = await guard.lockedFor(
        known ? [addressKey, guard.identityKey(known.id)] : [addressKey],
      );
      if (lockedFor > 0) return lockout(lockedFor);

      const { identity, valid } = await verifyPassword(db, username, password);
      if (!identity || !valid) {
        const wait = await guard.recordFailure([
          { key: addressKey, threshold: bf.maxFailuresPerAddress },
          ...(identity
            ? [{ key: guard.identityKey(identity.id), threshold: bf.maxFailuresPerIdentity }]
            : []),
        ]);
        if (wait > 0) return lockout(wait);
        return renderLogin(reply, interaction, locale, {
          username,
          alert: { kind: 'error', text: t('invalidCredentials') },
        });
      }
      await guard.reset(guard.identityKey(identity.id));
      return finish(req, reply, {
        login: { accountId: identity.id, remember: false, amr: ['pwd'] },
        // Signing in from the registration page also settles prompt=create.
        create: {},
      });
    },
  );

  // --- registration --------------------------------------------------------------------------------------

  app.get<{ Params: { uid: string }; Querystring: Body }>(
    '/realms/portal/login-actions/:uid/register',
    async (request, reply) => {
      const req = request as Req;
      const interaction = await interactionFor(req, reply);
      if (!interaction) return expired(reply, localeFor(req));
      return renderRegister(reply, interaction, localeFor(req, interaction));
    },
  );

  app.post<{ Params: { uid: string }; Body: Body }>(
    '/realms/portal/login-actions/:uid/register',
    async (request, reply) => {
      const req = request as Req;
      const interaction = await interactionFor(req, reply);
      if (!interaction || foreignOrigin(req)) return expired(reply, localeFor(req));
      const locale = localeFor(req, interaction);
      const t = translator(locale);
      const values = {
        firstName: field(req.body, 'firstName').trim().slice(0, 100),
        lastName: field(req.body, 'lastName').trim().slice(0, 100),
        email: field(req.body, 'email').trim(),
      };
      const password = field(req.body, 'password');
      const confirm = field(req.body, 'password-confirm');
      const errors: Parameters<typeof registerPage>[1]['errors'] = {};
      if (!values.firstName) errors.firstName = t('required');
      if (!values.lastName) errors.lastName = t('required');
      if (!values.email) errors.email = t('required');
      else if (!isValidEmail(values.email)) errors.email = t('emailInvalid');
      if (password.length < PASSWORD_MIN_LENGTH)
        errors.password = t('passwordTooShort', { min: PASSWORD_MIN_LENGTH });
      else if (password.length > PASSWORD_MAX_LENGTH)
        errors.password = t('passwordTooLong', { max: PASSWORD_MAX_LENGTH });
      if (!confirm) errors['password-confirm'] = t('required');
      else if (confirm !== password) errors['password-confirm'] = t('passwordMismatch');
      if (!errors.email && (await findIdentityByEmail(db, values.email))) errors.email = t('emailTaken');
      if (Object.keys(errors).length > 0) {
        return renderRegister(reply, interaction, locale, { values, errors, status: 400 });
      }
      let identity: Identity;
      try {
        identity = await createIdentity(db, {
          email: values.email,
          name: `${values.firstName} ${values.lastName}`,
          password,
          locale,
        });
      } catch (error) {
        if (!(error instanceof EmailTakenError)) throw error;
        return renderRegister(reply, interaction, locale, {
          values,
          errors: { email: t('emailTaken') },
          status: 400,
        });
      }
      return finish(req, reply, {
        create: {},
        login: { accountId: identity.id, remember: false, amr: ['pwd'] },
      });
    },
  );

  // --- forgot password → mail → new password ---------------------------------------------------------------

  app.get<{ Params: { uid: string }; Querystring: Body }>(
    '/realms/portal/login-actions/:uid/forgot',
    async (request, reply) => {
      const req = request as Req;
      const interaction = await interactionFor(req, reply);
      if (!interaction) return expired(reply, localeFor(req));
      const locale = localeFor(req, interaction);
      const base = interactionPath(interaction.uid);
      return sendPage(
        reply,
        forgotPage(pageContext(locale, `${base}/forgot`), {
          action: `${base}/forgot`,
          loginUrl: withLocale(`${base}/login`, locale),
        }),
      );
    },
  );

  app.post<{ Params: { uid: string }; Body: Body }>(
    '/realms/portal/login-actions/:uid/forgot',
    async (request, reply) => {
      const req = request as Req;
      const interaction = await interactionFor(req, reply);
      if (!interaction || foreignOrigin(req)) return expired(reply, localeFor(req));
      const locale = localeFor(req, interaction);
      const t = translator(locale);
      const base = interactionPath(interaction.uid);
      const email = field(req.body, 'username').trim();
      const ctx = pageContext(locale, `${base}/forgot`);
      const loginUrl = withLocale(`${base}/login`, locale);
      if (!isValidEmail(email)) {
        return sendPage(
          reply,
          forgotPage(ctx, {
            action: `${base}/forgot`,
            loginUrl,
            email,
            alert: { kind: 'error', text: t('emailInvalid') },
          }),
          400,
        );
      }
      const identity = await findIdentityByEmail(db, email);
      // The answer is the same whether or not the address is known.
      if (identity && !(await sentRecently(db, 'reset-password', identity.id, MAIL_INTERVAL_SECONDS))) {
        await sendActionMail('reset-password', identity, interaction.uid);
      }
      return sendPage(
        reply,
        forgotPage(ctx, {
          action: `${base}/forgot`,
          loginUrl,
          sent: true,
          alert: { kind: 'success', text: t('forgotSent', { minutes: ACTION_TTL['reset-password'] / 60 }) },
        }),
      );
    },
  );

  // The link from the mail; works in any browser (the interaction is only used when it is still there).
  app.get<{ Params: { uid: string }; Querystring: Body }>(
    '/realms/portal/login-actions/:uid/reset',
    async (request, reply) => {
      const req = request as Req;
      const locale = localeFor(req);
      const t = translator(locale);
      const key = String(req.query.key ?? '');
      const owner = key ? await peekActionToken(db, 'reset-password', key) : undefined;
      const base = interactionPath(req.params.uid);
      if (!owner) {
        return sendPage(
          reply,
          messagePage(pageContext(locale), {
            title: t('resetTitle'),
            alert: { kind: 'error', text: t('linkInvalid') },
            link: home(t),
          }),
          400,
        );
      }
      return sendPage(
        reply,
        resetPage(pageContext(locale), { action: `${base}/reset`, key, passwordMin: PASSWORD_MIN_LENGTH }),
      );
    },
  );

  app.post<{ Params: { uid: string }; Body: Body }>(
    '/realms/portal/login-actions/:uid/reset',
    async (request, reply) => {
      const req = request as Req;
      const locale = localeFor(req);
      const t = translator(locale);
      if (foreignOrigin(req)) return expired(reply, locale);
      const key = field(req.body, 'key');
      const password = field(req.body, 'password');
      const confirm = field(req.body, 'password-confirm');
      const base = interactionPath(req.params.uid);
      const invalidLink = () =>
        sendPage(
          reply,
          messagePage(pageContext(locale), {
            title: t('resetTitle'),
            alert: { kind: 'error', text: t('linkInvalid') },
            link: home(t),
          }),
          400,
        );
      const errors: { password?: string; 'password-confirm'?: string } = {};
      if (password.length < PASSWORD_MIN_LENGTH)
        errors.password = t('passwordTooShort', { min: PASSWORD_MIN_LENGTH });
      else if (password.length > PASSWORD_MAX_LENGTH)
        errors.password = t('passwordTooLong', { max: PASSWORD_MAX_LENGTH });
      if (confirm !== password) errors['password-confirm'] = confirm ? t('passwordMismatch') : t('required');
      if (Object.keys(errors).length > 0) {
        if (!key || !(await peekActionToken(db, 'reset-password', key))) return invalidLink();
        return sendPage(
          reply,
          resetPage(pageContext(locale), {
            action: `${base}/reset`,
            key,
            errors,
            passwordMin: PASSWORD_MIN_LENGTH,
          }),
          400,
        );
      }
      const owner = key ? await consumeActionToken(db, 'reset-password', key) : undefined;
      if (!owner) return invalidLink();
      await setPassword(db, owner.identityId, password);
      // Whoever knew the old password is signed out everywhere.
      await endIdentitySessions(db, owner.identityId);
      // Opening the mailed link proved the address.
      await markEmailVerified(db, owner.identityId, owner.email);
      await guard.reset(guard.identityKey(owner.identityId));

      const interaction = await interactionFor(req, reply);
      if (interaction && interaction.prompt.name === 'login') {
        return finish(req, reply, {
          login: { accountId: owner.identityId, remember: false, amr: ['pwd'] },
          create: {},
        });
      }
      return sendPage(
        reply,
        messagePage(pageContext(locale), {
          title: t('resetTitle'),
          alert: { kind: 'success', text: t('passwordChanged') },
          link: home(t),
        }),
      );
    },
  );

  // --- email verification (kc_action=VERIFY_EMAIL) ------------------------------------------------------------

  app.get<{ Params: { uid: string }; Querystring: Body }>(
    '/realms/portal/login-actions/:uid/verify-email',
    async (request, reply) => {
      const req = request as Req;
      const locale = localeFor(req);
      const t = translator(locale);
      const key = String(req.query.key ?? '');
      const owner = key ? await consumeActionToken(db, 'verify-email', key) : undefined;
      const verified = owner ? await markEmailVerified(db, owner.identityId, owner.email) : false;
      if (!verified) {
        return sendPage(
          reply,
          messagePage(pageContext(locale), {
            title: t('verifyTitle'),
            alert: { kind: 'error', text: t('linkInvalid') },
            link: home(t),
          }),
          400,
        );
      }
      // Same browser, flow still open: continue straight back to the app.
      const interaction = await interactionFor(req, reply);
      if (
        interaction &&
        interaction.prompt.name === 'verify_email' &&
        interaction.session?.accountId === owner!.identityId
      ) {
        return finish(req, reply, { verify_email: { verified: true } });
      }
      return sendPage(
        reply,
        messagePage(pageContext(locale), {
          title: t('verifyTitle'),
          alert: { kind: 'success', text: t('verifyDone') },
          link: home(t),
        }),
      );
    },
  );

  app.post<{ Params: { uid: string }; Body: Body }>(
    '/realms/portal/login-actions/:uid/verify-email/continue',
    async (request, reply) => {
      const req = request as Req;
      const interaction = await interactionFor(req, reply);
      if (!interaction || foreignOrigin(req) || interaction.prompt.name !== 'verify_email') {
        return expired(reply, localeFor(req));
      }
      const locale = localeFor(req, interaction);
      const identity = interaction.session?.accountId
        ? await findIdentityById(db, interaction.session.accountId)
        : undefined;
      if (identity?.emailVerified) return finish(req, reply, { verify_email: { verified: true } });
      return renderVerify(reply, interaction, locale, {
        kind: 'error',
        text: translator(locale)('verifyNotYet'),
      });
    },
  );

  app.post<{ Params: { uid: string }; Body: Body }>(
    '/realms/portal/login-actions/:uid/verify-email/resend',
    async (request, reply) => {
      const req = request as Req;
      const interaction = await interactionFor(req, reply);
      if (!interaction || foreignOrigin(req) || interaction.prompt.name !== 'verify_email') {
        return expired(reply, localeFor(req));
      }
      const locale = localeFor(req, interaction);
      const t = translator(locale);
      const identity = interaction.session?.accountId
        ? await findIdentityById(db, interaction.session.accountId)
        : undefined;
      if (!identity) return expired(reply, locale);
      if (await sentRecently(db, 'verify-email', identity.id, MAIL_INTERVAL_SECONDS)) {
        return renderVerify(reply, interaction, locale, { kind: 'info', text: t('tooManyMails') });
      }
      await sendActionMail('verify-email', identity, interaction.uid);
      return renderVerify(reply, interaction, locale, { kind: 'success', text: t('verifyResent') });
    },
  );
}
