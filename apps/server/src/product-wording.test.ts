import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, NOTIFICATION_TYPES, type Invoice, type Language } from '@portal/contract';
import { MESSAGES as IDP_MESSAGES } from './idp/i18n.ts';
import type { Identity } from './idp/identities.ts';
import { actionMail, registrationAttemptMail } from './idp/mails.ts';
import { passkeyAddedMail } from './idp/passkey-mail.ts';
import { PASSKEY_TEXTS } from './idp/passkey-texts.ts';
import { emailChangePageTexts, securityMail } from './idp/security-mails.ts';
import { totpEventMail } from './idp/totp-mails.ts';
import type { MailMessage } from './mail/mailer.ts';
import { invoiceMail, reminderMail, TEXTS as BILLING_MAIL_TEXTS } from './modules/billing/billing.mails.ts';
import { INVOICE_PDF_TEXTS } from './modules/billing/invoice-pdf.texts.ts';
import { invitationMail, TEXTS as INVITATION_MAIL_TEXTS } from './modules/members/invitation-mail.ts';
import {
  ANSWER_TEXTS as OWNERSHIP_ANSWER_TEXTS,
  TEXTS as OWNERSHIP_OFFER_TEXTS,
  transferAnswerMail,
  transferOfferMail,
} from './modules/ownership/ownership.mails.ts';
import { notificationMail } from './notifications/mails.ts';
import { TEXTS as NOTIFICATION_TEXTS } from './notifications/mail-texts.ts';
import { productTextFiles, repo } from './test/product-texts.ts';

/** Every line of the product's texts that matches, as "file:line: match". */
function offending(pattern: RegExp): string[] {
  return productTextFiles().flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => {
        const found = pattern.exec(line);
        return found ? [`${path.relative(repo, file)}:${i + 1}: ${found[0]}`] : [];
      }),
  );
}

describe('one word for one thing in every language (issue 23 item 9)', () => {
  it('addresses the French reader in forms that fit anyone', () => {
    // "Vous avez été retiré·e", "Vous êtes connecté·e", "Pas encore d’identifiant ?" — as the first sweep wrote
    // "Invité·e" and "Déconnecté·e"; never the masculine-only "retiré", "connecté", "Nouvel utilisateur", "Nouveau sur".
    expect(
      offending(
        /[Vv]ous avez été retiré\b(?!·)|vous a retiré (?:de|du)\b|[Vv]ous (?:êtes|restez) connecté\b(?!·)|Nouvel utilisateur|Nouveau sur\b/,
      ),
    ).toEqual([]);
  });

  it('names the role DC "Digital Coach" in every language, as German does', () => {
    // Not "digital coach" as a quoted text, "Digital coach", "coach numérique" or "coach digitale".
    expect(offending(/Digital coach|'digital coach'|[Cc]oachs? numériques?|[Cc]oach digital[ei]/)).toEqual(
      [],
    );
  });
});

/**
 * French puts a non-breaking space before ':' (U+00A0), before ';' '?' '!' (the narrow U+202F) and inside « » — as
 * the web's texts do (apps/web/src/i18n/wording.test.ts) — so a mail or sign-in page never starts a line with '?'
 * or '»'. A plain space there, or none, is loose; a URL's "https://" and a time's "11:00" are no colon.
 */
const LOOSE_FRENCH =
  /[^\S\u00a0\u202f][:;?!»]|«[^\S\u00a0\u202f]|[^\s\u00a0\u202f:/][;?!»]|[^\s\u00a0\u202f:/\d]:(?!\/\/)|«[^\s\u00a0\u202f]/;

/** A stand-in for any parameter of a text function: a name, an account, a parameter object ("X" everywhere). */
const ANY: unknown = new Proxy(
  {},
  { get: (_, key) => (key === Symbol.toPrimitive ? () => 'X' : key === 'then' ? undefined : 'X') },
);

/** Every text of a table, as [path, text]; a text function is called with stand-ins for its parameters. */
function tableTexts(node: unknown, at: string): [string, string][] {
  if (typeof node === 'string') return [[at, node]];
  if (typeof node === 'function')
    return tableTexts((node as (...args: unknown[]) => unknown)(ANY, ANY, ANY), `${at}()`);
  if (node && typeof node === 'object')
    return Object.entries(node).flatMap(([key, value]) => tableTexts(value, `${at}.${key}`));
  return [];
}

