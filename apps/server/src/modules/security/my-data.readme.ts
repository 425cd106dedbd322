import { DATA_EXPORT_DAYS, formatDate, type Language } from '@portal/contract';

/** The README of the export of a person's data, in their language: what each file holds. */
export const README: Record<Language, (at: Date) => string> = {
  de: (at) => `Ihre Daten im Portal, Stand ${formatDate(at, 'de')}

Dieses Archiv enthält alles, was das Portal über Sie speichert, als JSON-Dateien (UTF-8):

profile.json                   Ihr Profil: Name, E-Mail-Adresse, Sprache, Anmeldung
memberships.json               Ihre Konten und Rollen
invitations.json               Einladungen an Ihre E-Mail-Adresse
notification-preferences.json  welche Mitteilungen Sie per E-Mail erhalten
notifications.json             Ihre Mitteilungen
sign-in.json                   Anmeldungen, Sitzungen, Passkeys und Zwei-Faktor-Status (ohne Geheimnisse)
terms.json                     von Ihnen akzeptierte AGB und Datenschutzerklärungen
tickets.json                   Support-Anfragen, die Sie eröffnet haben (mit Ihrer Zustimmung zum Zugriff)
messages.json                  Nachrichten, die Sie geschrieben haben; ihre Anhänge liegen unter attachments/
log.json                       Einträge im Protokoll Ihrer Konten, die Sie betreffen oder die Sie ausgelöst haben

Passwörter, Schlüssel und Codes enthält das Archiv nicht. Angaben über andere Personen sind weggelassen.
Der Download steht ${DATA_EXPORT_DAYS} Tage lang bereit.
`,
  en: (at) => `Your data in the portal, as of ${formatDate(at, 'en')}

This archive holds everything the portal keeps about you, as JSON files (UTF-8):

profile.json                   your profile: name, email address, language, sign-in
memberships.json               your accounts and roles
invitations.json               invitations to your email address
notification-preferences.json  which notifications you receive by email
notifications.json             your notifications
sign-in.json                   sign-ins, sessions, passkeys and two-factor state (no secrets)
terms.json                     terms and privacy policies you accepted
tickets.json                   support tickets you opened (with your consent to access)
messages.json                  messages you wrote; their attachments are under attachments/
log.json                       entries in your accounts' logs about you or made by you

The archive holds no passwords, keys or codes. What concerns other people is left out.
The download is available for ${DATA_EXPORT_DAYS} days.
`,
  fr: (at) => `Vos données dans le portail, état au ${formatDate(at, 'fr')}

Cette archive contient tout ce que le portail conserve sur vous, en fichiers JSON (UTF-8) :

profile.json                   votre profil : nom, adresse e-mail, langue, connexion
memberships.json               vos comptes et rôles
invitations.json               les invitations à votre adresse e-mail
notification-preferences.json  les notifications que vous recevez par e-mail
notifications.json             vos notifications
sign-in.json                   connexions, sessions, clés d’accès et état de l’authentification à deux facteurs (sans secrets)
terms.json                     les CG et politiques de confidentialité que vous avez acceptées
tickets.json                   les demandes de support que vous avez ouvertes (avec votre accord d’accès)
messages.json                  les messages que vous avez écrits ; leurs pièces jointes sont sous attachments/
log.json                       les entrées du journal de vos comptes qui vous concernent ou que vous avez faites

L’archive ne contient ni mots de passe, ni clés, ni codes. Ce qui concerne d’autres personnes est omis.
Le téléchargement reste disponible ${DATA_EXPORT_DAYS} jours.
`,
  it: (at) => `I suoi dati nel portale, aggiornati al ${formatDate(at, 'it')}

Questo archivio contiene tutto ciò che il portale conserva su di lei, in file JSON (UTF-8):

profile.json                   il suo profilo: nome, indirizzo e-mail, lingua, accesso
memberships.json               i suoi account e ruoli
invitations.json               gli inviti al suo indirizzo e-mail
notification-preferences.json  quali notifiche riceve per e-mail
notifications.json             le sue notifiche
sign-in.json                   accessi, sessioni, passkey e stato dell’autenticazione a due fattori (senza segreti)
terms.json                     le CG e le informative sulla privacy che ha accettato
tickets.json                   le richieste di supporto che ha aperto (con il suo consenso all’accesso)
messages.json                  i messaggi che ha scritto; i loro allegati sono in attachments/
log.json                       le voci del registro dei suoi account che la riguardano o che ha fatto lei

L’archivio non contiene password, chiavi né codici. Ciò che riguarda altre persone è omesso.
Il download resta disponibile per ${DATA_EXPORT_DAYS} giorni.
`,
};
