import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@portal/contract';

/** Texts of the sign-in pages and mails, in the portal's languages (German first and default). */

const de = {
  languageName: 'Deutsch',
  languageNav: 'Sprache',
  loginTitle: 'Bei Ihrem Konto anmelden',
  email: 'E-Mail',
  password: 'Passwort',
  signIn: 'Anmelden',
  forgotPassword: 'Passwort vergessen?',
  newUser: 'Neu hier?',
  register: 'Registrieren',
  invalidCredentials: 'Ungültige E-Mail-Adresse oder ungültiges Passwort.',
  lockedOut: 'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es in {wait} erneut.',
  minutesOne: '1 Minute',
  minutesOther: '{count} Minuten',
  required: 'Bitte füllen Sie dieses Feld aus.',
  nameTooLong: 'Bitte geben Sie höchstens {max} Zeichen ein.',
  fullNameTooLong: 'Vor- und Nachname dürfen zusammen höchstens {max} Zeichen lang sein.',
  registerTitle: 'Konto erstellen',
  firstName: 'Vorname',
  lastName: 'Nachname',
  passwordConfirm: 'Passwort bestätigen',
  passwordHint: 'Mindestens {min} Zeichen.',
  haveAccount: 'Sie haben bereits ein Konto?',
  backToLogin: 'Zurück zur Anmeldung',
  emailInvalid: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  emailTaken: 'Für diese E-Mail-Adresse besteht bereits ein Konto.',
  passwordTooShort: 'Das Passwort muss mindestens {min} Zeichen lang sein.',
  passwordTooLong: 'Das Passwort darf höchstens {max} Zeichen lang sein.',
  passwordMismatch: 'Die Passwörter stimmen nicht überein.',
  forgotTitle: 'Passwort zurücksetzen',
  forgotIntro:
    'Geben Sie Ihre E-Mail-Adresse ein. Wir senden Ihnen einen Link, mit dem Sie ein neues Passwort festlegen können.',
  sendLink: 'Link senden',
  forgotSent:
    'Falls ein Konto mit dieser E-Mail-Adresse besteht, haben wir Ihnen einen Link gesendet. Er ist {minutes} Minuten gültig.',
  resetTitle: 'Neues Passwort festlegen',
  newPassword: 'Neues Passwort',
  savePassword: 'Passwort speichern',
  passwordChanged: 'Ihr Passwort wurde geändert. Sie können sich jetzt damit anmelden.',
  linkInvalid:
    'Dieser Link ist ungültig, abgelaufen oder wurde bereits verwendet. Bitte fordern Sie einen neuen an.',
  verifyTitle: 'E-Mail-Adresse bestätigen',
  verifySent:
    'Wir haben eine E-Mail an {email} gesendet. Öffnen Sie den Link darin, um Ihre Adresse zu bestätigen.',
  verifyResend: 'E-Mail erneut senden',
  verifyResent: 'Wir haben Ihnen die E-Mail erneut gesendet.',
  verifyContinue: 'Ich habe bestätigt – weiter',
  verifyNotYet: 'Ihre E-Mail-Adresse ist noch nicht bestätigt. Bitte öffnen Sie den Link in der E-Mail.',
  verifyDone: 'Ihre E-Mail-Adresse wurde bestätigt.',
  continueTo: 'Weiter zu {product}',
  signedOutTitle: 'Abgemeldet',
  signedOut: 'Sie wurden abgemeldet.',
  logoutConfirmTitle: 'Abmelden',
  logoutConfirm: 'Möchten Sie sich abmelden?',
  logoutButton: 'Abmelden',
  errorTitle: 'Es ist ein Fehler aufgetreten',
  errorText: 'Die Anmeldung konnte nicht abgeschlossen werden.',
  sessionExpired: 'Ihre Anmeldung hat zu lange gedauert oder ist abgelaufen. Bitte starten Sie sie erneut.',
  wrongAddressTitle: 'Bitte andere Adresse verwenden',
  wrongAddress:
    'Die Anmeldung funktioniert nur, wenn Sie {product} unter {url} öffnen. Bitte verwenden Sie diese Adresse, auch für Lesezeichen.',
  openAddress: '{url} öffnen',
  invalidCharacters:
    'Das Formular enthält Zeichen, die nicht erlaubt sind (Steuerzeichen). Bitte gehen Sie zurück und korrigieren Sie Ihre Eingabe.',
  tooManyMails: 'Bitte warten Sie eine Minute, bevor Sie eine weitere E-Mail anfordern.',
  mailGreeting: 'Hallo {name},',
  mailGreetingNoName: 'Hallo,',
  mailVerifySubject: 'Bestätigen Sie Ihre E-Mail-Adresse',
  mailVerifyBody: 'bitte bestätigen Sie Ihre E-Mail-Adresse für {product}, indem Sie diesen Link öffnen:',
  mailVerifyAction: 'E-Mail-Adresse bestätigen',
  mailResetSubject: 'Passwort zurücksetzen',
  mailResetBody:
    'Sie haben angefordert, Ihr Passwort für {product} zurückzusetzen. Öffnen Sie diesen Link, um ein neues Passwort festzulegen:',
  mailResetAction: 'Neues Passwort festlegen',
  mailValidity: 'Der Link ist {duration} gültig und kann nur einmal verwendet werden.',
  mailIgnore: 'Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren.',
  durationMinutes: '{count} Minuten',
  durationHours: '{count} Stunden',
};

