import {
  INVITATION_NOTE_MAX,
  INVITATION_VALID_DAYS,
  type AccountRole,
  type Language,
} from '@portal/contract';
import { renderMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { mailPassage, mailText } from '../../mail/user-text.ts';

interface MailTexts {
  subject: (account: string | undefined) => string;
  greeting: string;
  /** The invitation itself; `inviter` and `account` are left out when a mail may not show them. */
  intro: (inviter: string | undefined, account: string | undefined, role: string) => string;
  noteFrom: (inviter: string | undefined) => string;
  action: string;
  validity: string;
  ignore: string;
  roles: Record<AccountRole, string>;
}

export const TEXTS: Record<Language, MailTexts> = {
  de: {
    subject: (account) => (account ? `Einladung zu ${account}` : 'Einladung zu einem Konto'),
    greeting: 'Guten Tag',
    intro: (inviter, account, role) =>
      `${inviter ?? 'jemand'} lädt Sie ein, ${account ? `dem Konto «${account}»` : 'einem Konto'} als ${role} beizutreten.`,
    noteFrom: (inviter) => (inviter ? `Nachricht von ${inviter}:` : 'Nachricht:'),
    action: 'Einladung ansehen',
    validity: `Der Link ist ${INVITATION_VALID_DAYS} Tage gültig und kann einmal verwendet werden.`,
    ignore: 'Wenn Sie die Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
    roles: {
      EMPLOYEE: 'Mitarbeiter/in',
      ADMIN: 'Administrator/in',
      DC: 'Digital Coach',
      OWNER: 'Inhaber/in',
      SUPPORT: 'Support',
    },
  },
  en: {
    subject: (account) => (account ? `Invitation to ${account}` : 'Invitation to an account'),
    greeting: 'Hello',
    intro: (inviter, account, role) =>
      `${inviter ?? 'Someone'} invites you to join ${account ? `the account “${account}”` : 'an account'} as ${role}.`,
    noteFrom: (inviter) => (inviter ? `Message from ${inviter}:` : 'Message:'),
    action: 'View the invitation',
    validity: `The link is valid for ${INVITATION_VALID_DAYS} days and can be used once.`,
    ignore: 'If you did not expect this invitation, you can ignore this email.',
    roles: {
      EMPLOYEE: 'employee',
      ADMIN: 'administrator',
      DC: 'Digital Coach',
      OWNER: 'owner',
      SUPPORT: 'support',
    },
  },
  fr: {
    subject: (account) => (account ? `Invitation à ${account}` : 'Invitation à un compte'),
    greeting: 'Bonjour',
    intro: (inviter, account, role) =>
      `${inviter ?? 'Quelqu’un'} vous invite à rejoindre ${account ? `le compte « ${account} »` : 'un compte'} avec le rôle ${role}.`,
    noteFrom: (inviter) => (inviter ? `Message de ${inviter} :` : 'Message :'),
    action: 'Voir l’invitation',
    validity: `Le lien est valable ${INVITATION_VALID_DAYS} jours et ne peut être utilisé qu’une fois.`,
    ignore: 'Si vous n’attendiez pas cette invitation, vous pouvez ignorer cet e-mail.',
    roles: {
      EMPLOYEE: 'collaborateur/trice',
      ADMIN: 'administrateur/trice',
      DC: 'Digital Coach',
      OWNER: 'propriétaire',
      SUPPORT: 'support',
    },
  },
  it: {
    subject: (account) => (account ? `Invito a ${account}` : 'Invito a un account'),
    greeting: 'Buongiorno',
    intro: (inviter, account, role) =>
      `${inviter ?? 'Qualcuno'} la invita a unirsi ${account ? `all’account «${account}»` : 'a un account'} come ${role}.`,
    noteFrom: (inviter) => (inviter ? `Messaggio di ${inviter}:` : 'Messaggio:'),
    action: 'Vedi l’invito',
    validity: `Il link è valido ${INVITATION_VALID_DAYS} giorni e può essere usato una sola volta.`,
    ignore: 'Se non si aspettava questo invito, può ignorare questa e-mail.',
    roles: {
      EMPLOYEE: 'collaboratore/trice',
      ADMIN: 'amministratore/trice',
      DC: 'Digital Coach',
      OWNER: 'titolare',
      SUPPORT: 'supporto',
    },
  },
};

export interface InvitationMail {
  to: string;
  language: Language;
  accountName: string;
  inviterName: string;
  role: AccountRole;
  note?: string;
  link: string;
  product: string;
}

/**
 * The invitation mail, in the recipient's language, through the mail layout. Names and the note are people's own text:
 * they are shortened, and left out where a mail program could turn them into a link.
 */
export function invitationMail(mail: InvitationMail): MailMessage {
  const t = TEXTS[mail.language];
  const account = mailText(mail.accountName);
  const inviter = mailText(mail.inviterName);
  const note = mail.note ? mailPassage(mail.note, INVITATION_NOTE_MAX) : undefined;
  return renderMail({
    to: mail.to,
    language: mail.language,
    product: mail.product,
    subject: t.subject(account),
    greeting: `${t.greeting},`,
    body: [
      t.intro(inviter, account, t.roles[mail.role]),
      ...(note ? [t.noteFrom(inviter), { quote: note }] : []),
      { button: { label: t.action, url: mail.link } },
      `${t.validity}\n${t.ignore}`,
    ],
  });
}
