import { LANGUAGES, type AccountRole, type Language } from '@portal/contract';
import { escapeHtml } from '../http/html.ts';
import { languageName, translator, type Translate } from './i18n.ts';

/** Path of the realm on this server: Keycloak's layout, so keycloak-js works unchanged. */
export const REALM_PATH = '/realms/portal';
export const RESOURCES_PATH = `${REALM_PATH}/resources`;
/** The pages' icon: linked from each page, so browsers do not ask for /favicon.ico. */
export const FAVICON_PATH = `${RESOURCES_PATH}/favicon.svg`;
export const ICON_LINK = `<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`;

const h = escapeHtml;

export interface PageContext {
  locale: Language;
  productName: string;
  /** The configured logo's address (BRAND_LOGO), shown beside the name in the header; none in the cloud realm. */
  logo?: string | null;
  /** The page's own URL without query, for the language links. */
  selfPath?: string;
}

/** The links of a page of the pending interaction: where its form posts, and the flows' pages in its language. */
export interface FlowLinks {
  action: string;
  login: string;
  /** Registration and password reset: absent in a realm that offers sign-in only. */
  register?: string;
  forgot?: string;
}

export interface Alert {
  kind: 'error' | 'success' | 'info';
  text: string;
}

function languageNav(ctx: PageContext, t: Translate): string {
  if (!ctx.selfPath) return '';
  const items = LANGUAGES.map((locale) =>
    locale === ctx.locale
      ? `<li><a href="${h(ctx.selfPath!)}?kc_locale=${locale}" lang="${locale}" hreflang="${locale}" aria-current="true">${h(languageName(locale))}</a></li>`
      : `<li><a href="${h(ctx.selfPath!)}?kc_locale=${locale}" lang="${locale}" hreflang="${locale}">${h(languageName(locale))}</a></li>`,
  ).join('');
  return `<nav class="kc-locales" aria-label="${h(t('languageNav'))}"><ul>${items}</ul></nav>`;
}

function alertHtml(alert: Alert | undefined, id = 'input-error'): string {
  if (!alert) return '';
  const role = alert.kind === 'error' ? 'alert' : 'status';
  return `<p id="${id}" class="kc-alert kc-alert-${alert.kind}" role="${role}">${h(alert.text)}</p>`;
}

export function layout(ctx: PageContext, title: string, body: string): string {
  const t = translator(ctx.locale);
  return `<!doctype html>
<html lang="${ctx.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="color-scheme" content="light dark">
<title>${h(title)} | ${h(ctx.productName)}</title>
${ICON_LINK}
<link rel="stylesheet" href="${RESOURCES_PATH}/login.css">
</head>
<body>
<header class="kc-header">
<p class="kc-brand">${ctx.logo ? `<img class="kc-logo" src="${h(ctx.logo)}" alt="">` : ''}${h(ctx.productName)}</p>
${languageNav(ctx, t)}
</header>
<main class="kc-card">
<h1 id="kc-page-title">${h(title)}</h1>
${body}
</main>
</body>
</html>`;
}

interface FieldOptions {
  id: string;
  name?: string;
  label: string;
  type?: string;
  value?: string;
  autocomplete: string;
  error?: string;
  /** Id of a shared error (e.g. the form's alert) this field is described by. */
  describedBy?: string;
  hint?: string;
  autofocus?: boolean;
  extra?: string;
}

export function field(o: FieldOptions): string {
  const errorId = o.error ? `${o.id}-error` : undefined;
  const hintId = o.hint ? `${o.id}-hint` : undefined;
  const describedBy = [errorId, o.describedBy, hintId].filter(Boolean).join(' ');
  const invalid = Boolean(o.error || o.describedBy);
  return `<div class="kc-field">
<label for="${o.id}">${h(o.label)}</label>
<input id="${o.id}" name="${o.name ?? o.id}" type="${o.type ?? 'text'}" autocomplete="${o.autocomplete}"${
    o.value ? ` value="${h(o.value)}"` : ''
  } required${o.autofocus ? ' autofocus' : ''}${invalid ? ' aria-invalid="true"' : ''}${
    describedBy ? ` aria-describedby="${describedBy}"` : ''
  }${o.extra ? ` ${o.extra}` : ''}>
${hintId ? `<p id="${hintId}" class="kc-hint">${h(o.hint!)}</p>` : ''}${
    errorId ? `<p id="${errorId}" class="kc-field-error">${h(o.error!)}</p>` : ''
  }
</div>`;
}