/** The French tables of the server's texts: the sign-in pages and their mails, the areas' mails, the invoice PDF. */
const FRENCH_TABLES: Record<string, unknown> = {
  'idp/i18n.ts': IDP_MESSAGES.fr,
  'idp/passkey-texts.ts': PASSKEY_TEXTS.fr,
  'idp/security-mails.ts': emailChangePageTexts('fr'),
  'notifications/mail-texts.ts': NOTIFICATION_TEXTS.fr,
  'modules/billing/billing.mails.ts': BILLING_MAIL_TEXTS.fr,
  'modules/billing/invoice-pdf.texts.ts': INVOICE_PDF_TEXTS.fr,
  'modules/members/invitation-mail.ts': INVITATION_MAIL_TEXTS.fr,
  'modules/ownership/ownership.mails.ts': [
    OWNERSHIP_OFFER_TEXTS.fr,
    OWNERSHIP_ANSWER_TEXTS.ACCEPTED.fr,
    OWNERSHIP_ANSWER_TEXTS.DECLINED.fr,
  ],
};
/** Files with a French table that are no text of a page, a mail or the PDF: the demo's course, CSV headers, file names. */
const NOT_PROSE = [
  'demo/lessons.ts',
  'modules/logs/logs.csv.ts',
  'modules/billing/billing.documents.ts',
  'modules/billing/invoice-pdf.ts',
];

const looseFrench = (texts: [string, string][]) =>
  texts.filter(([, text]) => LOOSE_FRENCH.test(text)).map(([at, text]) => `${at}: ${text}`);

