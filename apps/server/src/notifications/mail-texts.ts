import type { Language, NotificationType } from '@portal/contract';

/**
 * How each notification type reads in a mail, in each language: the one table of mail texts (mails.ts renders
 * them). The web renders the same notifications from its messages (section `notifications`); both read the stored
 * type and parameters.
 */

/** The parameters as a mail shows them: people's text through `mailText` (left out when it could become a link). */
export interface Shown {
  account: string | undefined;
  person: string | undefined;
  role: string;
  previousRole: string;
  date: string;
  kind: string;
  version: string;
  ticket: string;
  /** Invoice number and payable amount, e.g. "2026-000123 (CHF 1'234.50)". */
  invoice: string;
  due: string;
  /** An announcement's title in the recipient's language, its kind and its window ("von … bis …"). */
  announcement: string;
  announcementKind: string;
  announcementWindow: string;
  /** The account whose data export is ready ("«Muster AG»"); undefined for a person's own export. */
  exportedAccount: string | undefined;
}

export interface LanguageTexts {
  greeting: (name: string | undefined) => string;
  action: string;
  why: string;
  someone: string;
  account: (account: string | undefined) => string;
  /** A ticket's number and subject as the web's support pages write them: "Nr. 42 «Drucker»". */
  ticket: (number: number | undefined, subject: string | undefined) => string;
  roles: Record<string, string>;
  kinds: Record<string, string>;
  /** The kinds of announcement (info, maintenance, incident). */
  announcementKinds: Record<string, string>;
  /** An announcement's window: from its start, to its end if it has one (both already formatted). */
  window: (start: string, end: string | null) => string;
  types: Record<NotificationType, (p: Shown) => [subject: string, body: string]>;
  /** A type this version does not know (written by a newer instance). */
  unknown: [subject: string, body: string];
}
/** The non-empty ones of `parts`, joined by a space. */
const words = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(' ');

