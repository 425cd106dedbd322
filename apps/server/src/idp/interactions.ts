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
import type { Language } from '@portal/contract';
import { formatWait, pickLocale, translator, type Messages, type Translate } from './i18n.ts';
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
import { escapeHtml } from '../http/html.ts';
import {
  forgotPage,
  homeLink,
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
type RegisterErrors = NonNullable<Parameters<typeof registerPage>[1]['errors']>;
type ResetErrors = NonNullable<Parameters<typeof resetPage>[1]['errors']>;
type MessageKey = keyof Messages;

/** A mail link may be requested again only after this many seconds. */
const MAIL_INTERVAL_SECONDS = 60;

export const interactionPath = (uid: string) => `${REALM_PATH}/login-actions/${encodeURIComponent(uid)}`;

export function sendPage(reply: FastifyReply, html: string, status = 200) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
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

  function localeFor(request: Req, interaction?: Interaction): Language {
    const params = interaction?.params ?? {};
    return pickLocale(request.body?.kc_locale, request.query.kc_locale, params.kc_locale, params.ui_locales);
  }

  const pageContext = (locale: Language, selfPath?: string): PageContext => ({
    locale,
    productName: product,
    selfPath,
  });
  const withLocale = (path: string, locale: Language) => `${path}?kc_locale=${locale}`;

  /** A page with one message and a link home. */
  function notice(
    reply: FastifyReply,
    locale: Language,
    o: { title: MessageKey; kind: Alert['kind']; text: MessageKey; status?: number },
  ) {
    const t = translator(locale);
    return sendPage(
      reply,
      messagePage(pageContext(locale), {
        title: t(o.title),
        alert: { kind: o.kind, text: t(o.text) },
        link: homeLink(t, config.publicUrl, product),
      }),
      o.status,
    );
  }

  const expired = (reply: FastifyReply, locale: Language) =>
    notice(reply, locale, { title: 'errorTitle', kind: 'error', text: 'sessionExpired', status: 400 });

  /** The identity signed in on this interaction (after login, before the flow is finished). */
  const sessionIdentity = (interaction: Interaction) =>
    interaction.session?.accountId ? findIdentityById(db, interaction.session.accountId) : undefined;

  /** Too short or too long: the error to show at the password field, if any. */
  function passwordError(t: Translate, password: string): string | undefined {
    if (password.length < PASSWORD_MIN_LENGTH) return t('passwordTooShort', { min: PASSWORD_MIN_LENGTH });
    if (password.length > PASSWORD_MAX_LENGTH) return t('passwordTooLong', { max: PASSWORD_MAX_LENGTH });
    return undefined;
  }

  /**
   * A page of the pending interaction `uid`: without it (gone, or another one in this browser), from another
   * origin (POST) or at another prompt than `prompt`, the answer is the expired page.
   */
  function interactionRoute(
    method: 'GET' | 'POST',
    page: string,
    handle: (req: Req, reply: FastifyReply, interaction: Interaction, locale: Language) => Promise<unknown>,
    prompt?: string,
  ) {
    app.route({
      method,
      url: `${REALM_PATH}/login-actions/:uid${page}`,
      handler: async (request, reply) => {
        const req = request as Req;
        const interaction = await interactionFor(req, reply);
        if (
          !interaction ||
          (method === 'POST' && foreignOrigin(req)) ||
          (prompt && interaction.prompt.name !== prompt)
        ) {
          return expired(reply, localeFor(req));
        }
        return handle(req, reply, interaction, localeFor(req, interaction));
      },
    });
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
    locale: Language,
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
    locale: Language,
    extra: {
      values?: RegisterValues;
      errors?: RegisterErrors;
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

  function renderForgot(
    reply: FastifyReply,
    interaction: Interaction,
    locale: Language,
    extra: { email?: string; alert?: Alert; sent?: boolean; status?: number } = {},
  ) {
    const base = interactionPath(interaction.uid);
    return sendPage(
      reply,
      forgotPage(pageContext(locale, `${base}/forgot`), {
        action: `${base}/forgot`,
        loginUrl: withLocale(`${base}/login`, locale),
        email: extra.email,
        alert: extra.alert,
        sent: extra.sent,
      }),
      extra.status,
    );
  }

  async function renderVerify(
    reply: FastifyReply,
    interaction: Interaction,
    locale: Language,
    alert?: Alert,
  ) {
    const identity = await sessionIdentity(interaction);
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

  function renderReset(
    reply: FastifyReply,
    uid: string,
    locale: Language,
    key: string,
    errors?: ResetErrors,
  ) {
    return sendPage(
      reply,
      resetPage(pageContext(locale), {
        action: `${interactionPath(uid)}/reset`,
        key,
        errors,
        passwordMin: PASSWORD_MIN_LENGTH,
      }),
      errors ? 400 : 200,
    );
  }

  /** First-party client only: grant what the consent prompt misses, without asking (no consent page). */
  async function autoConsent(request: Req, reply: FastifyReply, interaction: Interaction, locale: Language) {
    const { accountId } = interaction.session ?? {};
    const clientId = String(interaction.params.client_id);
    if (!accountId || clientId !== config.oidc.clientId) return expired(reply, locale);
    const grant = interaction.grantId
      ? await provider.Grant.find(interaction.grantId)
      : new provider.Grant({ accountId, clientId });
    if (!grant) return expired(reply, locale);
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

  interactionRoute('GET', '', async (req, reply, interaction, locale) => {
    switch (interaction.prompt.name) {
      case 'create':
        return renderRegister(reply, interaction, locale);
      case 'verify_email': {
        const identity = await sessionIdentity(interaction);
        if (identity && !(await sentRecently(db, 'verify-email', identity.id, MAIL_INTERVAL_SECONDS))) {
          await sendActionMail('verify-email', identity, interaction.uid);
        }
        return renderVerify(reply, interaction, locale);
      }
      case 'consent':
        return autoConsent(req, reply, interaction, locale);
      default:
        return renderLogin(reply, interaction, locale);
    }
  });

  // --- login ---------------------------------------------------------------------------------------------

  interactionRoute('GET', '/login', async (_req, reply, interaction, locale) =>
    renderLogin(reply, interaction, locale),
  );

  interactionRoute('POST', '/login', async (req, reply, interaction, locale) => {
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
    const lockedFor = await guard.lockedFor(known ? [addressKey, guard.identityKey(known.id)] : [addressKey]);
    if (lockedFor > 0) return lockout(lockedFor);

    const { identity, valid } = await verifyPassword(db, username, password);
    if (!identity || !valid) {
      const wait = await guard.recordFailure([
        { key: addressKey, threshold: bf.maxFailuresPerAddress },
        ...(identity ? [{ key: guard.identityKey(identity.id), threshold: bf.maxFailuresPerIdentity }] : []),
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
  });

  // --- registration --------------------------------------------------------------------------------------

  interactionRoute('GET', '/register', async (_req, reply, interaction, locale) =>
    renderRegister(reply, interaction, locale),
  );

  interactionRoute('POST', '/register', async (req, reply, interaction, locale) => {
    const t = translator(locale);
    const values = {
      firstName: field(req.body, 'firstName').trim().slice(0, 100),
      lastName: field(req.body, 'lastName').trim().slice(0, 100),
      email: field(req.body, 'email').trim(),
    };
    const password = field(req.body, 'password');
    const confirm = field(req.body, 'password-confirm');
    const errors: RegisterErrors = {};
    if (!values.firstName) errors.firstName = t('required');
    if (!values.lastName) errors.lastName = t('required');
    if (!values.email) errors.email = t('required');
    else if (!isValidEmail(values.email)) errors.email = t('emailInvalid');
    errors.password = passwordError(t, password);
    if (!confirm) errors['password-confirm'] = t('required');
    else if (confirm !== password) errors['password-confirm'] = t('passwordMismatch');
    if (!errors.email && (await findIdentityByEmail(db, values.email))) errors.email = t('emailTaken');
    if (Object.values(errors).some(Boolean)) {
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
  });

  // --- forgot password → mail → new password ---------------------------------------------------------------

  interactionRoute('GET', '/forgot', async (_req, reply, interaction, locale) =>
    renderForgot(reply, interaction, locale),
  );

  interactionRoute('POST', '/forgot', async (req, reply, interaction, locale) => {
    const t = translator(locale);
    const email = field(req.body, 'username').trim();
    if (!isValidEmail(email)) {
      return renderForgot(reply, interaction, locale, {
        email,
        alert: { kind: 'error', text: t('emailInvalid') },
        status: 400,
      });
    }
    const identity = await findIdentityByEmail(db, email);
    // The answer is the same whether or not the address is known.
    if (identity && !(await sentRecently(db, 'reset-password', identity.id, MAIL_INTERVAL_SECONDS))) {
      await sendActionMail('reset-password', identity, interaction.uid);
    }
    return renderForgot(reply, interaction, locale, {
      sent: true,
      alert: { kind: 'success', text: t('forgotSent', { minutes: ACTION_TTL['reset-password'] / 60 }) },
    });
  });

  const invalidResetLink = (reply: FastifyReply, locale: Language) =>
    notice(reply, locale, { title: 'resetTitle', kind: 'error', text: 'linkInvalid', status: 400 });

  // The link from the mail; works in any browser (the interaction is only used when it is still there).
  app.get<{ Params: { uid: string }; Querystring: Body }>(
    `${REALM_PATH}/login-actions/:uid/reset`,
    async (request, reply) => {
      const req = request as Req;
      const locale = localeFor(req);
      const key = String(req.query.key ?? '');
      const owner = key ? await peekActionToken(db, 'reset-password', key) : undefined;
      if (!owner) return invalidResetLink(reply, locale);
      return renderReset(reply, req.params.uid, locale, key);
    },
  );

  app.post<{ Params: { uid: string }; Body: Body }>(
    `${REALM_PATH}/login-actions/:uid/reset`,
    async (request, reply) => {
      const req = request as Req;
      const locale = localeFor(req);
      const t = translator(locale);
      if (foreignOrigin(req)) return expired(reply, locale);
      const key = field(req.body, 'key');
      const password = field(req.body, 'password');
      const confirm = field(req.body, 'password-confirm');
      const errors: ResetErrors = { password: passwordError(t, password) };
      if (confirm !== password) errors['password-confirm'] = confirm ? t('passwordMismatch') : t('required');
      if (Object.values(errors).some(Boolean)) {
        if (!key || !(await peekActionToken(db, 'reset-password', key)))
          return invalidResetLink(reply, locale);
        return renderReset(reply, req.params.uid, locale, key, errors);
      }
      const owner = key ? await consumeActionToken(db, 'reset-password', key) : undefined;
      if (!owner) return invalidResetLink(reply, locale);
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
      return notice(reply, locale, { title: 'resetTitle', kind: 'success', text: 'passwordChanged' });
    },
  );

  // --- email verification (kc_action=VERIFY_EMAIL) ------------------------------------------------------------

  app.get<{ Params: { uid: string }; Querystring: Body }>(
    `${REALM_PATH}/login-actions/:uid/verify-email`,
    async (request, reply) => {
      const req = request as Req;
      const locale = localeFor(req);
      const key = String(req.query.key ?? '');
      const owner = key ? await consumeActionToken(db, 'verify-email', key) : undefined;
      const verified = owner ? await markEmailVerified(db, owner.identityId, owner.email) : false;
      if (!owner || !verified) {
        return notice(reply, locale, {
          title: 'verifyTitle',
          kind: 'error',
          text: 'linkInvalid',
          status: 400,
        });
      }
      // Same browser, flow still open: continue straight back to the app.
      const interaction = await interactionFor(req, reply);
      if (
        interaction &&
        interaction.prompt.name === 'verify_email' &&
        interaction.session?.accountId === owner.identityId
      ) {
        return finish(req, reply, { verify_email: { verified: true } });
      }
      return notice(reply, locale, { title: 'verifyTitle', kind: 'success', text: 'verifyDone' });
    },
  );

  interactionRoute(
    'POST',
    '/verify-email/continue',
    async (req, reply, interaction, locale) => {
      const identity = await sessionIdentity(interaction);
      if (identity?.emailVerified) return finish(req, reply, { verify_email: { verified: true } });
      return renderVerify(reply, interaction, locale, {
        kind: 'error',
        text: translator(locale)('verifyNotYet'),
      });
    },
    'verify_email',
  );

  interactionRoute(
    'POST',
    '/verify-email/resend',
    async (_req, reply, interaction, locale) => {
      const t = translator(locale);
      const identity = await sessionIdentity(interaction);
      if (!identity) return expired(reply, locale);
      if (await sentRecently(db, 'verify-email', identity.id, MAIL_INTERVAL_SECONDS)) {
        return renderVerify(reply, interaction, locale, { kind: 'info', text: t('tooManyMails') });
      }
      await sendActionMail('verify-email', identity, interaction.uid);
      return renderVerify(reply, interaction, locale, { kind: 'success', text: t('verifyResent') });
    },
    'verify_email',
  );
}
