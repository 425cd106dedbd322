import type { Queryable } from '../db/client.ts';
import { renderMail } from '../mail/layout.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { mailText } from '../mail/user-text.ts';
import { translator, type Messages } from './i18n.ts';
import { findIdentityById, type Identity } from './identities.ts';

/** What happened to a person's authenticator app; each event is told by mail, in the person's language. */
export type TotpEvent = 'enabled' | 'disabled' | 'recoveryCodesRenewed' | 'recoveryCodeUsed';

const TEXTS: Record<TotpEvent, { subject: keyof Messages; body: keyof Messages }> = {
  enabled: { subject: 'mailTotpOnSubject', body: 'mailTotpOnBody' },
  disabled: { subject: 'mailTotpOffSubject', body: 'mailTotpOffBody' },
  recoveryCodesRenewed: { subject: 'mailRecoveryNewSubject', body: 'mailRecoveryNewBody' },
  recoveryCodeUsed: { subject: 'mailRecoveryUsedSubject', body: 'mailRecoveryUsedBody' },
};

/** The notice of `event` to `identity`: what changed, and what to do when it was not them. */
export function totpEventMail(
  event: TotpEvent,
  identity: Identity,
  product: string,
  vars: { left?: number } = {},
): MailMessage {
  const t = translator(identity.locale);
  const name = mailText(identity.name);
  const greeting = name === undefined ? t('mailGreetingNoName') : t('mailGreeting', { name });
  const body = t(TEXTS[event].body, { product, left: vars.left ?? 0 });
  return renderMail({
    to: identity.email,
    language: identity.locale,
    product,
    subject: t(TEXTS[event].subject),
    greeting,
    body: [body, t('mailSecurityNotYou')],
  });
}

/** Mails the notice of `event` to identity `identityId` (queued in `tx` when given, so it goes only on commit). */
export async function sendTotpEventMail(
  deps: { db: Queryable; mailer: Mailer; productName: string },
  event: TotpEvent,
  identityId: string,
  options: { tx?: Queryable; left?: number } = {},
): Promise<void> {
  const identity = await findIdentityById(options.tx ?? deps.db, identityId);
  if (!identity) return;
  await deps.mailer.send(
    totpEventMail(event, identity, deps.productName, { left: options.left }),
    options.tx,
  );
}
