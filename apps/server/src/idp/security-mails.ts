import { formatDateTimeLong, type Language } from '@portal/contract';
import { labelled, renderMail, type MailBlock } from '../mail/layout.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { mailText } from '../mail/user-text.ts';
import { ACTION_TTL } from './action-tokens.ts';
import { translator } from './i18n.ts';
import type { Identity } from './identities.ts';

/**
 * The mails about a person's own sign-in security, in the person's language (through the mail layout). Each says what
 * happened, when, from which browser and client address, and what to do if it was not them.
 */

export type SecurityEvent =
  | 'passwordChanged'
  | 'emailChangeRequested'
  | 'emailChangeNotice'
  | 'emailChanged'
  | 'emailAddressInUse'
  | 'newBrowser';

/**
 * Mails about someone else's request (another account asked for the reader's address): they name the time only, as
 * that person's browser and client address are not the reader's to see.
 */
const OTHERS_REQUEST: ReadonlySet<SecurityEvent> = new Set(['emailAddressInUse']);

interface EventTexts {
  subject: string;
  /** What happened; `{email}` is the new address where there is one. */
  body: string;
  /** What to do if it was not them. */
  notYou: string;
}

interface Texts {
  events: Record<SecurityEvent, EventTexts>;
  when: string;
  browser: string;
  address: string;
  unknown: string;
  action: string;
  validity: string;
  /** The page the confirmation link opens. */
  pageTitle: string;
  pageDone: string;
  pageInvalid: string;
  pageUnavailable: string;
}

