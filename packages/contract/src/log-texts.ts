import type { Language } from './common.ts';
import type { LogSubject } from './logs.ts';

// The account log's words in the four languages, for the web (the table), the server (the free-text search matches
// what the reader sees, and the CSV export writes it) alike: one table, so the three never disagree (decision 211).
// Imported as `@portal/contract/log-texts`, not through the package's index: the web's first load (which imports the
// index) stays without them, and only the logs page's chunk carries them.

type Texts = Record<Language, string>;

/** Each action the server writes, as the log shows it; an action missing here is shown from its key. */
export const LOG_ACTION_TEXTS: Record<string, Texts> = {
  'account.create': { de: 'Konto erstellt', en: 'Account created', fr: 'Compte créé', it: 'Account creato' },
  'account.update': {
    de: 'Konto geändert',
    en: 'Account changed',
    fr: 'Compte modifié',
    it: 'Account modificato',
  },
  'account.delete': {
    de: 'Konto gelöscht',
    en: 'Account deleted',
    fr: 'Compte supprimé',
    it: 'Account eliminato',
  },
  'account.deletion.schedule': {
    de: 'Löschung geplant',
    en: 'Deletion scheduled',
    fr: 'Suppression planifiée',
    it: 'Eliminazione pianificata',
  },
  'account.deletion.cancel': {
    de: 'Löschung abgebrochen',
    en: 'Deletion cancelled',
    fr: 'Suppression annulée',
    it: 'Eliminazione annullata',
  },
  'account.migration.begin': {
    de: 'Migration gestartet',
    en: 'Migration started',
    fr: 'Migration lancée',
    it: 'Migrazione avviata',
  },
  'account.terms.accept': {
    de: 'Bedingungen akzeptiert',
    en: 'Terms accepted',
    fr: 'Conditions acceptées',
    it: 'Condizioni accettate',
  },
  'company.update': {
    de: 'Firmenangaben geändert',
    en: 'Company details changed',
    fr: 'Données de l’entreprise modifiées',
    it: 'Dati aziendali modificati',
  },
  'company.logo.upload': {
    de: 'Logo hochgeladen',
    en: 'Logo uploaded',
    fr: 'Logo téléversé',
    it: 'Logo caricato',
  },
  'company.logo.remove': { de: 'Logo entfernt', en: 'Logo removed', fr: 'Logo supprimé', it: 'Logo rimosso' },
  'company.two_factor_policy': {
    de: 'Zwei-Faktor-Pflicht geändert',
    en: 'Two-factor rule changed',
    fr: 'Exigence à deux facteurs modifiée',
    it: 'Obbligo a due fattori modificato',
  },
  'shop.save': {
    de: 'Shop-Verbindung gespeichert',
    en: 'Shop connection saved',
    fr: 'Connexion à la boutique enregistrée',
    it: 'Collegamento al negozio salvato',
  },
  'shop.disconnect': {
    de: 'Shop-Verbindung getrennt',
    en: 'Shop disconnected',
    fr: 'Boutique déconnectée',
    it: 'Negozio scollegato',
  },
  'member.invite': {
    de: 'Mitglied eingeladen',
    en: 'Member invited',
    fr: 'Membre invité',
    it: 'Membro invitato',
  },
  'member.role.change': {
    de: 'Rolle geändert',
    en: 'Role changed',
    fr: 'Rôle modifié',
    it: 'Ruolo modificato',
  },
  'member.remove': {
    de: 'Mitglied entfernt',
    en: 'Member removed',
    fr: 'Membre retiré',
    it: 'Membro rimosso',
  },
  'member.leave': {
    de: 'Konto verlassen',
    en: 'Left the account',
    fr: 'Compte quitté',
    it: 'Account lasciato',
  },
  'invitation.accept': {
    de: 'Einladung angenommen',
    en: 'Invitation accepted',
    fr: 'Invitation acceptée',
    it: 'Invito accettato',
  },
  'invitation.decline': {
    de: 'Einladung abgelehnt',
    en: 'Invitation declined',
    fr: 'Invitation refusée',
    it: 'Invito rifiutato',
  },
  'invitation.resend': {
    de: 'Einladung erneut gesendet',
    en: 'Invitation sent again',
    fr: 'Invitation renvoyée',
    it: 'Invito inviato di nuovo',
  },
  'invitation.revoke': {
    de: 'Einladung zurückgezogen',
    en: 'Invitation withdrawn',
    fr: 'Invitation retirée',
    it: 'Invito ritirato',
  },
  'ownership.transfer.start': {
    de: 'Übertragung der Inhaberschaft gestartet',
    en: 'Ownership transfer started',
    fr: 'Transfert de propriété lancé',
    it: 'Trasferimento della titolarità avviato',
  },
  'ownership.transfer.accept': {
    de: 'Inhaberschaft übernommen',
    en: 'Ownership taken over',
    fr: 'Propriété reprise',
    it: 'Titolarità assunta',
  },
  'ownership.transfer.decline': {
    de: 'Übertragung der Inhaberschaft abgelehnt',
    en: 'Ownership transfer declined',
    fr: 'Transfert de propriété refusé',
    it: 'Trasferimento della titolarità rifiutato',
  },
  'ownership.transfer.cancel': {
    de: 'Übertragung der Inhaberschaft abgebrochen',
    en: 'Ownership transfer cancelled',
    fr: 'Transfert de propriété annulé',
    it: 'Trasferimento della titolarità annullato',
  },
  'support.access': {
    de: 'Zugriff durch den Support',
    en: 'Access by support',
    fr: 'Accès par le support',
    it: 'Accesso da parte del supporto',
  },
  'support.ticket.create': {
    de: 'Support-Anfrage eröffnet',
    en: 'Support ticket opened',
    fr: 'Demande de support ouverte',
    it: 'Richiesta di supporto aperta',
  },
  'support.ticket.reply': {
    de: 'Support-Anfrage beantwortet',
    en: 'Support ticket replied to',
    fr: 'Réponse à une demande de support',
    it: 'Risposta a una richiesta di supporto',
  },
  'support.ticket.reopen': {
    de: 'Support-Anfrage wieder eröffnet',
    en: 'Support ticket reopened',
    fr: 'Demande de support rouverte',
    it: 'Richiesta di supporto riaperta',
  },
  'support.ticket.close': {
    de: 'Support-Anfrage geschlossen',
    en: 'Support ticket closed',
    fr: 'Demande de support fermée',
    it: 'Richiesta di supporto chiusa',
  },
  'support.ticket.consent': {
    de: 'Zustimmung zum Support-Zugriff geändert',
    en: 'Consent to support access changed',
    fr: 'Accord d’accès du support modifié',
    it: 'Consenso all’accesso del supporto modificato',
  },
  'support.consent.grant': {
    de: 'Zugriff des Supports erlaubt',
    en: 'Support access allowed',
    fr: 'Accès du support autorisé',
    it: 'Accesso del supporto consentito',
  },
  'support.consent.end': {
    de: 'Zugriff des Supports beendet',
    en: 'Support access ended',
    fr: 'Accès du support terminé',
    it: 'Accesso del supporto terminato',
  },
  'support.agent.reply': {
    de: 'Support hat geantwortet',
    en: 'Support replied',
    fr: 'Le support a répondu',
    it: 'Il supporto ha risposto',
  },
  'support.agent.note': {
    de: 'Interne Notiz des Supports',
    en: 'Internal note by support',
    fr: 'Note interne du support',
    it: 'Nota interna del supporto',
  },
  'support.agent.status': {
    de: 'Status der Anfrage geändert',
    en: 'Ticket status changed',
    fr: 'Statut de la demande modifié',
    it: 'Stato della richiesta modificato',
  },
  'support.agent.assign': {
    de: 'Anfrage zugewiesen',
    en: 'Ticket assigned',
    fr: 'Demande attribuée',
    it: 'Richiesta assegnata',
  },
  'subscription.change': {
    de: 'Abonnement geändert',
    en: 'Subscription changed',
    fr: 'Abonnement modifié',
    it: 'Abbonamento modificato',
  },
  'subscription.cancel': {
    de: 'Abonnement gekündigt',
    en: 'Subscription cancelled',
    fr: 'Abonnement résilié',
    it: 'Abbonamento disdetto',
  },
  'subscription.resume': {
    de: 'Kündigung widerrufen',
    en: 'Cancellation withdrawn',
    fr: 'Résiliation annulée',
    it: 'Disdetta revocata',
  },
  'billing.card.setup': {
    de: 'Kartenerfassung gestartet',
    en: 'Card setup started',
    fr: 'Enregistrement d’une carte commencé',
    it: 'Registrazione di una carta avviata',
  },
  'billing.card.save': {
    de: 'Karte hinterlegt',
    en: 'Card saved',
    fr: 'Carte enregistrée',
    it: 'Carta registrata',
  },
  'billing.card.remove': {
    de: 'Karte entfernt',
    en: 'Card removed',
    fr: 'Carte supprimée',
    it: 'Carta rimossa',
  },
  'billing.card.declined': {
    de: 'Kartenzahlung abgelehnt',
    en: 'Card payment declined',
    fr: 'Paiement par carte refusé',
    it: 'Pagamento con carta rifiutato',
  },
  'cloud.connected': {
    de: 'Cloud verbunden',
    en: 'Cloud connected',
    fr: 'Cloud connecté',
    it: 'Cloud collegato',
  },
  'cloud.disconnected': {
    de: 'Cloud-Verbindung getrennt',
    en: 'Cloud disconnected',
    fr: 'Cloud déconnecté',
    it: 'Cloud scollegato',
  },
  'user.update': {
    de: 'Profil geändert',
    en: 'Profile changed',
    fr: 'Profil modifié',
    it: 'Profilo modificato',
  },
  'abaclik.device-paired': {
    de: 'AbaClik-Gerät gekoppelt',
    en: 'AbaClik device paired',
    fr: 'Appareil AbaClik associé',
    it: 'Dispositivo AbaClik associato',
  },
  'abaclik.device-revoked': {
    de: 'AbaClik-Gerät entkoppelt',
    en: 'AbaClik device unpaired',
    fr: 'Appareil AbaClik dissocié',
    it: 'Dispositivo AbaClik dissociato',
  },
};

