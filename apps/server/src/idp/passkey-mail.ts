import { formatDateTimeLong, type Language } from '@portal/contract';
import { renderMail } from '../mail/layout.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { mailText } from '../mail/user-text.ts';
import { translator } from './i18n.ts';

/**
 * "Neuer Passkey hinzugefügt": tells the person a passkey was added to their sign-in — its name, when, in which
 * browser — and where to remove it if it was not them. In their language, through the mail layout.
 */
export function passkeyAddedMail(o: {
  to: string;
  name: string;
  locale: Language;
  passkeyName: string;
  at: Date;
  browser: string | null;
  product: string;
  settingsUrl: string;
}): MailMessage {
  const t = translator(o.locale);
  // The person's own texts are shortened and left out where a mail program could make them a link.
  const name = mailText(o.name);
  const passkeyName = mailText(o.passkeyName);
  const greeting = name === undefined ? t('mailGreetingNoName') : t('mailGreeting', { name });
  const facts = [
    passkeyName === undefined ? undefined : t('mailPasskeyName', { name: passkeyName }),
    t('mailPasskeyTime', { time: formatDateTimeLong(o.at, o.locale) }),
    o.browser ? t('mailPasskeyBrowser', { browser: o.browser }) : undefined,
  ].filter((line): line is string => line !== undefined);
  return renderMail({
    to: o.to,
    language: o.locale,
    product: o.product,
    subject: t('mailPasskeySubject'),
    greeting,
    body: [
      t('mailPasskeyBody', { product: o.product }),
      { facts },
      t('mailPasskeyNotYou'),
      { url: o.settingsUrl },
    ],
  });
}