const TEXTS: Record<Language, Texts> = {
  de: {
    events: {
      passwordChanged: {
        subject: 'Ihr Passwort wurde geändert',
        body: 'das Passwort Ihres Logins bei {product} wurde geändert. Ihre anderen Sitzungen wurden beendet.',
        notYou:
          'Waren Sie das nicht? Setzen Sie Ihr Passwort sofort über «Passwort vergessen» auf der Anmeldeseite zurück und wenden Sie sich an den Support.',
      },
      emailChangeRequested: {
        subject: 'Bestätigen Sie Ihre neue E-Mail-Adresse',
        body: 'Sie möchten die E-Mail-Adresse Ihres Logins bei {product} zu {email} ändern. Öffnen Sie diesen Link, um die Änderung abzuschliessen:',
        notYou:
          'Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail; es wird nichts geändert.',
      },
      emailChangeNotice: {
        subject: 'Änderung Ihrer E-Mail-Adresse angefordert',
        body: 'für Ihr Login bei {product} wurde angefordert, die E-Mail-Adresse zu {email} zu ändern. Die Änderung gilt erst, wenn der Link in der E-Mail an die neue Adresse geöffnet wird.',
        notYou:
          'Waren Sie das nicht? Melden Sie sich an, brechen Sie die Änderung unter «Mein Profil › Sicherheit» ab und ändern Sie Ihr Passwort.',
      },
      emailChanged: {
        subject: 'Ihre E-Mail-Adresse wurde geändert',
        body: 'die E-Mail-Adresse Ihres Logins bei {product} wurde zu {email} geändert. Sie melden sich ab jetzt mit der neuen Adresse an.',
        notYou: 'Waren Sie das nicht? Wenden Sie sich umgehend an den Support.',
      },
      emailAddressInUse: {
        subject: 'Jemand wollte Ihre E-Mail-Adresse verwenden',
        body: 'für ein anderes Login bei {product} wurde angefordert, die E-Mail-Adresse {email} zu verwenden. Sie gehört weiterhin zu Ihrem Login: Es wurde nichts geändert und kein Bestätigungslink verschickt.',
        notYou:
          'Sie müssen nichts tun. Erhalten Sie solche E-Mails wiederholt, wenden Sie sich an den Support.',
      },
      newBrowser: {
        subject: 'Anmeldung mit einem neuen Browser',
        body: 'bei Ihrem Login bei {product} hat sich jemand mit einem Browser angemeldet, den Sie bisher nicht verwendet haben.',
        notYou:
          'Waren Sie das nicht? Ändern Sie Ihr Passwort sofort und beenden Sie unter «Mein Profil › Sicherheit» die anderen Sitzungen.',
      },
    },
    when: 'Zeitpunkt',
    browser: 'Browser',
    address: 'Adresse',
    unknown: 'unbekannt',
    action: 'Neue E-Mail-Adresse bestätigen',
    validity: 'Der Link ist {hours} Stunden gültig und kann nur einmal verwendet werden.',
    pageTitle: 'E-Mail-Adresse ändern',
    pageDone:
      'Ihre E-Mail-Adresse wurde zu {email} geändert. Melden Sie sich ab jetzt mit dieser Adresse an.',
    pageInvalid:
      'Dieser Link ist ungültig, abgelaufen oder wurde bereits verwendet. Fordern Sie die Änderung bei Bedarf erneut an.',
    pageUnavailable: 'Diese E-Mail-Adresse kann nicht verwendet werden. Ihre Adresse wurde nicht geändert.',
  },
  en: {
    events: {
      passwordChanged: {
        subject: 'Your password was changed',
        body: 'The password of your {product} login was changed. Your other sessions were ended.',
        notYou:
          'Was this not you? Reset your password at once with "Forgot password" on the sign-in page and contact support.',
      },
      emailChangeRequested: {
        subject: 'Confirm your new email address',
        body: 'You want to change the email address of your {product} login to {email}. Open this link to complete the change:',
        notYou: 'If you did not ask for this, ignore this email; nothing will change.',
      },
      emailChangeNotice: {
        subject: 'Change of your email address requested',
        body: 'A change of the email address of your {product} login to {email} was requested. It applies only once the link in the email to the new address is opened.',
        notYou:
          'Was this not you? Sign in, cancel the change under “My profile › Security” and change your password.',
      },
      emailChanged: {
        subject: 'Your email address was changed',
        body: 'The email address of your {product} login was changed to {email}. From now on you sign in with the new address.',
        notYou: 'Was this not you? Contact support at once.',
      },
      emailAddressInUse: {
        subject: 'Someone tried to use your email address',
        body: 'Someone asked to use the email address {email} for another {product} login. It stays with your login: nothing was changed and no confirmation link was sent.',
        notYou: 'You need not do anything. If you receive such emails repeatedly, contact support.',
      },
      newBrowser: {
        subject: 'Sign-in from a new browser',
        body: 'Someone signed in to your {product} login with a browser you have not used before.',
        notYou:
          'Was this not you? Change your password at once and end the other sessions under “My profile › Security”.',
      },
    },
    when: 'Time',
    browser: 'Browser',
    address: 'Address',
    unknown: 'unknown',
    action: 'Confirm new email address',
    validity: 'The link is valid for {hours} hours and can be used only once.',
    pageTitle: 'Change email address',
    pageDone: 'Your email address was changed to {email}. From now on, sign in with this address.',
    pageInvalid: 'This link is invalid, has expired or was already used. Request the change again if needed.',
    pageUnavailable: 'This email address cannot be used. Your address was not changed.',
  },
  fr: {
    events: {
      passwordChanged: {
        subject: 'Votre mot de passe a été modifié',
        body: 'Le mot de passe de votre identifiant {product} a été modifié. Vos autres sessions ont été fermées.',
        notYou:
          'Ce n’était pas vous ? Réinitialisez immédiatement votre mot de passe avec « Mot de passe oublié » sur la page de connexion et contactez le support.',
      },
      emailChangeRequested: {
        subject: 'Confirmez votre nouvelle adresse e-mail',
        body: 'Vous souhaitez remplacer l’adresse e-mail de votre identifiant {product} par {email}. Ouvrez ce lien pour terminer la modification :',
        notYou: 'Si vous ne l’avez pas demandé, ignorez cet e-mail ; rien ne sera modifié.',
      },
      emailChangeNotice: {
        subject: 'Modification de votre adresse e-mail demandée',
        body: 'Il a été demandé de remplacer l’adresse e-mail de votre identifiant {product} par {email}. La modification ne s’applique qu’une fois le lien de l’e-mail envoyé à la nouvelle adresse ouvert.',
        notYou:
          'Ce n’était pas vous ? Connectez-vous, annulez la modification sous « Mon profil › Sécurité » et changez votre mot de passe.',
      },
      emailChanged: {
        subject: 'Votre adresse e-mail a été modifiée',
        body: 'L’adresse e-mail de votre identifiant {product} a été remplacée par {email}. Vous vous connectez désormais avec la nouvelle adresse.',
        notYou: 'Ce n’était pas vous ? Contactez immédiatement le support.',
      },
      emailAddressInUse: {
        subject: 'Quelqu’un a tenté d’utiliser votre adresse e-mail',
        body: 'Quelqu’un a demandé d’utiliser l’adresse e-mail {email} pour un autre identifiant {product}. Elle reste liée à votre identifiant : rien n’a été modifié et aucun lien de confirmation n’a été envoyé.',
        notYou: 'Vous n’avez rien à faire. Si vous recevez souvent de tels e-mails, contactez le support.',
      },
      newBrowser: {
        subject: 'Connexion depuis un nouveau navigateur',
        body: 'Quelqu’un s’est connecté à votre identifiant {product} avec un navigateur que vous n’aviez pas encore utilisé.',
        notYou:
          'Ce n’était pas vous ? Changez immédiatement votre mot de passe et fermez les autres sessions sous « Mon profil › Sécurité ».',
      },
    },
    when: 'Date',
    browser: 'Navigateur',
    address: 'Adresse',
    unknown: 'inconnu',
    action: 'Confirmer la nouvelle adresse e-mail',
    validity: 'Le lien est valable {hours} heures et ne peut être utilisé qu’une seule fois.',
    pageTitle: 'Modifier l’adresse e-mail',
    pageDone:
      'Votre adresse e-mail a été remplacée par {email}. Connectez-vous désormais avec cette adresse.',
    pageInvalid:
      'Ce lien n’est pas valable, a expiré ou a déjà été utilisé. Demandez la modification à nouveau si nécessaire.',
    pageUnavailable: 'Cette adresse e-mail ne peut pas être utilisée. Votre adresse n’a pas été modifiée.',
  },
  it: {
    events: {
      passwordChanged: {
        subject: 'La sua password è stata modificata',
        body: 'La password del suo login {product} è stata modificata. Le altre sessioni sono state chiuse.',
        notYou:
          'Non era lei? Reimposti subito la password con «Password dimenticata» nella pagina di accesso e contatti il supporto.',
      },
      emailChangeRequested: {
        subject: 'Confermi il suo nuovo indirizzo e-mail',
        body: 'Desidera cambiare l’indirizzo e-mail del suo login {product} in {email}. Apra questo link per completare la modifica:',
        notYou: 'Se non l’ha richiesto, ignori questa e-mail; non verrà modificato nulla.',
      },
      emailChangeNotice: {
        subject: 'Richiesta la modifica del suo indirizzo e-mail',
        body: 'È stato richiesto di cambiare l’indirizzo e-mail del suo login {product} in {email}. La modifica vale solo quando viene aperto il link nell’e-mail inviata al nuovo indirizzo.',
        notYou:
          'Non era lei? Acceda, annulli la modifica in «Il mio profilo › Sicurezza» e cambi la password.',
      },
      emailChanged: {
        subject: 'Il suo indirizzo e-mail è stato modificato',
        body: 'L’indirizzo e-mail del suo login {product} è stato cambiato in {email}. D’ora in poi accede con il nuovo indirizzo.',
        notYou: 'Non era lei? Contatti subito il supporto.',
      },
      emailAddressInUse: {
        subject: 'Qualcuno ha tentato di usare il suo indirizzo e-mail',
        body: 'Qualcuno ha chiesto di usare l’indirizzo e-mail {email} per un altro login {product}. L’indirizzo resta associato al suo login: non è stato modificato nulla e non è stato inviato alcun link di conferma.',
        notYou: 'Non deve fare nulla. Se riceve spesso e-mail di questo tipo, contatti il supporto.',
      },
      newBrowser: {
        subject: 'Accesso da un nuovo browser',
        body: 'Qualcuno ha effettuato l’accesso al suo login {product} con un browser che finora non aveva usato.',
        notYou:
          'Non era lei? Cambi subito la password e chiuda le altre sessioni in «Il mio profilo › Sicurezza».',
      },
    },
    when: 'Data e ora',
    browser: 'Browser',
    address: 'Indirizzo',
    unknown: 'sconosciuto',
    action: 'Conferma il nuovo indirizzo e-mail',
    validity: 'Il link è valido {hours} ore e può essere usato una sola volta.',
    pageTitle: 'Cambia indirizzo e-mail',
    pageDone:
      'Il suo indirizzo e-mail è stato cambiato in {email}. D’ora in poi acceda con questo indirizzo.',
    pageInvalid:
      'Questo link non è valido, è scaduto o è già stato usato. Se necessario, richieda di nuovo la modifica.',
    pageUnavailable: 'Questo indirizzo e-mail non può essere usato. Il suo indirizzo non è stato modificato.',
  },
};