export type Messages = typeof de;

const en: Messages = {
  languageName: 'English',
  languageNav: 'Language',
  loginTitle: 'Sign in to your account',
  email: 'Email',
  password: 'Password',
  signIn: 'Sign in',
  forgotPassword: 'Forgot password?',
  newUser: 'New user?',
  register: 'Register',
  invalidCredentials: 'Invalid email or password.',
  lockedOut: 'Too many failed sign-in attempts. Please try again in {wait}.',
  minutesOne: '1 minute',
  minutesOther: '{count} minutes',
  required: 'Please fill in this field.',
  nameTooLong: 'Please enter at most {max} characters.',
  fullNameTooLong: 'First and last name together may be at most {max} characters long.',
  registerTitle: 'Create an account',
  firstName: 'First name',
  lastName: 'Last name',
  passwordConfirm: 'Confirm password',
  passwordHint: 'At least {min} characters.',
  haveAccount: 'Already have an account?',
  backToLogin: 'Back to sign-in',
  emailInvalid: 'Please enter a valid email address.',
  emailTaken: 'An account with this email address already exists.',
  passwordTooShort: 'The password must be at least {min} characters long.',
  passwordTooLong: 'The password must be at most {max} characters long.',
  passwordMismatch: 'The passwords do not match.',
  forgotTitle: 'Reset your password',
  forgotIntro: 'Enter your email address. We will send you a link to set a new password.',
  sendLink: 'Send link',
  forgotSent:
    'If an account with this email address exists, we have sent you a link. It is valid for {minutes} minutes.',
  resetTitle: 'Set a new password',
  newPassword: 'New password',
  savePassword: 'Save password',
  passwordChanged: 'Your password has been changed. You can now sign in with it.',
  linkInvalid: 'This link is invalid, has expired or has already been used. Please request a new one.',
  verifyTitle: 'Verify your email address',
  verifySent: 'We have sent an email to {email}. Open the link in it to verify your address.',
  verifyResend: 'Resend email',
  verifyResent: 'We have sent you the email again.',
  verifyContinue: 'I have verified – continue',
  verifyNotYet: 'Your email address is not verified yet. Please open the link in the email.',
  verifyDone: 'Your email address has been verified.',
  continueTo: 'Continue to {product}',
  signedOutTitle: 'Signed out',
  signedOut: 'You have been signed out.',
  logoutConfirmTitle: 'Sign out',
  logoutConfirm: 'Do you want to sign out?',
  logoutButton: 'Sign out',
  errorTitle: 'Something went wrong',
  errorText: 'The sign-in could not be completed.',
  sessionExpired: 'Your sign-in took too long or has expired. Please start again.',
  wrongAddressTitle: 'Please use another address',
  wrongAddress:
    'Signing in only works when you open {product} at {url}. Please use this address, for bookmarks too.',
  openAddress: 'Open {url}',
  invalidCharacters:
    'The form contains characters that are not allowed (control characters). Please go back and correct your entry.',
  tooManyMails: 'Please wait a minute before requesting another email.',
  mailGreeting: 'Hello {name},',
  mailGreetingNoName: 'Hello,',
  mailVerifySubject: 'Verify your email address',
  mailVerifyBody: 'please verify your email address for {product} by opening this link:',
  mailVerifyAction: 'Verify email address',
  mailResetSubject: 'Reset your password',
  mailResetBody: 'You asked to reset your password for {product}. Open this link to set a new password:',
  mailResetAction: 'Set a new password',
  mailValidity: 'The link is valid for {duration} and can be used once.',
  mailIgnore: 'If you did not ask for this, you can ignore this email.',
  durationMinutes: '{count} minutes',
  durationHours: '{count} hours',
};

