import { isLanguage, type Language } from '@portal/contract';
import { escapeHtml } from '../../http/html.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { mailText } from '../../mail/user-text.ts';

/** The mail that offers the ownership of an account to an admin, in the admin's language. */

interface OfferTexts {
  subject: (account: string | undefined) => string;
  greeting: (name: string | undefined) => string;
  intro: (owner: string | undefined, account: string | undefined) => string;
  meaning: (owner: string | undefined) => string;
  action: string;
  validity: (date: string) => string;
  ignore: string;
}

const quoted = (text: string | undefined, quotes: [string, string], fallback: string) =>
  text === undefined ? fallback : `${quotes[0]}${text}${quotes[1]}`;

const TEXTS: Record<Language, OfferTexts> = {
  de: {
    subject: (account) => `Inhaberschaft von ${quoted(account, ['«', '»'], 'einem Konto')} übernehmen?`,
    greeting: (name) => (name === undefined ? 'Guten Tag' : `Guten Tag ${name}`),
    intro: (owner, account) =>
      `${owner ?? 'Die Inhaberin oder der Inhaber'} möchte Ihnen die Inhaberschaft des Kontos${quoted(account, [' «', '»'], '')} übertragen.`,
    meaning: (owner) =>
      `Als Inhaber akzeptieren Sie die AGB und die Datenschutzerklärung, sind für die Abrechnung verantwortlich und entscheiden über die Löschung des Kontos. ${owner ?? 'Die bisherige Inhaberin oder der bisherige Inhaber'} wird Administrator.`,
    action: 'Übertragung ansehen',
    validity: (date) => `Sie können die Übertragung bis am ${date} annehmen oder ablehnen.`,
    ignore:
      'Wenn Sie die Übertragung nicht erwartet haben, lehnen Sie sie ab oder ignorieren Sie diese E-Mail.',
  },
  en: {
    subject: (account) => `Take over the ownership of ${quoted(account, ['“', '”'], 'an account')}?`,
    greeting: (name) => (name === undefined ? 'Hello' : `Hello ${name}`),
    intro: (owner, account) =>
      `${owner ?? 'The owner'} would like to transfer the ownership of the account${quoted(account, [' “', '”'], '')} to you.`,
    meaning: (owner) =>
      `As owner you accept the terms and the privacy policy, are responsible for billing and decide about deleting the account. ${owner ?? 'The current owner'} becomes an administrator.`,
    action: 'View the transfer',
    validity: (date) => `You can accept or decline the transfer until ${date}.`,
    ignore: 'If you did not expect this transfer, decline it or ignore this email.',
  },
  fr: {
    subject: (account) => `Reprendre la propriété de ${quoted(account, ['« ', ' »'], 'un compte')} ?`,
    greeting: (name) => (name === undefined ? 'Bonjour' : `Bonjour ${name}`),
    intro: (owner, account) =>
      `${owner ?? 'Le propriétaire'} souhaite vous transférer la propriété du compte${quoted(account, [' « ', ' »'], '')}.`,
    meaning: (owner) =>
      `En tant que propriétaire, vous acceptez les CG et la déclaration de protection des données, êtes responsable de la facturation et décidez de la suppression du compte. ${owner ?? 'Le propriétaire actuel'} devient administrateur.`,
    action: 'Voir le transfert',
    validity: (date) => `Vous pouvez accepter ou refuser le transfert jusqu’au ${date}.`,
    ignore: 'Si vous n’attendiez pas ce transfert, refusez-le ou ignorez cet e-mail.',
  },
  it: {
    subject: (account) => `Assumere la titolarità di ${quoted(account, ['«', '»'], 'un account')}?`,
    greeting: (name) => (name === undefined ? 'Buongiorno' : `Buongiorno ${name}`),
    intro: (owner, account) =>
      `${owner ?? 'Il titolare'} desidera trasferirle la titolarità dell’account${quoted(account, [' «', '»'], '')}.`,
    meaning: (owner) =>
      `Come titolare accetta le CG e l’informativa sulla protezione dei dati, è responsabile della fatturazione e decide sulla cancellazione dell’account. ${owner ?? 'L’attuale titolare'} diventa amministratore.`,
    action: 'Vedere il trasferimento',
    validity: (date) => `Può accettare o rifiutare il trasferimento fino al ${date}.`,
    ignore: 'Se non si aspettava questo trasferimento, lo rifiuti o ignori questa e-mail.',
  },
};

const LOCALES: Record<Language, string> = { de: 'de-CH', en: 'en-GB', fr: 'fr-CH', it: 'it-CH' };

export interface OfferMail {
  to: { email: string; name: string; language: string };
  ownerName: string;
  accountName: string;
  expiresAt: Date;
  /** Where the recipient answers: the dashboard of that account. */
  link: string;
  product: string;
}

/** Names are people's own text: shortened, and left out where a mail program could turn them into a link. */
export function transferOfferMail(mail: OfferMail): MailMessage {
  const language = isLanguage(mail.to.language) ? mail.to.language : 'de';
  const t = TEXTS[language];
  const account = mailText(mail.accountName);
  const date = new Intl.DateTimeFormat(LOCALES[language], {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Europe/Zurich',
  }).format(mail.expiresAt);
  const greeting = `${t.greeting(mailText(mail.to.name))},`;
  const owner = mailText(mail.ownerName);
  const intro = t.intro(owner, account);
  const meaning = t.meaning(owner);
  const closing = [t.validity(date), t.ignore];
  const text = [greeting, '', intro, meaning, '', mail.link, '', ...closing, '', `— ${mail.product}`].join(
    '\n',
  );
  const html = `<!doctype html><html lang="${language}"><body>
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p><p>${escapeHtml(meaning)}</p>
<p><a href="${escapeHtml(mail.link)}">${escapeHtml(t.action)}</a></p>
<p>${closing.map(escapeHtml).join('<br>')}</p><p>— ${escapeHtml(mail.product)}</p>
</body></html>`;
  return { to: mail.to.email, subject: `${mail.product}: ${t.subject(account)}`, text, html };
}
