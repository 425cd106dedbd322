import type { Language } from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import {
  checkNewPassword,
  checkPassword,
  type PasswordHint,
  type PasswordOwner,
} from '../access/password-policy.ts';
import { openInvitationByToken, type OpenInvitation } from '../access/invitations.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { acceptText, containsForbiddenText } from '../http/text.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Secrets } from '../secrets/secrets.ts';
import type { BruteForceGuard } from './brute-force.ts';
import { pickLocale, translator, type Messages, type Translate } from './i18n.ts';
import { findIdentityById, type Identity } from './identities.ts';
import { homeLink, messagePage, REALM_PATH, type Alert, type FlowLinks, type PageContext } from './views.ts';

/** The shared kit of the sign-in flows: their routes, the end of a flow, the page language and page sending. */

export interface InteractionDeps {
  provider: Provider;
  config: Config;
  db: Db;
  mailer: Mailer;
  guard: BruteForceGuard;
  /** Opens the second factors' stored secrets (the authenticator app's). */
  secrets: Secrets;
  /**
   * Another realm than the portal's (the embedded cloud): its path, the name its pages show, and sign-in only (no
   * registration or password reset there).
   */
  realm?: { path: string; productName: string };
}

/** A submitted form or a query string: any field may be missing. */
export type Form = Record<string, string | undefined>;
interface InteractionRoute {
  Params: { uid: string };
  Querystring: Form;
  Body: Form | undefined;
}
export type InteractionRequest = FastifyRequest<InteractionRoute>;
export type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** What the handler of a sign-in page gets: the request, its reply and the page's language. */
export interface PageCall {
  request: InteractionRequest;
  reply: FastifyReply;
  locale: Language;
  t: Translate;
}

/** A page of the pending interaction gets that interaction as well. */
export interface InteractionCall extends PageCall {
  interaction: Interaction;
}

export interface InteractionKit {
  readonly deps: InteractionDeps;
  /**
   * A page of the pending interaction `uid`: without it (gone, or another one in this browser), from another origin
   * (POST) or at another prompt than `prompt`, the answer is the expired page.
   */
  interactionRoute(
    method: 'GET' | 'POST',
    page: string,
    handle: (call: InteractionCall) => Promise<unknown>,
    prompt?: string,
  ): void;
  /**
   * A page a mailed link leads to: it works in any browser, with or without the interaction; a POST from another
   * origin gets the expired page.
   */
  linkRoute(method: 'GET' | 'POST', page: string, handle: (call: PageCall) => Promise<unknown>): void;
  /** The interaction of this browser, if it is still pending and is the one of the URL. */
  pendingInteraction(call: PageCall): Promise<Interaction | undefined>;
  /** Ends the interaction with `result` and sends the browser back to the provider. */
  finish(call: PageCall, result: InteractionResults): Promise<FastifyReply>;
  pageContext(locale: Language, selfPath?: string): PageContext;
  /** The path of page `page` (e.g. '/second-factor') of the call's interaction, without query. */
  pagePath(call: InteractionCall, page: string): string;
  /**
   * Sends the interaction's page `page` (e.g. '/login'): `render` gets the page context (its language links point
   * at this page) and the page's links (its form posts back to it; the flows' pages keep its language).
   */
  sendInteractionPage(
    call: InteractionCall,
    page: string,
    render: (ctx: PageContext, links: FlowLinks) => string,
    status?: number,
  ): FastifyReply;
  /** A page with one message and a link home. */
  notice(
    call: PageCall,
    o: { title: keyof Messages; kind: Alert['kind']; text: keyof Messages; status?: number },
  ): FastifyReply;
  /** The page of a flow that is gone: start again. */
  expired(call: PageCall): FastifyReply;
  /** The page for a form with characters the text rule refuses (control characters, unpaired surrogates). */
  refusedText(call: PageCall): FastifyReply;
  /** The identity signed in on this interaction (after login, before the flow is finished). */
  sessionIdentity(interaction: Interaction): Promise<Identity | undefined>;
}

export const interactionPath = (uid: string, realmPath = REALM_PATH) =>
  `${realmPath}/login-actions/${encodeURIComponent(uid)}`;

/** `path` in language `locale` (the pages' links keep the language). */
const withLocale = (path: string, locale: Language) => `${path}?kc_locale=${locale}`;

/**
 * A form field as the server's text rule accepts it (`http/text.ts`): NFC, and '' when missing or when it holds
 * characters the rule refuses (the page routes refuse such forms before their handler runs).
 */
export const field = (form: Form | undefined, name: string) => acceptText(String(form?.[name] ?? '')) ?? '';

const WEAK_HINTS: Record<PasswordHint, keyof Messages> = {
  common: 'passwordWeakCommon',
  keyboard: 'passwordWeakKeyboard',
  repeat: 'passwordWeakRepeat',
  sequence: 'passwordWeakSequence',
  date: 'passwordWeakDate',
  word: 'passwordWeakWord',
};

/**
 * Why the password policy refuses `password` of `owner`, in the page's language: the error at the password field.
 * With `isCurrent` (a new password for someone who has one), also when it is the current password.
 */