export const localeInput = (locale: Language) => `<input type="hidden" name="kc_locale" value="${locale}">`;

/** The sign-in form (address and password), its "forgot password" link and the passkey section. */
function loginForm(
  t: Translate,
  o: { links: FlowLinks; username?: string; alert?: Alert; passkey?: string; locale: Language },
): string {
  const failed = o.alert?.kind === 'error';
  return `<form id="kc-form-login" method="post" action="${h(o.links.action)}" novalidate>
${localeInput(o.locale)}
${field({
  id: 'username',
  label: t('email'),
  value: o.username,
  autocomplete: 'username',
  autofocus: !o.username,
  describedBy: failed ? 'input-error' : undefined,
  extra: 'inputmode="email" autocapitalize="none" spellcheck="false"',
})}
${field({
  id: 'password',
  label: t('password'),
  type: 'password',
  autocomplete: 'current-password',
  autofocus: Boolean(o.username),
  describedBy: failed ? 'input-error' : undefined,
})}
${o.links.forgot ? `<p class="kc-row"><a id="kc-forgot-password" href="${h(o.links.forgot)}">${h(t('forgotPassword'))}</a></p>` : ''}
<button id="kc-login" name="login" type="submit" class="kc-button">${h(t('signIn'))}</button>
</form>
${o.passkey ?? ''}`;
}

export function loginPage(
  ctx: PageContext,
  o: { links: FlowLinks; username?: string; alert?: Alert; passkey?: string },
): string {
  const t = translator(ctx.locale);
  const body = `${alertHtml(o.alert)}
${loginForm(t, { ...o, locale: ctx.locale })}
${o.links.register ? `<p class="kc-alt">${h(t('newUser'))} <a id="kc-registration" href="${h(o.links.register)}">${h(t('register'))}</a></p>` : ''}`;
  return layout(ctx, t('loginTitle'), body);
}

/** An open invitation as the sign-in pages show it to the holder of its link. */
export interface InvitationView {
  email: string;
  accountName: string;
  inviterName: string | null;
  role: AccountRole;
}

/** "Anna Muster lädt Sie ein, dem Konto «Muster AG» als Administrator/in beizutreten." */
function invitationIntro(t: Translate, invitation: InvitationView): string {
  const vars = { account: invitation.accountName, role: t(`role${invitation.role}`) };
  return invitation.inviterName
    ? t('inviteIntro', { ...vars, inviter: invitation.inviterName })
    : t('inviteIntroNoInviter', vars);
}

/**
 * The sign-in page a mailed invitation link leads to (decision 214): it names the account, the inviter and the role,
 * offers registering with the invited address first, and signing in with an existing login second (opened without
 * script; open at once after a failed attempt).
 */
export function invitationLoginPage(
  ctx: PageContext,
  o: {
    links: FlowLinks;
    invitation: InvitationView;
    username?: string;
    alert?: Alert;
    passkey?: string;
  },
): string {
  const t = translator(ctx.locale);
  const { invitation } = o;
  const signingIn = Boolean(o.alert);
  const register = o.links.register
    ? `<p class="kc-detail">${h(t('inviteRegisterHint', { product: ctx.productName }))}</p>
<p><a id="kc-registration" class="kc-button kc-button-link kc-button-wide" href="${h(o.links.register)}">${h(t('register'))}</a></p>`
    : '';
  const body = `<p id="kc-invitation">${h(invitationIntro(t, invitation))}</p>
<p class="kc-detail">${h(t('inviteAddress', { email: invitation.email }))}</p>
${register}
<details id="kc-existing" class="kc-secondary-form kc-existing"${signingIn || !o.links.register ? ' open' : ''}>
<summary class="kc-button kc-button-secondary">${h(t('inviteExisting'))}</summary>
${alertHtml(o.alert)}
${loginForm(t, { ...o, username: o.username ?? invitation.email, locale: ctx.locale })}
</details>`;
  return layout(ctx, t('inviteTitle', { account: invitation.accountName }), body);
}