const fr: Messages = {
  languageName: 'Français',
  languageNav: 'Langue',
  loginTitle: 'Connectez-vous à votre compte',
  email: 'E-mail',
  password: 'Mot de passe',
  signIn: 'Se connecter',
  forgotPassword: 'Mot de passe oublié ?',
  newUser: 'Nouvel utilisateur ?',
  register: 'Créer un compte',
  invalidCredentials: 'Adresse e-mail ou mot de passe invalide.',
  lockedOut: 'Trop de tentatives de connexion échouées. Veuillez réessayer dans {wait}.',
  minutesOne: '1 minute',
  minutesOther: '{count} minutes',
  required: 'Veuillez remplir ce champ.',
  nameTooLong: 'Veuillez saisir au plus {max} caractères.',
  fullNameTooLong: 'Le prénom et le nom ensemble peuvent comporter au plus {max} caractères.',
  registerTitle: 'Créer un compte',
  firstName: 'Prénom',
  lastName: 'Nom',
  passwordConfirm: 'Confirmer le mot de passe',
  passwordHint: 'Au moins {min} caractères.',
  haveAccount: 'Vous avez déjà un compte ?',
  backToLogin: 'Retour à la connexion',
  emailInvalid: 'Veuillez saisir une adresse e-mail valide.',
  emailTaken: 'Un compte existe déjà avec cette adresse e-mail.',
  passwordTooShort: 'Le mot de passe doit comporter au moins {min} caractères.',
  passwordTooLong: 'Le mot de passe doit comporter au plus {max} caractères.',
  passwordMismatch: 'Les mots de passe ne correspondent pas.',
  forgotTitle: 'Réinitialiser le mot de passe',
  forgotIntro:
    'Saisissez votre adresse e-mail. Nous vous enverrons un lien pour définir un nouveau mot de passe.',
  sendLink: 'Envoyer le lien',
  forgotSent:
    'Si un compte existe avec cette adresse e-mail, nous vous avons envoyé un lien. Il est valable {minutes} minutes.',
  resetTitle: 'Définir un nouveau mot de passe',
  newPassword: 'Nouveau mot de passe',
  savePassword: 'Enregistrer le mot de passe',
  passwordChanged: 'Votre mot de passe a été modifié. Vous pouvez maintenant vous connecter avec.',
  linkInvalid: 'Ce lien est invalide, a expiré ou a déjà été utilisé. Veuillez en demander un nouveau.',
  verifyTitle: 'Confirmez votre adresse e-mail',
  verifySent:
    'Nous avons envoyé un e-mail à {email}. Ouvrez le lien qu’il contient pour confirmer votre adresse.',
  verifyResend: 'Renvoyer l’e-mail',
  verifyResent: 'Nous vous avons renvoyé l’e-mail.',
  verifyContinue: 'J’ai confirmé – continuer',
  verifyNotYet: 'Votre adresse e-mail n’est pas encore confirmée. Veuillez ouvrir le lien dans l’e-mail.',
  verifyDone: 'Votre adresse e-mail a été confirmée.',
  continueTo: 'Continuer vers {product}',
  signedOutTitle: 'Déconnecté',
  signedOut: 'Vous avez été déconnecté.',
  logoutConfirmTitle: 'Déconnexion',
  logoutConfirm: 'Voulez-vous vous déconnecter ?',
  logoutButton: 'Se déconnecter',
  errorTitle: 'Une erreur s’est produite',
  errorText: 'La connexion n’a pas pu être effectuée.',
  sessionExpired: 'Votre connexion a pris trop de temps ou a expiré. Veuillez recommencer.',
  wrongAddressTitle: 'Veuillez utiliser une autre adresse',
  wrongAddress:
    'La connexion ne fonctionne que si vous ouvrez {product} à l’adresse {url}. Veuillez utiliser cette adresse, y compris pour vos favoris.',
  openAddress: 'Ouvrir {url}',
  invalidCharacters:
    'Le formulaire contient des caractères non autorisés (caractères de contrôle). Veuillez revenir en arrière et corriger votre saisie.',
  tooManyMails: 'Veuillez patienter une minute avant de demander un autre e-mail.',
  mailGreeting: 'Bonjour {name},',
  mailGreetingNoName: 'Bonjour,',
  mailVerifySubject: 'Confirmez votre adresse e-mail',
  mailVerifyBody: 'veuillez confirmer votre adresse e-mail pour {product} en ouvrant ce lien :',
  mailVerifyAction: 'Confirmer l’adresse e-mail',
  mailResetSubject: 'Réinitialiser votre mot de passe',
  mailResetBody:
    'Vous avez demandé la réinitialisation de votre mot de passe pour {product}. Ouvrez ce lien pour définir un nouveau mot de passe :',
  mailResetAction: 'Définir un nouveau mot de passe',
  mailValidity: 'Le lien est valable {duration} et ne peut être utilisé qu’une seule fois.',
  mailIgnore: 'Si vous n’êtes pas à l’origine de cette demande, vous pouvez ignorer cet e-mail.',
  durationMinutes: '{count} minutes',
  durationHours: '{count} heures',
};