export async function passwordError(
  t: Translate,
  password: string,
  owner: PasswordOwner,
  isCurrent?: (password: string) => Promise<boolean>,
): Promise<string | undefined> {
  const problem = isCurrent
    ? await checkNewPassword(password, owner, isCurrent)
    : await checkPassword(password, owner);
  switch (problem?.reason) {
    case undefined:
      return undefined;
    case 'tooShort':
      return t('passwordTooShort', { min: problem.min });
    case 'tooLong':
      return t('passwordTooLong', { max: problem.max });
    case 'containsEmail':
      return t('passwordContainsEmail');
    case 'containsName':
      return t('passwordContainsName');
    case 'sameAsCurrent':
      return t('passwordSameAsCurrent');
    case 'tooWeak':
      return [t('passwordTooWeak'), problem.hint && t(WEAK_HINTS[problem.hint]), t('passwordWeakAdvice')]
        .filter(Boolean)
        .join(' ');
  }
}

/** Sends a sign-in page, never cached (its security headers come from the security-headers plugin). */
export function sendPage(reply: FastifyReply, html: string, status = 200) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}

export function createInteractionKit(app: FastifyInstance, deps: InteractionDeps): InteractionKit {
  const { provider, config, db, realm } = deps;
  const product = realm?.productName ?? config.productName;
  const logo = realm ? null : (config.brand.logo?.path ?? null);
  const realmPath = realm?.path ?? REALM_PATH;

  /** Unsafe requests must come from our own pages (the interaction cookie is SameSite=Lax as well). */
  function foreignOrigin(request: InteractionRequest): boolean {
    const origin = request.headers.origin;
    return typeof origin === 'string' && origin !== 'null' && origin !== new URL(config.publicUrl).origin;
  }

  /** The page language: the form's or the URL's kc_locale, then the authorization request's. */
  function localeFor(request: InteractionRequest, interaction?: Interaction): Language {
    const params = interaction?.params ?? {};
    return pickLocale(request.body?.kc_locale, request.query.kc_locale, params.kc_locale, params.ui_locales);
  }

  function pageCall(request: InteractionRequest, reply: FastifyReply, interaction?: Interaction): PageCall {
    const locale = localeFor(request, interaction);
    return { request, reply, locale, t: translator(locale) };
  }

  const url = (page: string) => `${realmPath}/login-actions/:uid${page}`;

  const kit: InteractionKit = {
    deps,

    interactionRoute(method, page, handle, prompt) {
      app.route<InteractionRoute>({
        method,
        url: url(page),
        handler: async (request, reply) => {
          const call = pageCall(request, reply);
          const interaction = await kit.pendingInteraction(call);
          if (
            !interaction ||
            (method === 'POST' && foreignOrigin(request)) ||
            (prompt && interaction.prompt.name !== prompt)
          ) {
            return kit.expired(call);
          }
          const interactionCall = { ...pageCall(request, reply, interaction), interaction };
          if (containsForbiddenText([request.body, request.query])) return kit.refusedText(interactionCall);
          return handle(interactionCall);
        },
      });
    },

    linkRoute(method, page, handle) {
      app.route<InteractionRoute>({
        method,
        url: url(page),
        handler: async (request, reply) => {
          const call = pageCall(request, reply);
          if (containsForbiddenText([request.body, request.query])) return kit.refusedText(call);
          if (method === 'POST' && foreignOrigin(request)) return kit.expired(call);
          return handle(call);
        },
      });
    },

    async pendingInteraction({ request, reply }) {
      try {
        const interaction = await provider.interactionDetails(request.raw, reply.raw);
        return interaction.uid === request.params.uid ? interaction : undefined;
      } catch {
        return undefined;
      }
    },

    async finish({ request, reply }, result) {
      const returnTo = await provider.interactionResult(request.raw, reply.raw, result);
      return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
    },

    pageContext: (locale, selfPath) => ({ locale, productName: product, logo, selfPath }),

    pagePath: (call, page) => `${interactionPath(call.interaction.uid, realmPath)}${page}`,

    sendInteractionPage({ reply, interaction, locale }, page, render, status) {
      const base = interactionPath(interaction.uid, realmPath);
      const links: FlowLinks = {
        action: `${base}${page}`,
        login: withLocale(`${base}/login`, locale),
        ...(realm
          ? {}
          : {
              register: withLocale(`${base}/register`, locale),
              forgot: withLocale(`${base}/forgot`, locale),
            }),
      };
      return sendPage(reply, render(kit.pageContext(locale, links.action), links), status);
    },

    notice({ reply, locale, t }, o) {
      return sendPage(
        reply,
        messagePage(kit.pageContext(locale), {
          title: t(o.title),
          alert: { kind: o.kind, text: t(o.text) },
          link: homeLink(t, config.publicUrl, product),
        }),
        o.status,
      );
    },

    expired: (call) =>
      kit.notice(call, { title: 'errorTitle', kind: 'error', text: 'sessionExpired', status: 400 }),

    refusedText: (call) =>
      kit.notice(call, { title: 'errorTitle', kind: 'error', text: 'invalidCharacters', status: 400 }),

    async sessionIdentity(interaction) {
      const accountId = interaction.session?.accountId;
      return accountId ? findIdentityById(db, accountId) : undefined;
    },
  };
  return kit;
}

/**
 * The open invitation whose link this sign-in started from: the web app passes the link's token as the
 * authorization parameter `invitation` (decision 193). Null without one, or for a token that is unknown, used,
 * withdrawn or expired: the pages then show nothing of it (decision 214).
 */
export async function invitationOf(
  kit: InteractionKit,
  call: InteractionCall,
): Promise<OpenInvitation | null> {
  const { invitation } = call.interaction.params;
  if (typeof invitation !== 'string' || !invitation) return null;
  return openInvitationByToken(kit.deps.db, invitation);
}
