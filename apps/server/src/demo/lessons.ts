import type { Language } from '@portal/contract';
import type { Queryable } from '../db/client.ts';

// The demo course: a short onboarding to the portal itself, offered to every account, in the four languages.

interface DemoLesson {
  slug: string;
  minutes: number;
  texts: Record<Language, { title: string; content: string }>;
}

export const DEMO_LESSONS: DemoLesson[] = [
  {
    slug: 'onboarding-accounts-and-members',
    minutes: 4,
    texts: {
      de: {
        title: 'Konten und Mitglieder',
        content: `Ein **Konto** steht für Ihre Firma im Portal. Rechnungen, Anfragen und Einstellungen gehören immer zu einem Konto; Sie können Mitglied mehrerer Konten sein und oben in der Leiste zwischen ihnen wechseln.

## Rollen

- **Inhaber:** Hat alle Rechte, akzeptiert die AGB und kann die Inhaberschaft übertragen.
- **Administrator:** Verwaltet Mitglieder, Firmenprofil und Rechnungen.
- **Mitarbeiter:** Arbeitet mit den Daten des Kontos, ändert aber keine Einstellungen.

## Jemanden einladen

1. Öffnen Sie **Einstellungen › Benutzerverwaltung**.
2. Wählen Sie «Mitglieder einladen», geben Sie die E-Mail-Adresse ein und wählen Sie die Rolle.
3. Die Person erhält eine Einladung und erscheint in der Liste, sobald sie angenommen hat.

> Tipp: Vergeben Sie die kleinste Rolle, die für die Arbeit genügt. Sie können sie später jederzeit anpassen.`,
      },
      en: {
        title: 'Accounts and members',
        content: `An **account** stands for your company in the portal. Invoices, requests and settings always belong to an account; you can be a member of several accounts and switch between them in the top bar.

## Roles

- **Owner:** has every right, accepts the terms and can transfer ownership.
- **Administrator:** manages members, the company profile and billing.
- **Employee:** works with the account's data but changes no settings.

## Inviting someone

1. Open **Settings › User management**.
2. Choose "Invite members", enter the e-mail address and pick the role.
3. The person receives an invitation and appears in the list once they have accepted it.

> Tip: give the smallest role that is enough for the job. You can change it at any time.`,
      },
      fr: {
        title: 'Comptes et membres',
        content: `Un **compte** représente votre entreprise dans le portail. Factures, demandes et paramètres appartiennent toujours à un compte ; vous pouvez être membre de plusieurs comptes et passer de l’un à l’autre dans la barre du haut.

## Rôles

- **Propriétaire :** dispose de tous les droits, accepte les CG et peut transférer la propriété.
- **Administrateur :** gère les membres, le profil de l’entreprise et la facturation.
- **Collaborateur :** travaille avec les données du compte sans modifier les paramètres.

## Inviter quelqu’un

1. Ouvrez **Paramètres › Gestion des utilisateurs**.
2. Choisissez « Inviter des membres », saisissez l’adresse e-mail et choisissez le rôle.
3. La personne reçoit une invitation et apparaît dans la liste dès qu’elle l’a acceptée.

> Conseil : attribuez le plus petit rôle qui suffit au travail. Vous pouvez le modifier à tout moment.`,
      },
      it: {
        title: 'Account e membri',
        content: `Un **account** rappresenta la sua azienda nel portale. Fatture, richieste e impostazioni appartengono sempre a un account; può essere membro di più account e passare dall’uno all’altro nella barra in alto.

## Ruoli

- **Titolare:** ha tutti i diritti, accetta le CG e può trasferire la titolarità.
- **Amministratore:** gestisce i membri, il profilo aziendale e la fatturazione.
- **Collaboratore:** lavora con i dati dell’account ma non modifica le impostazioni.

## Invitare qualcuno

1. Apra **Impostazioni › Gestione utenti**.
2. Scelga «Invita membri», inserisca l’indirizzo e-mail e scelga il ruolo.
3. La persona riceve un invito e compare nell’elenco non appena l’ha accettato.

> Consiglio: assegni il ruolo più piccolo che basta per il lavoro. Può modificarlo in qualsiasi momento.`,
      },
    },
  },
  {
    slug: 'onboarding-billing-and-qr-bill',
    minutes: 5,
    texts: {
      de: {
        title: 'Rechnungen und QR-Rechnung',
        content: `Unter **Rechnungen** finden Administratoren und Inhaber jede Rechnung des Kontos mit Betrag, Fälligkeit und Status. Beträge stehen in Franken, zum Beispiel CHF 1'234.50.

## Bezahlen mit der QR-Rechnung

Jede Rechnung kommt als PDF mit einem **Zahlteil mit QR-Code**:

1. Öffnen Sie die Rechnung und laden Sie das PDF herunter.
2. Scannen Sie den QR-Code mit der App Ihrer Bank oder lesen Sie das PDF im E-Banking ein.
3. Kontrollieren Sie Betrag und Referenz, dann geben Sie die Zahlung frei.

Die Referenz (etwa \`21 00000 00003 13947 14300 09017\`) ordnet Ihre Zahlung automatisch der Rechnung zu: Ändern Sie sie nicht.

## Gut zu wissen

- Bezahlte Rechnungen werden nach dem Eingang der Zahlung als «Bezahlt» markiert.
- Vor Ablauf der Frist erhalten Sie eine Erinnerung per E-Mail.

Mehr zur QR-Rechnung erklärt [einfach-zahlen.ch](https://www.einfach-zahlen.ch).`,
      },
      en: {
        title: 'Billing and the QR-bill',
        content: `Under **Billing**, administrators and owners find every invoice of the account with its amount, due date and status. Amounts are in Swiss francs, for example CHF 1'234.50.

## Paying with the QR-bill

Every invoice comes as a PDF with a **payment part with a QR code**:

1. Open the invoice and download the PDF.
2. Scan the QR code with your bank's app, or upload the PDF in e-banking.
3. Check the amount and reference, then approve the payment.

The reference (such as \`21 00000 00003 13947 14300 09017\`) matches your payment to the invoice automatically: do not change it.

## Good to know

- Invoices are marked "Paid" once the payment has arrived.
- You receive a reminder by e-mail before the due date.

[einfach-zahlen.ch](https://www.einfach-zahlen.ch) explains the QR-bill in more detail.`,
      },
      fr: {
        title: 'Facturation et QR-facture',
        content: `Sous **Facturation**, les administrateurs et le propriétaire trouvent chaque facture du compte avec son montant, son échéance et son statut. Les montants sont en francs, par exemple CHF 1'234.50.

## Payer avec la QR-facture

Chaque facture est un PDF avec une **section paiement munie d’un code QR** :

1. Ouvrez la facture et téléchargez le PDF.
2. Scannez le code QR avec l’application de votre banque ou importez le PDF dans l’e-banking.
3. Vérifiez le montant et la référence, puis validez le paiement.

La référence (par exemple \`21 00000 00003 13947 14300 09017\`) attribue automatiquement votre paiement à la facture : ne la modifiez pas.

## Bon à savoir

- Les factures sont marquées « Payée » dès réception du paiement.
- Vous recevez un rappel par e-mail avant l’échéance.

[einfach-zahlen.ch](https://www.einfach-zahlen.ch) explique la QR-facture en détail.`,
      },
      it: {
        title: 'Fatturazione e QR-fattura',
        content: `In **Fatturazione** amministratori e titolare trovano ogni fattura dell’account con importo, scadenza e stato. Gli importi sono in franchi, per esempio CHF 1'234.50.

## Pagare con la QR-fattura

Ogni fattura è un PDF con una **sezione pagamento con codice QR**:

1. Apra la fattura e scarichi il PDF.
2. Scansioni il codice QR con l’app della sua banca o carichi il PDF nell’e-banking.
3. Controlli importo e riferimento, poi autorizzi il pagamento.

Il riferimento (per esempio \`21 00000 00003 13947 14300 09017\`) abbina automaticamente il pagamento alla fattura: non lo modifichi.

## Buono a sapersi

- Le fatture sono segnate come «Pagata» non appena arriva il pagamento.
- Prima della scadenza riceve un promemoria per e-mail.

[einfach-zahlen.ch](https://www.einfach-zahlen.ch) spiega la QR-fattura nel dettaglio.`,
      },
    },
  },
  {
    slug: 'onboarding-support-requests',
    minutes: 3,
    texts: {
      de: {
        title: 'Support-Anfragen',
        content: `Wenn etwas nicht klappt, schreiben Sie uns über **Support › Anfrage erstellen**. Jede Anfrage erhält eine Nummer, unter der Sie den ganzen Verlauf sehen.

## Eine gute Anfrage

- Ein kurzer, klarer Betreff, etwa «Rechnung 2026-0042 doppelt».
- Was Sie getan haben, was Sie erwartet haben und was geschehen ist.
- Ein Bildschirmfoto oder eine Datei als Anhang, wenn es hilft.

## Zugriff für den Support

Sie können dem Support erlauben, Ihr Konto zu öffnen, solange die Anfrage offen ist. Jeder Zugriff erscheint im **Protokoll**, und Sie ziehen die Zustimmung mit einem Klick zurück.

Mit <kbd>Tab</kbd> erreichen Sie jedes Feld des Formulars, mit <kbd>Enter</kbd> senden Sie es ab.`,
      },
      en: {
        title: 'Support requests',
        content: `When something does not work, write to us through **Support › Create request**. Every request gets a number under which you see the whole conversation.

## A good request

- A short, clear subject, such as "Invoice 2026-0042 charged twice".
- What you did, what you expected and what happened.
- A screenshot or a file as an attachment, when it helps.

## Access for support

You can allow support to open your account while the request is open. Every access appears in the **Logs**, and you withdraw your consent with one click.

Press <kbd>Tab</kbd> to reach every field of the form and <kbd>Enter</kbd> to send it.`,
      },
      fr: {
        title: 'Demandes au support',
        content: `Si quelque chose ne fonctionne pas, écrivez-nous via **Support › Créer une demande**. Chaque demande reçoit un numéro sous lequel vous voyez tout l’échange.

## Une bonne demande

- Un objet court et clair, par exemple « Facture 2026-0042 débitée deux fois ».
- Ce que vous avez fait, ce que vous attendiez et ce qui s’est passé.
- Une capture d’écran ou un fichier en pièce jointe, si cela aide.

## Accès pour le support

Vous pouvez autoriser le support à ouvrir votre compte tant que la demande est ouverte. Chaque accès apparaît dans le **Journal**, et vous retirez votre accord d’un clic.

La touche <kbd>Tab</kbd> atteint chaque champ du formulaire, <kbd>Entrée</kbd> l’envoie.`,
      },
      it: {
        title: 'Richieste al supporto',
        content: `Se qualcosa non funziona, ci scriva tramite **Supporto › Crea richiesta**. Ogni richiesta riceve un numero con cui vede tutta la conversazione.

## Una buona richiesta

- Un oggetto breve e chiaro, per esempio «Fattura 2026-0042 addebitata due volte».
- Che cosa ha fatto, che cosa si aspettava e che cosa è successo.
- Uno screenshot o un file in allegato, se aiuta.

## Accesso per il supporto

Può permettere al supporto di aprire il suo account finché la richiesta è aperta. Ogni accesso compare nel **Registro** e può ritirare il consenso con un clic.

Con <kbd>Tab</kbd> raggiunge ogni campo del modulo, con <kbd>Invio</kbd> lo invia.`,
      },
    },
  },
  {
    slug: 'onboarding-integrations',
    minutes: 4,
    texts: {
      de: {
        title: 'Integrationen',
        content: `Unter **Integrationen** verbinden Sie Ihr Konto mit den anderen Produkten des Anbieters. Einrichten dürfen das Administratoren und Inhaber.

## Was Sie verbinden können

- **DeepCloud:** Dokumente und Belege in der Cloud ablegen; Sie melden sich dort an und erlauben den Zugriff.
- **Online-Shop:** Produkte, Bestellungen und Kunden abgleichen; der API-Schlüssel wird verschlüsselt gespeichert und nie wieder angezeigt.
- **AbaClik:** Die Zeiterfassungs-App koppeln Sie mit einem einmaligen Code, der 10 Minuten gilt.

## Sicher verbinden

1. Prüfen Sie die Adresse, bevor Sie Zugangsdaten eingeben.
2. Testen Sie die Verbindung nach dem Einrichten.
3. Trennen Sie Verbindungen, die Sie nicht mehr brauchen; die gespeicherten Schlüssel werden dabei gelöscht.`,
      },
      en: {
        title: 'Integrations',
        content: `Under **Integrations** you connect your account to the provider's other products. Administrators and owners may set them up.

## What you can connect

- **DeepCloud:** keep documents and receipts in the cloud; you sign in there and allow access.
- **Online shop:** keep products, orders and customers in step; the API key is stored encrypted and never shown again.
- **AbaClik:** pair the time-tracking app with a one-time code that is valid for 10 minutes.

## Connecting safely

1. Check the address before you enter any credentials.
2. Test the connection once it is set up.
3. Disconnect what you no longer need; the stored keys are deleted with it.`,
      },
      fr: {
        title: 'Intégrations',
        content: `Sous **Intégrations**, vous reliez votre compte aux autres produits du fournisseur. Les administrateurs et le propriétaire peuvent les configurer.

## Ce que vous pouvez relier

- **DeepCloud :** classer documents et justificatifs dans le cloud ; vous vous y connectez et autorisez l’accès.
- **Boutique en ligne :** synchroniser produits, commandes et clients ; la clé API est enregistrée chiffrée et n’est plus jamais affichée.
- **AbaClik :** associez l’application de saisie du temps avec un code unique valable 10 minutes.

## Relier en toute sécurité

1. Vérifiez l’adresse avant de saisir des identifiants.
2. Testez la connexion une fois configurée.
3. Déconnectez ce dont vous n’avez plus besoin ; les clés enregistrées sont alors supprimées.`,
      },
      it: {
        title: 'Integrazioni',
        content: `In **Integrazioni** collega il suo account agli altri prodotti del fornitore. Possono configurarle amministratori e titolare.

## Che cosa può collegare

- **DeepCloud:** archiviare documenti e giustificativi nel cloud; vi accede e autorizza l’accesso.
- **Negozio online:** sincronizzare prodotti, ordini e clienti; la chiave API è salvata cifrata e non viene mai più mostrata.
- **AbaClik:** abbinare l’app di rilevazione del tempo con un codice monouso valido 10 minuti.

## Collegare in sicurezza

1. Controlli l’indirizzo prima di inserire credenziali.
2. Provi la connessione dopo averla configurata.
3. Scolleghi ciò che non le serve più; le chiavi salvate vengono cancellate.`,
      },
    },
  },
  {
    slug: 'onboarding-security',
    minutes: 4,
    texts: {
      de: {
        title: 'Sicherheit',
        content: `Ihr Konto ist so sicher wie die Anmeldungen seiner Mitglieder. Ein paar Gewohnheiten schützen viel.

## Anmeldung

- Wählen Sie ein langes Passwort, das Sie nirgends sonst verwenden; ein Passwort-Manager hilft dabei.
- Teilen Sie Ihre Anmeldung nie: Laden Sie Kolleginnen und Kollegen lieber als Mitglieder ein.
- Melden Sie sich an geteilten Geräten ab. Nach längerer Inaktivität meldet das Portal Sie selbst ab.

## Verdächtiges erkennen

- Das Portal fragt Sie nie per E-Mail nach Ihrem Passwort.
- Im **Protokoll** sehen Administratoren, wer wann was geändert hat.
- Sperren Sie Ihren Bildschirm, wenn Sie den Platz verlassen: unter Windows mit <kbd>Windows</kbd> + <kbd>L</kbd>, auf dem Mac mit <kbd>Ctrl</kbd> + <kbd>Cmd</kbd> + <kbd>Q</kbd>.

Aktuelle Warnungen und Tipps veröffentlicht das [Bundesamt für Cybersicherheit](https://www.ncsc.admin.ch).`,
      },
      en: {
        title: 'Security',
        content: `Your account is as safe as its members' sign-ins. A few habits protect a lot.

## Signing in

- Choose a long password that you use nowhere else; a password manager helps.
- Never share your sign-in: invite colleagues as members instead.
- Sign out on shared devices. After a longer period of inactivity the portal signs you out itself.

## Spotting the suspicious

- The portal never asks for your password by e-mail.
- In the **Logs**, administrators see who changed what and when.
- Lock your screen when you leave your desk: on Windows with <kbd>Windows</kbd> + <kbd>L</kbd>, on a Mac with <kbd>Ctrl</kbd> + <kbd>Cmd</kbd> + <kbd>Q</kbd>.

The [Federal Office for Cyber Security](https://www.ncsc.admin.ch) publishes current warnings and advice.`,
      },
      fr: {
        title: 'Sécurité',
        content: `Votre compte est aussi sûr que les connexions de ses membres. Quelques habitudes protègent beaucoup.

## Connexion

- Choisissez un long mot de passe que vous n’utilisez nulle part ailleurs ; un gestionnaire de mots de passe aide.
- Ne partagez jamais votre connexion : invitez plutôt vos collègues comme membres.
- Déconnectez-vous sur les appareils partagés. Après une longue inactivité, le portail vous déconnecte lui-même.

## Repérer ce qui est suspect

- Le portail ne vous demande jamais votre mot de passe par e-mail.
- Dans le **Journal**, les administrateurs voient qui a modifié quoi et quand.
- Verrouillez votre écran quand vous quittez votre place : sous Windows avec <kbd>Windows</kbd> + <kbd>L</kbd>, sur Mac avec <kbd>Ctrl</kbd> + <kbd>Cmd</kbd> + <kbd>Q</kbd>.

L’[Office fédéral de la cybersécurité](https://www.ncsc.admin.ch) publie des alertes et des conseils actuels.`,
      },
      it: {
        title: 'Sicurezza',
        content: `Il suo account è sicuro quanto gli accessi dei suoi membri. Alcune abitudini proteggono molto.

## Accesso

- Scelga una password lunga che non usa altrove; un gestore di password aiuta.
- Non condivida mai il suo accesso: inviti piuttosto i colleghi come membri.
- Si disconnetta sui dispositivi condivisi. Dopo una lunga inattività il portale la disconnette da solo.

## Riconoscere il sospetto

- Il portale non le chiede mai la password per e-mail.
- Nel **Registro** gli amministratori vedono chi ha modificato che cosa e quando.
- Blocchi lo schermo quando lascia la postazione: su Windows con <kbd>Windows</kbd> + <kbd>L</kbd>, su Mac con <kbd>Ctrl</kbd> + <kbd>Cmd</kbd> + <kbd>Q</kbd>.

L’[Ufficio federale della cibersicurezza](https://www.ncsc.admin.ch) pubblica avvisi e consigli aggiornati.`,
      },
    },
  },
];