const it: Messages = {
  languageName: 'Italiano',
  languageNav: 'Lingua',
  loginTitle: 'Accedi al tuo account',
  email: 'E-mail',
  password: 'Password',
  signIn: 'Accedi',
  forgotPassword: 'Password dimenticata?',
  newUser: 'Nuovo utente?',
  register: 'Registrati',
  invalidCredentials: 'Indirizzo e-mail o password non validi.',
  lockedOut: 'Troppi tentativi di accesso non riusciti. Riprova tra {wait}.',
  minutesOne: '1 minuto',
  minutesOther: '{count} minuti',
  required: 'Compila questo campo.',
  nameTooLong: 'Inserisci al massimo {max} caratteri.',
  fullNameTooLong: 'Nome e cognome insieme possono contenere al massimo {max} caratteri.',
  registerTitle: 'Crea un account',
  firstName: 'Nome',
  lastName: 'Cognome',
  passwordConfirm: 'Conferma password',
  passwordHint: 'Almeno {min} caratteri.',
  haveAccount: 'Hai già un account?',
  backToLogin: 'Torna all’accesso',
  emailInvalid: 'Inserisci un indirizzo e-mail valido.',
  emailTaken: 'Esiste già un account con questo indirizzo e-mail.',
  passwordTooShort: 'La password deve contenere almeno {min} caratteri.',
  passwordTooLong: 'La password può contenere al massimo {max} caratteri.',
  passwordMismatch: 'Le password non coincidono.',
  forgotTitle: 'Reimposta la password',
  forgotIntro: 'Inserisci il tuo indirizzo e-mail. Ti invieremo un link per impostare una nuova password.',
  sendLink: 'Invia link',
  forgotSent:
    'Se esiste un account con questo indirizzo e-mail, ti abbiamo inviato un link. È valido per {minutes} minuti.',
  resetTitle: 'Imposta una nuova password',
  newPassword: 'Nuova password',
  savePassword: 'Salva password',
  passwordChanged: 'La tua password è stata modificata. Ora puoi accedere con la nuova password.',
  linkInvalid: 'Questo link non è valido, è scaduto o è già stato utilizzato. Richiedine uno nuovo.',
  verifyTitle: 'Conferma il tuo indirizzo e-mail',
  verifySent: 'Abbiamo inviato un’e-mail a {email}. Apri il link contenuto per confermare il tuo indirizzo.',
  verifyResend: 'Invia di nuovo l’e-mail',
  verifyResent: 'Ti abbiamo inviato di nuovo l’e-mail.',
  verifyContinue: 'Ho confermato – continua',
  verifyNotYet: 'Il tuo indirizzo e-mail non è ancora confermato. Apri il link nell’e-mail.',
  verifyDone: 'Il tuo indirizzo e-mail è stato confermato.',
  continueTo: 'Continua su {product}',
  signedOutTitle: 'Disconnesso',
  signedOut: 'Sei stato disconnesso.',
  logoutConfirmTitle: 'Disconnessione',
  logoutConfirm: 'Vuoi disconnetterti?',
  logoutButton: 'Disconnetti',
  errorTitle: 'Si è verificato un errore',
  errorText: 'Non è stato possibile completare l’accesso.',
  sessionExpired: 'L’accesso ha richiesto troppo tempo o è scaduto. Ricomincia.',
  wrongAddressTitle: 'Usa un altro indirizzo',
  wrongAddress:
    'L’accesso funziona solo se apri {product} all’indirizzo {url}. Usa questo indirizzo, anche per i segnalibri.',
  openAddress: 'Apri {url}',
  invalidCharacters:
    'Il modulo contiene caratteri non ammessi (caratteri di controllo). Torna indietro e correggi i dati inseriti.',
  tooManyMails: 'Attendi un minuto prima di richiedere un’altra e-mail.',
  mailGreeting: 'Ciao {name},',
  mailGreetingNoName: 'Ciao,',
  mailVerifySubject: 'Conferma il tuo indirizzo e-mail',
  mailVerifyBody: 'conferma il tuo indirizzo e-mail per {product} aprendo questo link:',
  mailVerifyAction: 'Conferma indirizzo e-mail',
  mailResetSubject: 'Reimposta la password',
  mailResetBody:
    'Hai chiesto di reimpostare la password per {product}. Apri questo link per impostare una nuova password:',
  mailResetAction: 'Imposta una nuova password',
  mailValidity: 'Il link è valido per {duration} e può essere usato una sola volta.',
  mailIgnore: 'Se non hai fatto tu questa richiesta, puoi ignorare questa e-mail.',
  durationMinutes: '{count} minuti',
  durationHours: '{count} ore',
};

const MESSAGES: Record<Language, Messages> = { de, en, fr, it };

/** First supported language of `kc_locale`, then `ui_locales` (space-separated, e.g. "fr-CH de"). */
export function pickLocale(...candidates: unknown[]): Language {
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    for (const tag of candidate.split(/[\s,]+/)) {
      const base = tag.toLowerCase().split(/[-_]/)[0];
      if (isLanguage(base)) return base;
    }
  }
  return DEFAULT_LANGUAGE;
}

export type Translate = (key: keyof Messages, vars?: Record<string, string | number>) => string;

export function translator(locale: Language): Translate {
  const messages = MESSAGES[locale];
  return (key, vars = {}) =>
    messages[key].replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}

/** "1 Minute" / "3 Minuten": the wait of a lockout, rounded up to whole minutes. */
export function formatWait(t: Translate, locale: Language, seconds: number): string {
  const count = Math.max(1, Math.ceil(seconds / 60));
  return new Intl.PluralRules(locale).select(count) === 'one' && count === 1
    ? t('minutesOne')
    : t('minutesOther', { count });
}

export function languageName(locale: Language): string {
  return MESSAGES[locale].languageName;
}