describe('French typography in the mails, the sign-in pages and the invoice PDF (issue 23 item 9)', () => {
  it('puts a non-breaking space before : ; ? ! and inside « » in every French text of the server', () => {
    expect(
      looseFrench(Object.entries(FRENCH_TABLES).flatMap(([file, table]) => tableTexts(table, file))),
    ).toEqual([]);
  });

  it('reads every file of the server that has a French table', () => {
    const server = path.join(repo, 'apps/server/src');
    const withFrench = productTextFiles()
      .filter(
        (file) => file.startsWith(server) && /\bfr: [{[]|\bconst fr\b/.test(fs.readFileSync(file, 'utf8')),
      )
      .map((file) => path.relative(server, file).split(path.sep).join('/'));
    expect(withFrench.filter((file) => !(file in FRENCH_TABLES) && !NOT_PROSE.includes(file))).toEqual([]);
  });

  it('keeps the spacing in every French mail as sent, also where the code joins a label and its value', () => {
    const lines = everyMail('fr').flatMap(([name, mail]) =>
      [mail.subject, ...mail.text.split('\n')].map((line): [string, string] => [name, line]),
    );
    expect(looseFrench(lines)).toEqual([]);
  });
});

/** Every mail the product sends, rendered in `language` with sample values (people "Max Muster", account "Muster AG"). */
function everyMail(language: Language): [string, MailMessage][] {
  const identity = {
    id: 'i',
    email: 'a@example.com',
    name: 'Anna Beispiel',
    emailVerified: true,
    locale: language,
    createdAt: new Date(0),
  } satisfies Identity;
  const origin = {
    at: new Date('2026-11-27T10:00:00Z'),
    browser: 'Firefox 133 · Linux',
    address: '192.0.2.1',
  };
  const to = { email: 'a@example.com', name: 'Anna Beispiel', language };
  const invoice = {
    number: '2026-000123',
    kind: 'INVOICE',
    status: 'OPEN',
    currency: 'CHF',
    dueOn: '2026-12-01',
    totalMinor: 162150,
    paidMinor: 0,
    reference: '000000000000000020260001233',
  } as Invoice;
  const billing = {
    to: 'a@example.com',
    language,
    invoice,
    accountName: 'Muster AG',
    creditor: { name: 'Portal AG', iban: 'CH4431999123000889012' },
  };
  const params = {
    name: 'Max Muster',
    accountName: 'Muster AG',
    role: 'ADMIN',
    previousRole: 'EMPLOYEE',
    availableUntil: '2026-12-27T00:00:00Z',
    kind: 'agb',
    version: '2',
    ticketNumber: 42,
    subject: 'Drucker',
    number: '2026-000123',
    totalMinor: 162150,
    currency: 'CHF',
    dueOn: '2026-12-01',
  };
  const link = 'https://portal.example/x';
  return [
    ...(
      [
        'passwordChanged',
        'emailChangeRequested',
        'emailChangeNotice',
        'emailChanged',
        'emailAddressInUse',
        'newBrowser',
      ] as const
    ).map((event): [string, MailMessage] => [
      `security ${event}`,
      securityMail(event, identity, origin, 'Portal', { email: 'b@example.com' }),
    ]),
    ['verify', actionMail('verify-email', identity, link, 'Portal')],
    ['reset', actionMail('reset-password', identity, link, 'Portal')],
    ['registration attempt', registrationAttemptMail(identity, { signIn: link, reset: link }, 'Portal')],
    ...(['enabled', 'disabled', 'recoveryCodesRenewed', 'recoveryCodeUsed'] as const).map(
      (event): [string, MailMessage] => [
        `totp ${event}`,
        totpEventMail(event, identity, 'Portal', { left: 3 }),
      ],
    ),
    [
      'passkey',
      passkeyAddedMail({
        to: 'a@example.com',
        name: 'Anna Beispiel',
        locale: language,
        passkeyName: 'Laptop',
        at: origin.at,
        browser: null,
        product: 'Portal',
        settingsUrl: link,
      }),
    ],
    ['invoice', invoiceMail(billing)],
    ['credit note', invoiceMail({ ...billing, invoice: { ...invoice, kind: 'CREDIT_NOTE' } })],
    ['reminder', reminderMail(billing)],
    [
      'invitation',
      invitationMail({
        to: 'a@example.com',
        language,
        accountName: 'Muster AG',
        inviterName: '',
        role: 'ADMIN',
        link,
        product: 'Portal',
      }),
    ],
    [
      'transfer offer',
      transferOfferMail({
        to,
        ownerName: '',
        accountName: 'Muster AG',
        expiresAt: origin.at,
        link,
        product: 'Portal',
      }),
    ],
    ...(['ACCEPTED', 'DECLINED'] as const).map((answer): [string, MailMessage] => [
      `transfer ${answer}`,
      transferAnswerMail({ answer, to, adminName: '', accountName: 'Muster AG', link, product: 'Portal' }),
    ]),
    ...NOTIFICATION_TYPES.map((type): [string, MailMessage] => [
      type,
      notificationMail({ to, type, params, accountName: 'Muster AG', link, product: 'Portal' }),
    ]),
  ];
}

describe('the sentence after a mail’s greeting (issue 23 item 9)', () => {
  // "Hello Anna," / "Bonjour Anna," / "Buongiorno Anna," go on with a capital letter; German goes on in lower case
  // after "Guten Tag Anna," unless the word is a noun, a name or the polite "Sie"/"Ihr".
  const GERMAN_CAPITALS = /^(?:Sie|Ihr\w*|Max|DeepCloud|Portal|E-Mail\w*|Passwort\w*)\b/;

  it.each(LANGUAGES)('starts the body with one rule in every %s mail', (language) => {
    const wrong = everyMail(language).flatMap(([name, mail]) => {
      const [greeting, first = ''] = mail.text.split('\n\n');
      const ok =
        /,$/.test(greeting!) &&
        (language === 'de' ? /^\p{Ll}/u.test(first) || GERMAN_CAPITALS.test(first) : /^\p{Lu}/u.test(first));
      return ok ? [] : [`${name}: ${greeting} / ${first}`];
    });
    expect(wrong).toEqual([]);
  });
});

describe('the person’s login and the company’s account (issue 23 item 9)', () => {
  // "Konto" / "account" / "compte" is the company account the app shows; the sign-in pages and their mails speak of
  // the person's own "Login" / "login" / "identifiant", as the invitation page does ("Ich habe schon ein Login").
  const ACCOUNT = { de: /Konto/, en: /\baccounts?\b/i, fr: /\bcomptes?\b/i, it: /\baccount\b/i } as const;

  it.each(LANGUAGES)(
    'names an account in the %s sign-in texts only where it names the invited one',
    (language) => {
      const texts = [
        ...tableTexts(IDP_MESSAGES[language], 'idp/i18n.ts'),
        ...tableTexts(emailChangePageTexts(language), 'idp/security-mails.ts'),
      ];
      expect(
        texts
          .filter(([, text]) => ACCOUNT[language].test(text) && !text.includes('{account}'))
          .map(([at, text]) => `${at}: ${text}`),
      ).toEqual([]);
    },
  );
});
