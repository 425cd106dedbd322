import { formatDateTimeLong, isLanguage, type Language } from '@portal/contract';
import { renderMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { mailText } from '../../mail/user-text.ts';

/** The mails of a transfer of ownership: the offer to the admin, and their answer to the owner, each in the recipient's language. */

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

export const TEXTS: Record<Language, OfferTexts> = {
  de: {
    subject: (account) => `Inhaberschaft von ${quoted(account, ['«', '»'], 'einem Konto')} übernehmen?`,
    greeting: (name) => (name === undefined ? 'Guten Tag' : `Guten Tag ${name}`),
    intro: (owner, account) =>
      `${owner ?? 'die Inhaberin oder der Inhaber'} möchte Ihnen die Inhaberschaft des Kontos${quoted(account, [' «', '»'], '')} übertragen.`,
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
    subject: (account) => `Reprendre la propriété de ${quoted(account, ['« ', ' »'], 'un compte')} ?`,
    greeting: (name) => (name === undefined ? 'Bonjour' : `Bonjour ${name}`),
    intro: (owner, account) =>
      `${owner ?? 'Le propriétaire'} souhaite vous transférer la propriété du compte${quoted(account, [' « ', ' »'], '')}.`,
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
      `Come titolare accetta le CG e l’informativa sulla protezione dei dati, è responsabile della fatturazione e decide sull’eliminazione dell’account. ${owner ?? 'L’attuale titolare'} diventa amministratore.`,
    action: 'Vedi il trasferimento',
    validity: (date) => `Può accettare o rifiutare il trasferimento fino al ${date}.`,
    ignore: 'Se non si aspettava questo trasferimento, lo rifiuti o ignori questa e-mail.',
  },
};

export interface OfferMail {
  to: { email: string; name: string; language: string };
  ownerName: string;
  accountName: string;
  expiresAt: Date;
  /** Where the recipient answers: the dashboard of that account. */
  link: string;
  product: string;
}

const languageOf = (value: string): Language => (isLanguage(value) ? value : 'de');

/** Names are people's own text: shortened, and left out where a mail program could turn them into a link. */
export function transferOfferMail(mail: OfferMail): MailMessage {
  const language = languageOf(mail.to.language);
  const t = TEXTS[language];
  const account = mailText(mail.accountName);
  const date = formatDateTimeLong(mail.expiresAt, language);
  const owner = mailText(mail.ownerName);
  return renderMail({
    to: mail.to.email,
    language,
    product: mail.product,
    subject: t.subject(account),
    greeting: `${t.greeting(mailText(mail.to.name))},`,
    body: [
      t.intro(owner, account),
      t.meaning(owner),
      { button: { label: t.action, url: mail.link } },
      `${t.validity(date)}\n${t.ignore}`,
    ],
  });
}

interface AnswerTexts {
  subject: (admin: string | undefined, account: string | undefined) => string;
  body: (admin: string | undefined, account: string | undefined) => string;
  next: string;
  action: string;
}

/** What the owner is told when the chosen admin answers: accepted (they are an admin now) or declined. */
export const ANSWER_TEXTS: Record<'ACCEPTED' | 'DECLINED', Record<Language, AnswerTexts>> = {
  ACCEPTED: {
    de: {
      subject: (admin, account) =>
        `${admin ?? 'Der neue Inhaber'} hat die Inhaberschaft${quoted(account, [' von «', '»'], '')} angenommen`,
      body: (admin, account) =>
        `${admin ?? 'der Administrator, dem Sie sie angeboten haben,'} ist jetzt Inhaber des Kontos${quoted(account, [' «', '»'], '')}.`,
      next: 'Sie sind jetzt Administrator dieses Kontos.',
      action: 'Zum Konto',
    },
    en: {
      subject: (admin, account) =>
        `${admin ?? 'The new owner'} accepted the ownership${quoted(account, [' of “', '”'], '')}`,
      body: (admin, account) =>
        `${admin ?? 'The administrator you offered it to'} is now the owner of the account${quoted(account, [' “', '”'], '')}.`,
      next: 'You are now an administrator of this account.',
      action: 'Open the account',
    },
    fr: {
      subject: (admin, account) =>
        `${admin ?? 'Le nouveau propriétaire'} a accepté la propriété${quoted(account, [' de « ', ' »'], '')}`,
      body: (admin, account) =>
        `${admin ?? 'L’administrateur à qui vous l’avez proposée'} est maintenant propriétaire du compte${quoted(account, [' « ', ' »'], '')}.`,
      next: 'Vous êtes maintenant administrateur/trice de ce compte.',
      action: 'Ouvrir le compte',
    },
    it: {
      subject: (admin, account) =>
        `${admin ?? 'Il nuovo titolare'} ha accettato la titolarità${quoted(account, [' di «', '»'], '')}`,
      body: (admin, account) =>
        `${admin ?? 'L’amministratore a cui l’ha offerta'} è ora titolare dell’account${quoted(account, [' «', '»'], '')}.`,
      next: 'Ora è amministratore/trice di questo account.',
      action: 'Apri l’account',
    },
  },
  DECLINED: {
    de: {
      subject: (admin, account) =>
        `${admin ?? 'Der Administrator'} hat die Inhaberschaft${quoted(account, [' von «', '»'], '')} abgelehnt`,
      body: (admin, account) =>
        `${admin ?? 'der Administrator, dem Sie sie angeboten haben,'} möchte nicht Inhaber des Kontos${quoted(account, [' «', '»'], '')} werden.`,
      next: 'Sie bleiben Inhaber. Sie können die Inhaberschaft einem anderen Administrator anbieten.',
      action: 'Zur Inhaberschaft',
    },
    en: {
      subject: (admin, account) =>
        `${admin ?? 'The administrator'} declined the ownership${quoted(account, [' of “', '”'], '')}`,
      body: (admin, account) =>
        `${admin ?? 'The administrator you offered it to'} does not want to become the owner of the account${quoted(account, [' “', '”'], '')}.`,
      next: 'You remain the owner. You can offer the ownership to another administrator.',
      action: 'Open ownership',
    },
    fr: {
      subject: (admin, account) =>
        `${admin ?? 'L’administrateur'} a refusé la propriété${quoted(account, [' de « ', ' »'], '')}`,
      body: (admin, account) =>
        `${admin ?? 'L’administrateur à qui vous l’avez proposée'} ne souhaite pas devenir propriétaire du compte${quoted(account, [' « ', ' »'], '')}.`,
      next: 'Vous restez propriétaire. Vous pouvez proposer la propriété à un autre administrateur.',
      action: 'Voir la propriété',
    },
    it: {
      subject: (admin, account) =>
        `${admin ?? 'L’amministratore'} ha rifiutato la titolarità${quoted(account, [' di «', '»'], '')}`,
      body: (admin, account) =>
        `${admin ?? 'L’amministratore a cui l’ha offerta'} non desidera diventare titolare dell’account${quoted(account, [' «', '»'], '')}.`,
      next: 'Resta titolare. Può offrire la titolarità a un altro amministratore.',
      action: 'Vedi la titolarità',
    },
  },
};

export interface AnswerMail {
  answer: 'ACCEPTED' | 'DECLINED';
  /** The owner who made the offer. */
  to: { email: string; name: string; language: string };
  adminName: string;
  accountName: string;
  /** Accepted: the account's dashboard; declined: its ownership page. */
  link: string;
  product: string;
}

/** The mail that tells the owner how the chosen admin answered, in the owner's language. */
export function transferAnswerMail(mail: AnswerMail): MailMessage {
  const language = languageOf(mail.to.language);
  const t = ANSWER_TEXTS[mail.answer][language];
  const admin = mailText(mail.adminName);
  const account = mailText(mail.accountName);
  return renderMail({
    to: mail.to.email,
    language,
    product: mail.product,
    subject: t.subject(admin, account),
    greeting: `${TEXTS[language].greeting(mailText(mail.to.name))},`,
    body: [t.body(admin, account), t.next, { button: { label: t.action, url: mail.link } }],
  });
}