export const TEXTS: Record<Language, LanguageTexts> = {
  de: {
    greeting: (name) => (name === undefined ? 'Guten Tag' : `Guten Tag ${name}`),
    action: 'Im Portal öffnen',
    why: 'Sie erhalten diese E-Mail, weil Sie sie für diese Art von Mitteilung eingeschaltet haben. Sie können das unter «Mein Profil» im Abschnitt «Mitteilungen per E-Mail» ändern.',
    someone: 'Jemand',
    account: (account) => (account === undefined ? 'einem Konto' : `«${account}»`),
    ticket: (number, subject) =>
      words(number === undefined ? '' : `Nr. ${number}`, subject && `«${subject}»`),
    roles: {
      EMPLOYEE: 'Mitarbeiter/in',
      ADMIN: 'Administrator/in',
      DC: 'Digital Coach',
      OWNER: 'Inhaber/in',
    },
    kinds: {
      agb: 'der AGB',
      privacy: 'der Datenschutzerklärung',
      all: 'der AGB und der Datenschutzerklärung',
    },
    announcementKinds: { info: 'Information', maintenance: 'Wartung', incident: 'Störung' },
    window: (start, end) => (end ? `, von ${start} bis ${end}` : `, ab ${start}`),
    types: {
      'invitation.received': (p) => [
        `Einladung zu ${p.account}`,
        `${p.person} lädt Sie ein, ${p.account} als ${p.role} beizutreten.`,
      ],
      'invitation.accepted': (p) => [
        `${p.person} hat Ihre Einladung angenommen`,
        `${p.person} ist dem Konto jetzt als ${p.role} beigetreten.`,
      ],
      'invitation.declined': (p) => [
        'Eine Einladung wurde abgelehnt',
        `die Einladung als ${p.role} wurde abgelehnt.`,
      ],
      'member.role_changed': (p) => [
        `Ihre Rolle in ${p.account} wurde geändert`,
        `${p.person} hat Ihre Rolle in ${p.account} von ${p.previousRole} zu ${p.role} geändert.`,
      ],
      'member.removed': (p) => [
        `Sie wurden aus ${p.account} entfernt`,
        `${p.person} hat Sie aus ${p.account} entfernt. Sie haben keinen Zugang mehr zu diesem Konto.`,
      ],
      'ownership.transfer_requested': (p) => [
        `Inhaberschaft von ${p.account} übernehmen?`,
        `${p.person} möchte Ihnen die Inhaberschaft von ${p.account} übertragen. Sie können annehmen oder ablehnen.`,
      ],
      'ownership.transfer_accepted': (p) => [
        `Inhaberschaft von ${p.account} übertragen`,
        `${p.person} hat die Inhaberschaft von ${p.account} angenommen. Sie sind jetzt Administrator/in.`,
      ],
      'ownership.transfer_cancelled': (p) => [
        `Übertragung von ${p.account} zurückgezogen`,
        `${p.person} hat das Angebot, Ihnen die Inhaberschaft von ${p.account} zu übertragen, zurückgezogen.`,
      ],
      'account.deletion_scheduled': (p) => [
        `${p.account} wird gelöscht`,
        `${p.person} hat die Löschung von ${p.account} veranlasst. Das Konto ist noch bis am ${p.date} verfügbar.`,
      ],
      'account.deletion_cancelled': (p) => [
        `Löschung von ${p.account} abgebrochen`,
        `${p.person} hat die Löschung von ${p.account} abgebrochen. Das Konto bleibt bestehen.`,
      ],
      'account.two_factor_required': (p) => [
        `${p.account} verlangt die Zwei-Faktor-Authentifizierung`,
        `für ${p.account} brauchen Sie ab dem ${p.date} einen zweiten Faktor. Richten Sie unter «Mein Profil › Sicherheit» eine Authenticator-App oder einen Passkey ein; ohne ist das Konto danach nicht mehr zugänglich. Ihre anderen Konten sind davon nicht betroffen.`,
      ],
      'terms.to_accept': (p) => [
        `Neue Version ${p.kind} zu akzeptieren`,
        `die Version ${p.version} ${p.kind} ist in Kraft. Bitte lesen und akzeptieren Sie sie für ${p.account}.`,
      ],
      'ticket.answered': (p) => [
        `Antwort auf Ihre Anfrage ${p.ticket}`,
        `der Support hat auf Ihre Anfrage ${p.ticket} geantwortet.`,
      ],
      'ticket.waiting_for_customer': (p) => [
        `Ihre Anfrage ${p.ticket} wartet auf Sie`,
        `der Support braucht Ihre Antwort, um die Anfrage ${p.ticket} weiter zu bearbeiten.`,
      ],
      'ticket.solved': (p) => [
        `Ihre Anfrage ${p.ticket} ist gelöst`,
        `der Support hat Ihre Anfrage ${p.ticket} als gelöst markiert. Sie können sie innert 14 Tagen wieder eröffnen.`,
      ],
      'invoice.issued': (p) => [
        `Neue Rechnung ${p.invoice}`,
        `für ${p.account} wurde die Rechnung ${p.invoice} ausgestellt, zahlbar bis ${p.due}. Sie finden sie mit dem PDF unter «Rechnungen».`,
      ],
      'invoice.overdue': (p) => [
        `Rechnung ${p.invoice} ist überfällig`,
        `die Rechnung ${p.invoice} für ${p.account} war am ${p.due} fällig und ist noch nicht bezahlt. Bitte begleichen Sie sie mit der QR-Rechnung im PDF.`,
      ],
      'cloud.needs_reconnect': (p) => [
        `DeepCloud muss neu verbunden werden`,
        `DeepCloud hat die Verbindung von ${p.account} nicht mehr angenommen. Bitte verbinden Sie das Konto unter «DeepCloud» neu; bis dahin sind die Organisationen nicht erreichbar.`,
      ],
      'data_export.ready': (p) => [
        p.exportedAccount
          ? `Die Kontodaten stehen zum Download bereit`
          : `Ihre Daten stehen zum Download bereit`,
        p.exportedAccount
          ? `die Zusammenstellung der Daten von ${p.exportedAccount} ist fertig. Sie können sie bis am ${p.date} unter «Einstellungen › Firmenprofil» herunterladen.`
          : `die Zusammenstellung Ihrer Daten ist fertig. Sie können sie bis am ${p.date} unter «Mein Profil › Meine Daten» herunterladen.`,
      ],
      'announcement.published': (p) => [
        `${p.announcementKind}: ${p.announcement}`,
        `wir haben eine Mitteilung für Sie (${p.announcementKind}): «${p.announcement}»${p.announcementWindow}. Den ganzen Text finden Sie im Portal.`,
      ],
    },
    unknown: ['Neue Mitteilung', 'im Portal wartet eine neue Mitteilung auf Sie.'],
  },
  en: {
    greeting: (name) => (name === undefined ? 'Hello' : `Hello ${name}`),
    action: 'Open in the portal',
    why: 'You receive this email because you switched it on for this kind of notification. You can change that under “My profile” in the section “Notifications by email”.',
    someone: 'Someone',
    account: (account) => (account === undefined ? 'an account' : `“${account}”`),
    ticket: (number, subject) =>
      words(number === undefined ? '' : `no. ${number}`, subject && `“${subject}”`),
    roles: { EMPLOYEE: 'employee', ADMIN: 'administrator', DC: 'Digital Coach', OWNER: 'owner' },
    kinds: { agb: 'terms', privacy: 'privacy policy', all: 'terms and privacy policy' },
    announcementKinds: { info: 'Information', maintenance: 'Maintenance', incident: 'Incident' },
    window: (start, end) => (end ? `, from ${start} to ${end}` : `, from ${start}`),
    types: {
      'invitation.received': (p) => [
        `Invitation to ${p.account}`,
        `${p.person} invites you to join ${p.account} as ${p.role}.`,
      ],
      'invitation.accepted': (p) => [
        `${p.person} accepted your invitation`,
        `${p.person} has joined the account as ${p.role}.`,
      ],
      'invitation.declined': (p) => [
        'An invitation was declined',
        `The invitation as ${p.role} was declined.`,
      ],
      'member.role_changed': (p) => [
        `Your role in ${p.account} changed`,
        `${p.person} changed your role in ${p.account} from ${p.previousRole} to ${p.role}.`,
      ],
      'member.removed': (p) => [
        `You were removed from ${p.account}`,
        `${p.person} removed you from ${p.account}. You no longer have access to this account.`,
      ],
      'ownership.transfer_requested': (p) => [
        `Take over the ownership of ${p.account}?`,
        `${p.person} would like to transfer the ownership of ${p.account} to you. You can accept or decline.`,
      ],
      'ownership.transfer_accepted': (p) => [
        `Ownership of ${p.account} transferred`,
        `${p.person} accepted the ownership of ${p.account}. You are an administrator now.`,
      ],
      'ownership.transfer_cancelled': (p) => [
        `Transfer of ${p.account} withdrawn`,
        `${p.person} withdrew the offer to transfer the ownership of ${p.account} to you.`,
      ],
      'account.deletion_scheduled': (p) => [
        `${p.account} will be deleted`,
        `${p.person} scheduled the deletion of ${p.account}. The account remains available until ${p.date}.`,
      ],
      'account.deletion_cancelled': (p) => [
        `Deletion of ${p.account} cancelled`,
        `${p.person} cancelled the deletion of ${p.account}. The account stays.`,
      ],
      'account.two_factor_required': (p) => [
        `${p.account} requires two-factor authentication`,
        `From ${p.date}, ${p.account} requires a second factor. Set up an authenticator app or a passkey under “My profile › Security”; without one the account is no longer accessible after that date. Your other accounts are not affected.`,
      ],
      'terms.to_accept': (p) => [
        `New ${p.kind} to accept`,
        `Version ${p.version} of the ${p.kind} is in force. Please read and accept it for ${p.account}.`,
      ],
      'ticket.answered': (p) => [
        `Reply to your ticket ${p.ticket}`,
        `Support replied to your ticket ${p.ticket}.`,
      ],
      'ticket.waiting_for_customer': (p) => [
        `Your ticket ${p.ticket} is waiting for you`,
        `Support needs your answer to continue with the ticket ${p.ticket}.`,
      ],
      'ticket.solved': (p) => [
        `Your ticket ${p.ticket} is solved`,
        `Support marked your ticket ${p.ticket} as solved. You can reopen it within 14 days.`,
      ],
      'invoice.issued': (p) => [
        `New invoice ${p.invoice}`,
        `Invoice ${p.invoice} was issued for ${p.account}, payable by ${p.due}. You find it with its PDF under “Billing”.`,
      ],
      'invoice.overdue': (p) => [
        `Invoice ${p.invoice} is overdue`,
        `Invoice ${p.invoice} for ${p.account} was due on ${p.due} and is not paid yet. Please pay it with the QR-bill in the PDF.`,
      ],
      'cloud.needs_reconnect': (p) => [
        `DeepCloud needs to be connected again`,
        `DeepCloud no longer accepts the connection of ${p.account}. Please connect the account again under “DeepCloud”; until then its organisations cannot be reached.`,
      ],
      'data_export.ready': (p) => [
        p.exportedAccount ? `The account data is ready to download` : `Your data is ready to download`,
        p.exportedAccount
          ? `The export of the data of ${p.exportedAccount} is ready. You can download it until ${p.date} under “Settings › Company profile”.`
          : `The export of your data is ready. You can download it until ${p.date} under “My profile › My data”.`,
      ],
      'announcement.published': (p) => [
        `${p.announcementKind}: ${p.announcement}`,
        `We have an announcement for you (${p.announcementKind}): “${p.announcement}”${p.announcementWindow}. You can read the full text in the portal.`,
      ],
    },
    unknown: ['New notification', 'A new notification is waiting for you in the portal.'],
  },
  fr: {
    greeting: (name) => (name === undefined ? 'Bonjour' : `Bonjour ${name}`),
    action: 'Ouvrir dans le portail',
    why: 'Vous recevez cet e-mail parce que vous l’avez activé pour ce type de notification. Vous pouvez le modifier sous « Mon profil », dans la section « Notifications par e-mail ».',
    someone: 'Quelqu’un',
    account: (account) => (account === undefined ? 'un compte' : `« ${account} »`),
    ticket: (number, subject) =>
      words(number === undefined ? '' : `n° ${number}`, subject && `« ${subject} »`),
    roles: {
      EMPLOYEE: 'collaborateur/trice',
      ADMIN: 'administrateur/trice',
      DC: 'Digital Coach',
      OWNER: 'propriétaire',
    },
    kinds: {
      agb: 'des CG',
      privacy: 'de la déclaration de protection des données',
      all: 'des CG et de la déclaration de protection des données',
    },
    announcementKinds: { info: 'Information', maintenance: 'Maintenance', incident: 'Incident' },
    window: (start, end) => (end ? `, du ${start} au ${end}` : `, à partir du ${start}`),
    types: {
      'invitation.received': (p) => [
        `Invitation à ${p.account}`,
        `${p.person} vous invite à rejoindre ${p.account} avec le rôle ${p.role}.`,
      ],
      'invitation.accepted': (p) => [
        `${p.person} a accepté votre invitation`,
        `${p.person} a rejoint le compte avec le rôle ${p.role}.`,
      ],
      'invitation.declined': (p) => [
        'Une invitation a été refusée',
        `L’invitation pour le rôle ${p.role} a été refusée.`,
      ],
      'member.role_changed': (p) => [
        `Votre rôle dans ${p.account} a changé`,
        `${p.person} a changé votre rôle dans ${p.account} de ${p.previousRole} à ${p.role}.`,
      ],
      'member.removed': (p) => [
        `Vous avez été retiré·e de ${p.account}`,
        `${p.person} vous a retiré·e de ${p.account}. Vous n’avez plus accès à ce compte.`,
      ],
      'ownership.transfer_requested': (p) => [
        `Reprendre la propriété de ${p.account} ?`,
        `${p.person} souhaite vous transférer la propriété de ${p.account}. Vous pouvez accepter ou refuser.`,
      ],
      'ownership.transfer_accepted': (p) => [
        `Propriété de ${p.account} transférée`,
        `${p.person} a accepté la propriété de ${p.account}. Vous êtes maintenant administrateur/trice.`,
      ],
      'ownership.transfer_cancelled': (p) => [
        `Transfert de ${p.account} retiré`,
        `${p.person} a retiré l’offre de vous transférer la propriété de ${p.account}.`,
      ],
      'account.deletion_scheduled': (p) => [
        `${p.account} sera supprimé`,
        `${p.person} a programmé la suppression de ${p.account}. Le compte reste disponible jusqu’au ${p.date}.`,
      ],
      'account.deletion_cancelled': (p) => [
        `Suppression de ${p.account} annulée`,
        `${p.person} a annulé la suppression de ${p.account}. Le compte est conservé.`,
      ],
      'account.two_factor_required': (p) => [
        `${p.account} exige l’authentification à deux facteurs`,
        `À partir du ${p.date}, ${p.account} exige un deuxième facteur. Configurez une application d’authentification ou une clé d’accès sous « Mon profil › Sécurité » ; sans cela, le compte ne sera plus accessible après cette date. Vos autres comptes ne sont pas concernés.`,
      ],
      'terms.to_accept': (p) => [
        `Nouvelle version ${p.kind} à accepter`,
        `La version ${p.version} ${p.kind} est en vigueur. Veuillez la lire et l’accepter pour ${p.account}.`,
      ],
      'ticket.answered': (p) => [
        `Réponse à votre demande ${p.ticket}`,
        `Le support a répondu à votre demande ${p.ticket}.`,
      ],
      'ticket.waiting_for_customer': (p) => [
        `Votre demande ${p.ticket} attend votre réponse`,
        `Le support a besoin de votre réponse pour poursuivre la demande ${p.ticket}.`,
      ],
      'ticket.solved': (p) => [
        `Votre demande ${p.ticket} est résolue`,
        `Le support a marqué votre demande ${p.ticket} comme résolue. Vous pouvez la rouvrir dans les 14 jours.`,
      ],
      'invoice.issued': (p) => [
        `Nouvelle facture ${p.invoice}`,
        `La facture ${p.invoice} a été émise pour ${p.account}, payable d’ici au ${p.due}. Vous la trouvez avec son PDF sous « Facturation ».`,
      ],
      'invoice.overdue': (p) => [
        `La facture ${p.invoice} est échue`,
        `La facture ${p.invoice} pour ${p.account} était payable le ${p.due} et n’est pas encore réglée. Veuillez la payer avec la QR-facture du PDF.`,
      ],
      'cloud.needs_reconnect': (p) => [
        `DeepCloud doit être reconnecté`,
        `DeepCloud n’accepte plus la connexion de ${p.account}. Veuillez reconnecter le compte sous « DeepCloud » ; d’ici là, les organisations ne sont pas accessibles.`,
      ],
      'data_export.ready': (p) => [
        p.exportedAccount
          ? `Les données du compte sont prêtes à être téléchargées`
          : `Vos données sont prêtes à être téléchargées`,
        p.exportedAccount
          ? `L’export des données de ${p.exportedAccount} est prêt. Vous pouvez le télécharger jusqu’au ${p.date} sous « Paramètres › Profil de l’entreprise ».`
          : `L’export de vos données est prêt. Vous pouvez le télécharger jusqu’au ${p.date} sous « Mon profil › Mes données ».`,
      ],
      'announcement.published': (p) => [
        `${p.announcementKind} : ${p.announcement}`,
        `Nous avons une annonce pour vous (${p.announcementKind}) : « ${p.announcement} »${p.announcementWindow}. Vous trouverez le texte complet dans le portail.`,
      ],
    },
    unknown: ['Nouvelle notification', 'Une nouvelle notification vous attend dans le portail.'],
  },
  it: {
    greeting: (name) => (name === undefined ? 'Buongiorno' : `Buongiorno ${name}`),
    action: 'Apri nel portale',
    why: 'Riceve questa e-mail perché l’ha attivata per questo tipo di notifica. Può modificarlo in «Il mio profilo», nella sezione «Notifiche via e-mail».',
    someone: 'Qualcuno',
    account: (account) => (account === undefined ? 'un account' : `«${account}»`),
    ticket: (number, subject) => words(number === undefined ? '' : `n. ${number}`, subject && `«${subject}»`),
    roles: {
      EMPLOYEE: 'collaboratore/trice',
      ADMIN: 'amministratore/trice',
      DC: 'Digital Coach',
      OWNER: 'titolare',
    },
    kinds: {
      agb: 'delle CG',
      privacy: 'dell’informativa sulla protezione dei dati',
      all: 'delle CG e dell’informativa sulla protezione dei dati',
    },
    announcementKinds: { info: 'Informazione', maintenance: 'Manutenzione', incident: 'Disservizio' },
    window: (start, end) => (end ? `, dal ${start} al ${end}` : `, dal ${start}`),
    types: {
      'invitation.received': (p) => [
        `Invito a ${p.account}`,
        `${p.person} la invita a unirsi a ${p.account} come ${p.role}.`,
      ],
      'invitation.accepted': (p) => [
        `${p.person} ha accettato il suo invito`,
        `${p.person} si è unito/a all’account come ${p.role}.`,
      ],
      'invitation.declined': (p) => [
        'Un invito è stato rifiutato',
        `L’invito come ${p.role} è stato rifiutato.`,
      ],
      'member.role_changed': (p) => [
        `Il suo ruolo in ${p.account} è cambiato`,
        `${p.person} ha cambiato il suo ruolo in ${p.account} da ${p.previousRole} a ${p.role}.`,
      ],
      'member.removed': (p) => [
        `È stato/a rimosso/a da ${p.account}`,
        `${p.person} l’ha rimosso/a da ${p.account}. Non ha più accesso a questo account.`,
      ],
      'ownership.transfer_requested': (p) => [
        `Assumere la titolarità di ${p.account}?`,
        `${p.person} desidera trasferirle la titolarità di ${p.account}. Può accettare o rifiutare.`,
      ],
      'ownership.transfer_accepted': (p) => [
        `Titolarità di ${p.account} trasferita`,
        `${p.person} ha accettato la titolarità di ${p.account}. Ora è amministratore/trice.`,
      ],
      'ownership.transfer_cancelled': (p) => [
        `Trasferimento di ${p.account} ritirato`,
        `${p.person} ha ritirato l’offerta di trasferirle la titolarità di ${p.account}.`,
      ],
      'account.deletion_scheduled': (p) => [
        `${p.account} sarà eliminato`,
        `${p.person} ha programmato l’eliminazione di ${p.account}. L’account resta disponibile fino al ${p.date}.`,
      ],
      'account.deletion_cancelled': (p) => [
        `Eliminazione di ${p.account} annullata`,
        `${p.person} ha annullato l’eliminazione di ${p.account}. L’account resta.`,
      ],
      'account.two_factor_required': (p) => [
        `${p.account} richiede l’autenticazione a due fattori`,
        `Dal ${p.date}, ${p.account} richiede un secondo fattore. Configuri un’app di autenticazione o una passkey in «Il mio profilo › Sicurezza»; senza, dopo tale data l’account non sarà più accessibile. Gli altri account non sono interessati.`,
      ],
      'terms.to_accept': (p) => [
        `Nuova versione ${p.kind} da accettare`,
        `È in vigore la versione ${p.version} ${p.kind}. La legga e la accetti per ${p.account}.`,
      ],
      'ticket.answered': (p) => [
        `Risposta alla sua richiesta ${p.ticket}`,
        `Il supporto ha risposto alla sua richiesta ${p.ticket}.`,
      ],
      'ticket.waiting_for_customer': (p) => [
        `La sua richiesta ${p.ticket} attende una risposta`,
        `Il supporto ha bisogno della sua risposta per proseguire con la richiesta ${p.ticket}.`,
      ],
      'ticket.solved': (p) => [
        `La sua richiesta ${p.ticket} è risolta`,
        `Il supporto ha segnato la sua richiesta ${p.ticket} come risolta. Può riaprirla entro 14 giorni.`,
      ],
      'invoice.issued': (p) => [
        `Nuova fattura ${p.invoice}`,
        `È stata emessa la fattura ${p.invoice} per ${p.account}, pagabile entro il ${p.due}. La trova con il PDF sotto «Fatturazione».`,
      ],
      'invoice.overdue': (p) => [
        `La fattura ${p.invoice} è scaduta`,
        `La fattura ${p.invoice} per ${p.account} è scaduta il ${p.due} e non è ancora stata pagata. La paghi con la QR-fattura nel PDF.`,
      ],
      'cloud.needs_reconnect': (p) => [
        `DeepCloud deve essere ricollegato`,
        `DeepCloud non accetta più il collegamento di ${p.account}. Colleghi di nuovo l’account in «DeepCloud»; fino ad allora le organizzazioni non sono raggiungibili.`,
      ],
      'data_export.ready': (p) => [
        p.exportedAccount
          ? `I dati dell’account sono pronti per il download`
          : `I suoi dati sono pronti per il download`,
        p.exportedAccount
          ? `L’esportazione dei dati di ${p.exportedAccount} è pronta. Può scaricarla fino al ${p.date} in «Impostazioni › Profilo aziendale».`
          : `L’esportazione dei suoi dati è pronta. Può scaricarla fino al ${p.date} in «Il mio profilo › I miei dati».`,
      ],
      'announcement.published': (p) => [
        `${p.announcementKind}: ${p.announcement}`,
        `Abbiamo una comunicazione per lei (${p.announcementKind}): «${p.announcement}»${p.announcementWindow}. Trova il testo completo nel portale.`,
      ],
    },
    unknown: ['Nuova notifica', 'Una nuova notifica la attende nel portale.'],
  },
};