/** The texts of the page the email-change link opens, in `locale`. */
export const emailChangePageTexts = (locale: Language) => TEXTS[locale];

export const fill = (text: string, vars: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (match, name: string) => vars[name] ?? match);

/** Where an event came from: when, and the browser and client address of the request. */
export interface EventOrigin {
  at: Date;
  /** Browser and system in short ("Chrome 131 · Linux"), null when unknown. */
  browser: string | null;
  address: string | null;
}

/**
 * The mail about `event` to `to` (the identity's address unless given), in the identity's language. `email` is the
 * new address of an email change; `link` the confirmation link of a requested one.
 */
export function securityMail(
  event: SecurityEvent,
  identity: Pick<Identity, 'email' | 'name' | 'locale'>,
  origin: EventOrigin,
  product: string,
  extra: { to?: string; email?: string; link?: string } = {},
): MailMessage {
  const texts = TEXTS[identity.locale];
  const t = translator(identity.locale);
  const vars = { product, email: extra.email ?? '' };
  const event_ = texts.events[event];
  // The name is the person's own text: it is shortened and left out when a mail program could make it a link.
  const name = mailText(identity.name);
  const greeting = name === undefined ? t('mailGreetingNoName') : t('mailGreeting', { name });
  const when = formatDateTimeLong(origin.at, identity.locale);
  const facts: (readonly [string, string])[] = OTHERS_REQUEST.has(event)
    ? [[texts.when, when]]
    : [
        [texts.when, when],
        [texts.browser, origin.browser ?? texts.unknown],
        [texts.address, origin.address ?? texts.unknown],
      ];
  const body = fill(event_.body, vars);
  const validity = fill(texts.validity, { hours: String(ACTION_TTL['email-change'] / 3600) });
  const confirm: MailBlock[] = extra.link
    ? [{ button: { label: texts.action, url: extra.link } }, validity]
    : [];
  return renderMail({
    to: extra.to ?? identity.email,
    language: identity.locale,
    product,
    subject: fill(event_.subject, vars),
    greeting,
    body: [
      body,
      ...confirm,
      { facts: facts.map(([label, value]) => labelled(identity.locale, label, value)) },
      event_.notYou,
    ],
  });
}
