import { renderMail, type MailBlock } from '../mail/layout.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { mailText } from '../mail/user-text.ts';
import { ACTION_TTL, createActionToken, sentRecently, type ActionKind } from './action-tokens.ts';
import { translator, type Messages } from './i18n.ts';
import type { Identity } from './identities.ts';
import { interactionPath, type InteractionDeps } from './interaction-kit.ts';

/** The mails of the sign-in service: a one-time link to verify the address or to set a new password. */

/** A mail link may be requested again only after this many seconds. */
export const MAIL_INTERVAL_SECONDS = 60;

/** The links the sign-in pages mail (an email change is asked for in the portal: see security-mails.ts). */
type PageActionKind = Exclude<ActionKind, 'email-change'>;

const TEXTS: Record<
  PageActionKind,
  { subject: keyof Messages; intro: keyof Messages; action: keyof Messages }
> = {
  'verify-email': { subject: 'mailVerifySubject', intro: 'mailVerifyBody', action: 'mailVerifyAction' },
  'reset-password': { subject: 'mailResetSubject', intro: 'mailResetBody', action: 'mailResetAction' },
};

/** The page of the interaction a mailed link opens. */
const LINK_PAGE: Record<PageActionKind, string> = {
  'verify-email': 'verify-email',
  'reset-password': 'reset',
};

/** The mail carrying `link`, in the identity's language (text and HTML through the mail layout). */
export function actionMail(
  kind: PageActionKind,
  identity: Identity,
  link: string,
  product: string,
): MailMessage {
  const t = translator(identity.locale);
  const ttl = ACTION_TTL[kind];
  const duration =
    ttl >= 3600 ? t('durationHours', { count: ttl / 3600 }) : t('durationMinutes', { count: ttl / 60 });
  const texts = TEXTS[kind];
  const intro = t(texts.intro, { product });
  // The name is the person's own text: it is shortened and left out when a mail program could make it a link.
  const name = mailText(identity.name);
  const greeting = name === undefined ? t('mailGreetingNoName') : t('mailGreeting', { name });
  return renderMail({
    to: identity.email,
    language: identity.locale,
    product,
    subject: t(texts.subject),
    greeting,
    body: [
      intro,
      { button: { label: t(texts.action), url: link } },
      `${t('mailValidity', { duration })}\n${t('mailIgnore')}`,
    ],
  });
}

/**
 * Mails `identity` a new one-time link of `kind` that leads back to interaction `uid` — unless one went out within
 * the last MAIL_INTERVAL_SECONDS. Whether it was sent.
 */
export async function sendActionMail(
  { config, db, mailer }: InteractionDeps,
  kind: PageActionKind,
  identity: Identity,
  uid: string,
): Promise<boolean> {
  if (await sentRecently(db, kind, identity.id, MAIL_INTERVAL_SECONDS)) return false;
  const link = await actionLink({ config, db }, kind, identity, uid);
  await mailer.send(actionMail(kind, identity, link, config.productName));
  return true;
}

/** A new one-time link of `kind` for `identity`, leading back to interaction `uid` (ending earlier ones). */
async function actionLink(
  { config, db }: Pick<InteractionDeps, 'config' | 'db'>,
  kind: PageActionKind,
  identity: Identity,
  uid: string,
): Promise<string> {
  const token = await createActionToken(db, kind, identity);
  return `${config.publicUrl}${interactionPath(uid)}/${LINK_PAGE[kind]}?key=${token}&kc_locale=${identity.locale}`;
}

/**
 * The mail to the owner of an address someone tried to register again: nothing changed, a link to sign in and a
 * new one-time link to set a new password (as "forgot password" would send).
 */
export async function sendRegistrationAttemptMail(
  { config, db, mailer }: InteractionDeps,
  identity: Identity,
  uid: string,
): Promise<void> {
  const reset = await actionLink({ config, db }, 'reset-password', identity, uid);
  await mailer.send(
    registrationAttemptMail(identity, { signIn: `${config.publicUrl}/`, reset }, config.productName),
  );
}

/** The mail of {@link sendRegistrationAttemptMail}, in the owner's language (through the mail layout). */
export function registrationAttemptMail(
  identity: Identity,
  links: { signIn: string; reset?: string },
  product: string,
): MailMessage {
  const t = translator(identity.locale);
  const name = mailText(identity.name);
  const greeting = name === undefined ? t('mailGreetingNoName') : t('mailGreeting', { name });
  const intro = t('mailRegisteredBody', { product });
  const ttl = ACTION_TTL['reset-password'];
  const body: MailBlock[] = [
    intro,
    t('mailRegisteredSignIn'),
    { button: { label: t('mailRegisteredSignInAction'), url: links.signIn } },
  ];
  if (links.reset) {
    const duration = t('durationMinutes', { count: ttl / 60 });
    body.push(
      t('mailRegisteredReset'),
      { button: { label: t('mailResetAction'), url: links.reset } },
      t('mailValidity', { duration }),
    );
  }
  body.push(t('mailRegisteredIgnore'));
  return renderMail({
    to: identity.email,
    language: identity.locale,
    product,
    subject: t('mailRegisteredSubject'),
    greeting,
    body,
  });
}