/** "ownership.transfer.start" → "Ownership transfer start": the key made readable when no text exists. */
export function readableLogKey(key: string): string {
  const words = key
    .split(/[._-]+/)
    .filter(Boolean)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An action as the log shows it in `language`. */
export function logActionText(action: string, language: Language): string {
  return Object.hasOwn(LOG_ACTION_TEXTS, action)
    ? LOG_ACTION_TEXTS[action]![language]
    : readableLogKey(action);
}

/** The words of subjects that carry none of their own (a fixed thing) or a word before their name. */
export const LOG_SUBJECT_WORDS = {
  deletedPerson: {
    de: 'Gelöschte Person',
    en: 'Deleted person',
    fr: 'Personne supprimée',
    it: 'Persona eliminata',
  },
  thisAccount: { de: 'Dieses Konto', en: 'This account', fr: 'Ce compte', it: 'Questo account' },
  agb: {
    de: 'Allgemeine Geschäftsbedingungen',
    en: 'Terms and conditions',
    fr: 'Conditions générales',
    it: 'Condizioni generali',
  },
  privacy: {
    de: 'Datenschutzerklärung',
    en: 'Privacy policy',
    fr: 'Politique de confidentialité',
    it: 'Informativa sulla privacy',
  },
  invoice: { de: 'Rechnung', en: 'Invoice', fr: 'Facture', it: 'Fattura' },
  ticket: { de: 'Anfrage Nr.', en: 'Ticket no.', fr: 'Demande n°', it: 'Richiesta n.' },
  invitation: { de: 'Einladung an', en: 'Invitation to', fr: 'Invitation à', it: 'Invito a' },
  transfer: {
    de: 'Übertragung der Inhaberschaft an',
    en: 'Ownership transfer to',
    fr: 'Transfert de la propriété à',
    it: 'Trasferimento della titolarità a',
  },
  logo: { de: 'Firmenlogo', en: 'Company logo', fr: "Logo de l'entreprise", it: 'Logo aziendale' },
  file: { de: 'Datei', en: 'File', fr: 'Fichier', it: 'File' },
  shop: {
    de: 'Shop-Verbindung',
    en: 'Shop connection',
    fr: 'Connexion à la boutique',
    it: 'Connessione al negozio',
  },
  subscription: { de: 'Abonnement', en: 'Subscription', fr: 'Abonnement', it: 'Abbonamento' },
  cloud: {
    de: 'DeepCloud-Verbindung',
    en: 'DeepCloud connection',
    fr: 'Connexion DeepCloud',
    it: 'Connessione DeepCloud',
  },
  migration: { de: 'Migration', en: 'Migration', fr: 'Migration', it: 'Migrazione' },
  passkey: { de: 'Passkey', en: 'Passkey', fr: 'Clé d’accès', it: 'Passkey' },
  paymentImport: {
    de: 'Zahlungsimport',
    en: 'Payment import',
    fr: 'Import de paiements',
    it: 'Importazione di pagamenti',
  },
  bankPayment: { de: 'Zahlung', en: 'Payment', fr: 'Paiement', it: 'Pagamento' },
} satisfies Record<string, Texts>;

/** The areas support staff open (`support.access` entries name the request), by the API path's area. */
export const LOG_AREA_WORDS: Record<string, Texts> = {
  accounts: { de: 'Kontodaten', en: 'Account details', fr: 'Données du compte', it: "Dati dell'account" },
  billing: { de: 'Abrechnung', en: 'Billing', fr: 'Facturation', it: 'Fatturazione' },
  subscriptions: { de: 'Abonnement', en: 'Subscription', fr: 'Abonnement', it: 'Abbonamento' },
  company: {
    de: 'Firmenangaben',
    en: 'Company details',
    fr: "Données de l'entreprise",
    it: "Dati dell'azienda",
  },
  members: {
    de: 'Benutzerverwaltung',
    en: 'User management',
    fr: 'Gestion des utilisateurs',
    it: 'Gestione utenti',
  },
  ownership: { de: 'Inhaberschaft', en: 'Ownership', fr: 'Propriété', it: 'Titolarità' },
  logs: { de: 'Protokoll', en: 'Log', fr: 'Journal', it: 'Registro' },
  notifications: { de: 'Posteingang', en: 'Inbox', fr: 'Boîte de réception', it: 'Posta in arrivo' },
  support: {
    de: 'Support-Anfragen',
    en: 'Support tickets',
    fr: 'Demandes de support',
    it: 'Richieste di supporto',
  },
  'deep-cloud': {
    de: 'DeepCloud-Verbindung',
    en: 'DeepCloud connection',
    fr: 'Connexion DeepCloud',
    it: 'Connessione DeepCloud',
  },
  shop: {
    de: 'Shop-Konfiguration',
    en: 'Shop configuration',
    fr: 'Configuration de la boutique',
    it: 'Configurazione del negozio',
  },
  abaclik: { de: 'AbaClik', en: 'AbaClik', fr: 'AbaClik', it: 'AbaClik' },
  lessons: { de: 'Lektionen', en: 'Lessons', fr: 'Leçons', it: 'Lezioni' },
  users: { de: 'Benutzer', en: 'Users', fr: 'Utilisateurs', it: 'Utenti' },
};

/** The kinds whose text is a word (and, for some, a name after it); person and account are their name alone. */
const WORD_BEFORE_NAME = new Set(['invoice', 'ticket', 'invitation', 'transfer', 'file', 'cloud', 'passkey']);

/**
 * What an entry acted on as the log shows it in `language`: the person, the account's name, "Allgemeine
 * Geschäftsbedingungen", "Rechnung 2026-0012", "Anfrage Nr. 1042: Drucker druckt nicht", "Einladung an
 * anna@example.com", the area support opened… Never a raw id.
 */
export function logSubjectText(subject: LogSubject, language: Language): string {
  const words = LOG_SUBJECT_WORDS as Record<string, Texts>;
  const { kind, id, ref, name } = subject;
  switch (kind) {
    case 'person':
      return name ?? words.deletedPerson![language];
    case 'account':
      return name ?? words.thisAccount![language];
    case 'terms':
      return (id && words[id]?.[language]) || readableLogKey(id ?? kind);
    case 'ticket':
      return [`${words.ticket![language]} ${ref ?? ''}`.trim(), name].filter(Boolean).join(': ');
    case 'area':
      return (id && LOG_AREA_WORDS[id]?.[language]) || readableLogKey(id ?? kind);
    case 'other':
      return name ?? '';
  }
  const word = words[kind]?.[language] ?? readableLogKey(kind);
  const detail = ref ?? name;
  return WORD_BEFORE_NAME.has(kind) && detail ? `${word} ${detail}` : word;
}

/** What the free-text search calls "contains": case and accents as the reader types them (ILIKE's folding). */
export function logTextContains(text: string, query: string): boolean {
  return text.toLocaleLowerCase().includes(query.trim().toLocaleLowerCase());
}
