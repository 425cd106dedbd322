import { DATA_EXPORT_DAYS, formatDate, type Language } from '@portal/contract';

/** The README of the export of an account's data, in the owner's language: what each file holds (decision 240). */
export const ACCOUNT_README: Record<Language, (account: string, at: Date) => string> = {
  de: (account, at) => `Daten des Kontos «${account}» im Portal, Stand ${formatDate(at, 'de')}

Dieses Archiv enthält alles, was das Portal über das Konto speichert:

company.json        Firmenprofil, Zwei-Faktor-Regel und Rechnungsangaben; das Logo liegt unter company/
members.json        Mitglieder mit Rolle und letzter Anmeldung
invitations.json    Einladungen ins Konto
subscription.json   das Abonnement
invoices.json       Rechnungen und Gutschriften; die PDFs liegen unter invoices/ (dieselben wie im Portal)
payments.json       die auf die Rechnungen gebuchten Zahlungen
log.csv             das Protokoll des Kontos (wie der CSV-Export unter «Protokoll»)
tickets.json        Support-Anfragen mit ihren Nachrichten; die Anhänge liegen unter tickets/
integrations.json   Einstellungen der Integrationen (DeepCloud, PepperShop, AbaClik)

Passwörter, Schlüssel, Tokens und Zugangsdaten der Integrationen enthält das Archiv nicht, ebenso wenig die
internen Notizen des Supports. JSON-Dateien sind UTF-8.
Der Download steht ${DATA_EXPORT_DAYS} Tage lang bereit.
`,
  en: (account, at) => `Data of the account “${account}” in the portal, as of ${formatDate(at, 'en')}

This archive holds everything the portal keeps about the account:

company.json        company profile, two-factor rule and billing details; the logo is under company/
members.json        members with their role and last sign-in
invitations.json    invitations to the account
subscription.json   the subscription
invoices.json       invoices and credit notes; the PDFs are under invoices/ (the same as in the portal)
payments.json       the payments booked on the invoices
log.csv             the account's log (like the CSV export under “Logs”)
tickets.json        support tickets with their messages; the attachments are under tickets/
integrations.json   the integrations' settings (DeepCloud, PepperShop, AbaClik)

The archive holds no passwords, keys, tokens or credentials of the integrations, nor the support team's internal
notes. JSON files are UTF-8.
The download is available for ${DATA_EXPORT_DAYS} days.
`,
  fr: (account, at) => `Données du compte « ${account} » dans le portail, état au ${formatDate(at, 'fr')}

Cette archive contient tout ce que le portail conserve sur le compte :

company.json        profil de l’entreprise, règle d’authentification à deux facteurs et données de facturation ;
                    le logo est sous company/
members.json        les membres avec leur rôle et leur dernière connexion
invitations.json    les invitations au compte
subscription.json   l’abonnement
invoices.json       factures et notes de crédit ; les PDF sont sous invoices/ (les mêmes que dans le portail)
payments.json       les paiements comptabilisés sur les factures
log.csv             le journal du compte (comme l’export CSV sous « Journal »)
tickets.json        les demandes de support avec leurs messages ; les pièces jointes sont sous tickets/
integrations.json   les paramètres des intégrations (DeepCloud, PepperShop, AbaClik)

L’archive ne contient ni mots de passe, ni clés, ni jetons, ni identifiants des intégrations, ni les notes
internes du support. Les fichiers JSON sont en UTF-8.
Le téléchargement reste disponible ${DATA_EXPORT_DAYS} jours.
`,
  it: (account, at) => `Dati dell’account «${account}» nel portale, aggiornati al ${formatDate(at, 'it')}

Questo archivio contiene tutto ciò che il portale conserva sull’account:

company.json        profilo aziendale, regola dell’autenticazione a due fattori e dati di fatturazione;
                    il logo è in company/
members.json        i membri con ruolo e ultimo accesso
invitations.json    gli inviti all’account
subscription.json   l’abbonamento
invoices.json       fatture e note di credito; i PDF sono in invoices/ (gli stessi del portale)
payments.json       i pagamenti registrati sulle fatture
log.csv             il registro dell’account (come l’esportazione CSV in «Registro»)
tickets.json        le richieste di supporto con i loro messaggi; gli allegati sono in tickets/
integrations.json   le impostazioni delle integrazioni (DeepCloud, PepperShop, AbaClik)

L’archivio non contiene password, chiavi, token né credenziali delle integrazioni, né le note interne del
supporto. I file JSON sono in UTF-8.
Il download resta disponibile per ${DATA_EXPORT_DAYS} giorni.
`,
};