/** The demo course and its lessons, by fixed ids so tests and links can name them. */
export const DEMO_COURSE = {
  uuid: '6f1c2b1e-0021-4000-8000-000000000001',
  slug: 'onboarding',
  // The same words as migration 035, which makes a database's existing lessons this course.
  title: { de: 'Einführung ins Portal', en: 'Getting started', fr: 'Premiers pas', it: 'Primi passi' },
} as const;
export const DEMO_LESSON_UUIDS = DEMO_LESSONS.map(
  (_lesson, index) => `6f1c2b1e-0021-4000-8000-${String(index + 101).padStart(12, '0')}`,
);

/**
 * The demo course, offered to every account, published, and the demo owner's progress in Muster AG (the first
 * lesson completed, the second opened). Inserted once, by slug: running it again changes nothing, so what the
 * teachers changed since stays.
 */
export async function seedDemoLessons(tx: Queryable, ownerUuid: string, accountUuid: string): Promise<void> {
  // What a teacher deleted stays deleted (deleted_seed_slugs, decision 249).
  await tx.query(
    `insert into courses (uuid, slug, position, title)
     select $1, $2, 10, $3 where not exists (select 1 from deleted_seed_slugs where slug = $2)
     on conflict (slug) do nothing`,
    [DEMO_COURSE.uuid, DEMO_COURSE.slug, JSON.stringify(DEMO_COURSE.title)],
  );
  const uuids: Array<string | null> = [];
  for (const [index, lesson] of DEMO_LESSONS.entries()) {
    const { rows } = await tx.query<{ uuid: string; created: boolean }>(
      `insert into lessons (uuid, slug, position, minutes, course_uuid, version, published_at)
       select $1, $2, $3, $4, c.uuid, 1, now() from courses c
        where c.slug = $5 and not exists (select 1 from deleted_seed_slugs where slug = $2)
       on conflict (slug) do update set slug = excluded.slug
       returning uuid, (xmax = 0) as created`,
      [DEMO_LESSON_UUIDS[index], lesson.slug, (index + 1) * 10, lesson.minutes, DEMO_COURSE.slug],
    );
    const row = rows[0];
    uuids.push(row?.uuid ?? null);
    if (!row?.created) continue;
    const { uuid } = row;
    for (const [language, text] of Object.entries(lesson.texts)) {
      await tx.query(
        'insert into lesson_translations (lesson_uuid, language, title, content_md) values ($1, $2, $3, $4)',
        [uuid, language, text.title, text.content],
      );
    }
  }
  if (!uuids[0] || !uuids[1]) return;
  await tx.query(
    `insert into lesson_progress (user_uuid, account_uuid, lesson_uuid, opened_at, last_opened_at, completed_at)
     values ($1, $2, $3, now() - interval '3 days', now() - interval '3 days', now() - interval '3 days'),
            ($1, $2, $4, now() - interval '2 days', now() - interval '2 days', null)
     on conflict do nothing`,
    [ownerUuid, accountUuid, uuids[0], uuids[1]],
  );
}
