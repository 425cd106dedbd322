import { formatMoney, formatReference, formatShortDay, type Invoice, type Language } from '@portal/contract';
import type { Creditor } from '../../config.ts';
import { labelled, renderMail, type MailBlock } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { fill } from './invoice-pdf.texts.ts';

// The mails of the billing area, in the account's language: the new invoice with its PDF, and the reminders of an
// unpaid one. Amounts and dates are written as the PDF writes them (CHF 1'234.50, 22.11.2026).

interface Texts {
  issuedSubject: string;
  creditSubject: string;
  reminderSubject: string;
  greeting: string;
  issuedBody: string;
  creditBody: string;
  reminderBody: string;
  howToPay: string;
  reference: string;
  closing: string;
}

export const TEXTS: Record<Language, Texts> = {
  de: {
    issuedSubject: 'Rechnung {number} von {provider}',
    creditSubject: 'Gutschrift {number} von {provider}',
    reminderSubject: 'Zahlungserinnerung: Rechnung {number}',
    greeting: 'Guten Tag',
    issuedBody:
      'im Anhang finden Sie die Rechnung {number} für {account} über {amount}, zahlbar bis {dueOn}.',
    creditBody: 'im Anhang finden Sie die Gutschrift {number} für {account} über {amount}.',
    reminderBody:
      'die Rechnung {number} für {account} über {amount} war am {dueOn} fällig. Offen sind noch {open}. Falls Sie sie bereits bezahlt haben, betrachten Sie diese Erinnerung bitte als gegenstandslos.',
    howToPay:
      'Bezahlen Sie bitte mit der QR-Rechnung auf der letzten Seite der PDF-Rechnung (in Ihrer Banking-App scannen) oder per Überweisung auf {iban} mit der Referenz unten.',
    reference: 'Referenz',
    closing: 'Freundliche Grüsse',
  },
  en: {
    issuedSubject: 'Invoice {number} from {provider}',
    creditSubject: 'Credit note {number} from {provider}',
    reminderSubject: 'Payment reminder: invoice {number}',
    greeting: 'Hello',
    issuedBody: 'Attached is invoice {number} for {account} over {amount}, due by {dueOn}.',
    creditBody: 'Attached is credit note {number} for {account} over {amount}.',
    reminderBody:
      'Invoice {number} for {account} over {amount} was due on {dueOn}; {open} is still open. If you have already paid it, please disregard this reminder.',
    howToPay:
      'Please pay with the QR-bill on the last page of the PDF invoice (scan it in your banking app) or by bank transfer to {iban} with the reference below.',
    reference: 'Reference',
    closing: 'Kind regards',
  },
  fr: {
    issuedSubject: 'Facture {number} de {provider}',
    creditSubject: 'Note de crédit {number} de {provider}',
    reminderSubject: 'Rappel de paiement : facture {number}',
    greeting: 'Bonjour',
    issuedBody:
      'Vous trouverez en annexe la facture {number} pour {account} d’un montant de {amount}, payable jusqu’au {dueOn}.',
    creditBody:
      'Vous trouverez en annexe la note de crédit {number} pour {account} d’un montant de {amount}.',
    reminderBody:
      'La facture {number} pour {account} d’un montant de {amount} était échue le {dueOn}. Il reste {open} à payer. Si vous l’avez déjà réglée, veuillez ignorer ce rappel.',
    howToPay:
      'Veuillez payer avec la QR-facture à la dernière page de la facture PDF (à scanner dans votre application bancaire) ou par virement sur {iban} avec la référence ci-dessous.',
    reference: 'Référence',
    closing: 'Meilleures salutations',
  },
  it: {
    issuedSubject: 'Fattura {number} di {provider}',
    creditSubject: 'Nota di credito {number} di {provider}',
    reminderSubject: 'Promemoria di pagamento: fattura {number}',
    greeting: 'Buongiorno',
    issuedBody: 'In allegato trova la fattura {number} per {account} di {amount}, pagabile entro il {dueOn}.',
    creditBody: 'In allegato trova la nota di credito {number} per {account} di {amount}.',
    reminderBody:
      'La fattura {number} per {account} di {amount} è scaduta il {dueOn}. Restano da pagare {open}. Se l’ha già pagata, non tenga conto di questo promemoria.',
    howToPay:
      'La preghiamo di pagare con la QR-fattura sull’ultima pagina della fattura PDF (da scansionare nella sua app bancaria) o con un bonifico su {iban} indicando il riferimento qui sotto.',
    reference: 'Riferimento',
    closing: 'Cordiali saluti',
  },
};

/** The IBAN in groups of four, as it is printed. */
const spacedIban = (iban: string) => iban.replace(/\s/g, '').replace(/(.{4})(?=.)/g, '$1 ');

/**
 * A billing mail through the mail layout: from the provider (its name in the header, the subject as it is, signed
 * with the closing and the provider's name).
 */
function compose(
  { to, language, creditor }: InvoiceMailInput,
  subject: string,
  body: MailBlock[],
): MailMessage {
  const t = TEXTS[language];
  return renderMail({
    to,
    language,
    product: creditor.name,
    subject,
    plainSubject: true,
    greeting: `${t.greeting},`,
    body,
    signature: `${t.closing}\n${creditor.name}`,
  });
}

export interface InvoiceMailInput {
  to: string;
  language: Language;
  invoice: Invoice;
  accountName: string;
  creditor: Pick<Creditor, 'name' | 'iban'>;
}

/** The mail that brings a new invoice (or credit note): what it is for, how much, by when, and how to pay it. */
export function invoiceMail(input: InvoiceMailInput): MailMessage {
  const { language, invoice, accountName, creditor } = input;
  const t = TEXTS[language];
  const values = {
    number: invoice.number,
    provider: creditor.name,
    account: accountName,
    amount: formatMoney(invoice.totalMinor, invoice.currency),
    dueOn: formatShortDay(invoice.dueOn, language),
    iban: spacedIban(creditor.iban),
  };
  const credit = invoice.kind === 'CREDIT_NOTE';
  return compose(input, fill(credit ? t.creditSubject : t.issuedSubject, values), [
    fill(credit ? t.creditBody : t.issuedBody, values),
    ...(credit
      ? []
      : [fill(t.howToPay, values), labelled(language, t.reference, formatReference(invoice.reference))]),
  ]);
}

/** A reminder of an unpaid invoice past its due date, with what is still open and how to pay. */
export function reminderMail(input: InvoiceMailInput): MailMessage {
  const { language, invoice, accountName, creditor } = input;
  const t = TEXTS[language];
  const values = {
    number: invoice.number,
    account: accountName,
    amount: formatMoney(invoice.totalMinor, invoice.currency),
    open: formatMoney(invoice.totalMinor - invoice.paidMinor, invoice.currency),
    dueOn: formatShortDay(invoice.dueOn, language),
    iban: spacedIban(creditor.iban),
  };
  return compose(input, fill(t.reminderSubject, values), [
    fill(t.reminderBody, values),
    fill(t.howToPay, values),
    labelled(language, t.reference, formatReference(invoice.reference)),
  ]);
}
