/**
 * The passkey texts of the sign-in pages and of the "new passkey" mail, in the portal's languages. They are part
 * of the sign-in service's messages (i18n.ts spreads them into each language).
 */

const de = {
  passkeySecondFactor: 'Mit Passkey bestätigen',
  passkeySecondFactorIntro: 'Bestätigen Sie die Anmeldung mit einem Ihrer Passkeys.',
  passkeySignIn: 'Mit Passkey anmelden',
  passkeyOr: 'oder',
  passkeyFailed: 'Der Passkey konnte nicht geprüft werden. Bitte versuchen Sie es erneut.',
  passkeyCancelled: 'Die Anmeldung mit dem Passkey wurde abgebrochen.',
  mailPasskeySubject: 'Neuer Passkey hinzugefügt',
  mailPasskeyBody: 'zu Ihrem Login bei {product} wurde ein neuer Passkey hinzugefügt.',
  mailPasskeyName: 'Name: {name}',
  mailPasskeyTime: 'Zeitpunkt: {time}',
  mailPasskeyBrowser: 'Browser: {browser}',
  mailPasskeyNotYou:
    'Waren Sie das nicht? Entfernen Sie den Passkey unter «Mein Profil › Sicherheit» und ändern Sie Ihr Passwort:',
};

export type PasskeyMessages = typeof de;

const en: PasskeyMessages = {
  passkeySecondFactor: 'Confirm with a passkey',
  passkeySecondFactorIntro: 'Confirm the sign-in with one of your passkeys.',
  passkeySignIn: 'Sign in with a passkey',
  passkeyOr: 'or',
  passkeyFailed: 'The passkey could not be verified. Please try again.',
  passkeyCancelled: 'Signing in with the passkey was cancelled.',
  mailPasskeySubject: 'New passkey added',
  mailPasskeyBody: 'A new passkey was added to your {product} login.',
  mailPasskeyName: 'Name: {name}',
  mailPasskeyTime: 'Time: {time}',
  mailPasskeyBrowser: 'Browser: {browser}',
  mailPasskeyNotYou:
    'Was this not you? Remove the passkey under “My profile › Security” and change your password:',
};

const fr: PasskeyMessages = {
  passkeySecondFactor: 'Confirmer avec une clé d’accès',
  passkeySecondFactorIntro: 'Confirmez la connexion avec l’une de vos clés d’accès.',
  passkeySignIn: 'Se connecter avec une clé d’accès',
  passkeyOr: 'ou',
  passkeyFailed: 'La clé d’accès n’a pas pu être vérifiée. Veuillez réessayer.',
  passkeyCancelled: 'La connexion avec la clé d’accès a été annulée.',
  mailPasskeySubject: 'Nouvelle clé d’accès ajoutée',
  mailPasskeyBody: 'Une nouvelle clé d’accès a été ajoutée à votre identifiant {product}.',
  mailPasskeyName: 'Nom : {name}',
  mailPasskeyTime: 'Date : {time}',
  mailPasskeyBrowser: 'Navigateur : {browser}',
  mailPasskeyNotYou:
    'Ce n’était pas vous ? Supprimez la clé d’accès sous « Mon profil › Sécurité » et changez votre mot de passe :',
};

const it: PasskeyMessages = {
  passkeySecondFactor: 'Conferma con una passkey',
  passkeySecondFactorIntro: 'Confermi l’accesso con una delle sue passkey.',
  passkeySignIn: 'Accedi con una passkey',
  passkeyOr: 'oppure',
  passkeyFailed: 'Non è stato possibile verificare la passkey. Riprovi.',
  passkeyCancelled: 'L’accesso con la passkey è stato annullato.',
  mailPasskeySubject: 'Nuova passkey aggiunta',
  mailPasskeyBody: 'È stata aggiunta una nuova passkey al suo login {product}.',
  mailPasskeyName: 'Nome: {name}',
  mailPasskeyTime: 'Data e ora: {time}',
  mailPasskeyBrowser: 'Browser: {browser}',
  mailPasskeyNotYou: 'Non era lei? Rimuova la passkey in «Il mio profilo › Sicurezza» e cambi la password:',
};

export const PASSKEY_TEXTS = { de, en, fr, it };