/**
 * The second step of a sign-in whose password was right: the person's second factors, each with its own form (the
 * authenticator app's code, a passkey). `sections` are the forms' HTML, rendered by their flows.
 */
export function secondFactorPage(ctx: PageContext, o: { alert?: Alert; sections: string[] }): string {
  const t = translator(ctx.locale);
  const body = `<p>${h(t('secondFactorIntro'))}</p>
${alertHtml(o.alert)}
${o.sections.join('\n')}`;
  return layout(ctx, t('secondFactorTitle'), body);
}

export interface RegisterValues {
  firstName?: string;
  lastName?: string;
  email?: string;
}

export function registerPage(
  ctx: PageContext,
  o: {
    links: FlowLinks;
    values?: RegisterValues;
    errors?: Partial<Record<'firstName' | 'lastName' | 'email' | 'password' | 'password-confirm', string>>;
    passwordMin: number;
    /** Registering through an invitation link: its account is named, and the address is the invited one, fixed. */
    invitation?: InvitationView;
  },
): string {
  const t = translator(ctx.locale);
  const errors = o.errors ?? {};
  const { invitation } = o;
  const values = invitation ? { ...o.values, email: invitation.email } : (o.values ?? {});
  const firstError = (['firstName', 'lastName', 'email', 'password', 'password-confirm'] as const).find(
    (key) => errors[key],
  );
  const note = invitation
    ? `<p id="kc-invitation">${h(t('inviteRegisterNote', { account: invitation.accountName }))}</p>\n`
    : '';
  const body = `${note}<form id="kc-register-form" method="post" action="${h(o.links.action)}" novalidate>
${localeInput(ctx.locale)}
${field({ id: 'firstName', label: t('firstName'), value: values.firstName, autocomplete: 'given-name', error: errors.firstName, autofocus: !firstError || firstError === 'firstName' })}
${field({ id: 'lastName', label: t('lastName'), value: values.lastName, autocomplete: 'family-name', error: errors.lastName, autofocus: firstError === 'lastName' })}
${field({ id: 'email', label: t('email'), type: 'email', value: values.email, autocomplete: 'email', error: errors.email, autofocus: firstError === 'email', ...(invitation ? { hint: t('inviteEmailFixed'), extra: 'readonly autocapitalize="none" spellcheck="false"' } : { extra: 'autocapitalize="none" spellcheck="false"' }) })}
${field({ id: 'password', label: t('password'), type: 'password', autocomplete: 'new-password', error: errors.password, hint: t('passwordHint', { min: o.passwordMin }), autofocus: firstError === 'password' })}
${field({ id: 'password-confirm', label: t('passwordConfirm'), type: 'password', autocomplete: 'new-password', error: errors['password-confirm'], autofocus: firstError === 'password-confirm' })}
<button id="kc-register" type="submit" class="kc-button">${h(t('register'))}</button>
</form>
<p class="kc-alt">${h(t('haveAccount'))} <a id="kc-login-link" href="${h(o.links.login)}">${h(t('signIn'))}</a></p>`;
  return layout(ctx, t('registerTitle'), body);
}

export function forgotPage(
  ctx: PageContext,
  o: { links: FlowLinks; email?: string; alert?: Alert; sent?: boolean },
): string {
  const t = translator(ctx.locale);
  const form = o.sent
    ? ''
    : `<p>${h(t('forgotIntro'))}</p>
<form id="kc-reset-password-form" method="post" action="${h(o.links.action)}" novalidate>
${localeInput(ctx.locale)}
${field({ id: 'username', label: t('email'), value: o.email, autocomplete: 'username', autofocus: true, describedBy: o.alert?.kind === 'error' ? 'input-error' : undefined, extra: 'inputmode="email" autocapitalize="none" spellcheck="false"' })}
<button id="kc-send-link" type="submit" class="kc-button">${h(t('sendLink'))}</button>
</form>`;
  const body = `${alertHtml(o.alert)}
${form}
<p class="kc-alt"><a href="${h(o.links.login)}">${h(t('backToLogin'))}</a></p>`;
  return layout(ctx, t('forgotTitle'), body);
}

export function resetPage(
  ctx: PageContext,
  o: {
    action: string;
    key: string;
    errors?: { password?: string; 'password-confirm'?: string };
    passwordMin: number;
  },
): string {
  const t = translator(ctx.locale);
  const errors = o.errors ?? {};
  const body = `<form id="kc-new-password-form" method="post" action="${h(o.action)}" novalidate>
${localeInput(ctx.locale)}
<input type="hidden" name="key" value="${h(o.key)}">
${field({ id: 'password', name: 'password', label: t('newPassword'), type: 'password', autocomplete: 'new-password', error: errors.password, hint: t('passwordHint', { min: o.passwordMin }), autofocus: !errors['password-confirm'] })}
${field({ id: 'password-confirm', label: t('passwordConfirm'), type: 'password', autocomplete: 'new-password', error: errors['password-confirm'], autofocus: Boolean(errors['password-confirm'] && !errors.password) })}
<button id="kc-save-password" type="submit" class="kc-button">${h(t('savePassword'))}</button>
</form>`;
  return layout(ctx, t('resetTitle'), body);
}

export function verifyEmailPage(
  ctx: PageContext,
  o: { email: string; resendAction: string; continueAction: string; alert?: Alert },
): string {
  const t = translator(ctx.locale);
  const body = `${alertHtml(o.alert)}
<p id="kc-verify-text">${h(t('verifySent', { email: o.email }))}</p>
<form method="post" action="${h(o.continueAction)}">
${localeInput(ctx.locale)}
<button id="kc-verify-continue" type="submit" class="kc-button">${h(t('verifyContinue'))}</button>
</form>
<form method="post" action="${h(o.resendAction)}" class="kc-secondary-form">
${localeInput(ctx.locale)}
<button id="kc-verify-resend" type="submit" class="kc-button kc-button-secondary">${h(t('verifyResend'))}</button>
</form>`;
  return layout(ctx, t('verifyTitle'), body);
}

/** The way on from a message page: back to the portal. */
export function homeLink(t: Translate, publicUrl: string, productName: string) {
  return { href: `${publicUrl}/`, text: t('continueTo', { product: productName }) };
}

/**
 * The question before signing out, for a logout link that does not show it comes from the signed-in person's own
 * app: `form` is the provider's (empty) form with its one-time key; the button submits it.
 */
export function logoutConfirmPage(
  ctx: PageContext,
  o: { form: string; cancel: { href: string; text: string } },
) {
  const t = translator(ctx.locale);
  const body = `${o.form}
${alertHtml({ kind: 'info', text: t('logoutConfirm') }, 'kc-message')}
<button id="kc-logout" form="op.logoutForm" name="logout" value="yes" type="submit" class="kc-button">${h(t('logoutButton'))}</button>
<p class="kc-alt"><a id="kc-continue" href="${h(o.cancel.href)}">${h(o.cancel.text)}</a></p>`;
  return layout(ctx, t('logoutConfirmTitle'), body);
}

/** A page with a message and one way on (link). */
export function messagePage(
  ctx: PageContext,
  o: { title: string; alert: Alert; link?: { href: string; text: string }; detail?: string },
): string {
  const body = `${alertHtml(o.alert, 'kc-message')}
${o.detail ? `<p class="kc-detail">${h(o.detail)}</p>` : ''}
${o.link ? `<p class="kc-alt"><a id="kc-continue" class="kc-button kc-button-link" href="${h(o.link.href)}">${h(o.link.text)}</a></p>` : ''}`;
  return layout(ctx, o.title, body);
}
