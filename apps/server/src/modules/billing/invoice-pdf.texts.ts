import { INTL_LOCALES, type Language } from '@portal/contract';

/**
 * Every text of the invoice PDF, in the four interface languages. `{name}` marks a value filled in when the
 * document is rendered. French spaces before ; ? ! with the no-break space U+00A0, as the PDF's font has no narrow one.
 */
export interface InvoicePdfTexts {
  invoiceTitle: string;
  creditNoteTitle: string;
  issuedOn: string;
  dueOn: string;
  servicePeriod: string;
  reference: string;
  customerVatNumber: string;
  purchaseOrder: string;
  creditNoteFor: string;
  creditedBy: string;
  providerVatNumber: string;
  columnDescription: string;
  columnQuantity: string;
  columnUnitPrice: string;
  columnVat: string;
  columnAmount: string;
  linePlan: string;
  lineSeats: string;
  linePlanCredit: string;
  lineSeatsCredit: string;
  monthly: string;
  yearly: string;
  prorated: string;
  unusedTime: string;
  netTotal: string;
  vatOn: string;
  vatTotal: string;
  rounding: string;
  total: string;
  creditTotal: string;
  alreadyPaid: string;
  outstanding: string;
  paymentTerms: string;
  paymentTermsOverdue: string;
  paidOn: string;
  paid: string;
  voidedBy: string;
  voided: string;
  creditNoteNoPayment: string;
  nothingToPay: string;
  paymentPartFor: string;
  page: string;
  thanks: string;
}

export const INVOICE_PDF_TEXTS: Record<Language, InvoicePdfTexts> = {
  de: {
    invoiceTitle: 'Rechnung {number}',
    creditNoteTitle: 'Gutschrift {number}',
    issuedOn: 'Datum',
    dueOn: 'Zahlbar bis',
    servicePeriod: 'Leistungszeitraum',
    reference: 'Referenz',
    customerVatNumber: 'Ihre MWST-Nr.',
    purchaseOrder: 'Ihre Bestellnummer',
    creditNoteFor: 'Zur Rechnung',
    creditedBy: 'Gutschrift',
    providerVatNumber: 'MWST-Nr.',
    columnDescription: 'Beschreibung',
    columnQuantity: 'Menge',
    columnUnitPrice: 'Einzelpreis',
    columnVat: 'MWST',
    columnAmount: 'Betrag {currency}',
    linePlan: 'Abonnement {plan}, {period}',
    lineSeats: 'Zusätzliche Benutzer, {plan}',
    linePlanCredit: 'Gutschrift Abonnement {plan}, {period}',
    lineSeatsCredit: 'Gutschrift zusätzliche Benutzer, {plan}',
    monthly: 'monatlich',
    yearly: 'jährlich',
    prorated: 'anteilig',
    unusedTime: 'nicht genutzte Zeit',
    netTotal: 'Total netto',
    vatOn: 'MWST {rate} auf {amount}',
    vatTotal: 'Total MWST',
    rounding: 'Rundungsdifferenz',
    total: 'Total {currency}',
    creditTotal: 'Gutschrift total {currency}',
    alreadyPaid: 'Bereits bezahlt',
    outstanding: 'Offener Betrag {currency}',
    paymentTerms:
      'Bitte überweisen Sie den Betrag bis zum {date} ohne Abzug mit dem beiliegenden QR-Zahlteil (Referenz {reference}).',
    paymentTermsOverdue:
      'Diese Rechnung war am {date} fällig. Bitte überweisen Sie den offenen Betrag umgehend mit dem beiliegenden QR-Zahlteil (Referenz {reference}).',
    paidOn: 'Diese Rechnung wurde am {date} bezahlt. Es ist keine Zahlung mehr erforderlich. Vielen Dank.',
    paid: 'Diese Rechnung ist bezahlt. Es ist keine Zahlung mehr erforderlich. Vielen Dank.',
    voidedBy:
      'Diese Rechnung wurde mit der Gutschrift {number} storniert. Es ist keine Zahlung erforderlich.',
    voided: 'Diese Rechnung wurde storniert. Es ist keine Zahlung erforderlich.',
    creditNoteNoPayment:
      'Diese Gutschrift storniert die Rechnung {number}. Es ist keine Zahlung erforderlich; bereits bezahlte Beträge werden Ihnen gutgeschrieben.',
    nothingToPay: 'Es ist keine Zahlung erforderlich.',
    paymentPartFor: 'Zahlteil zur Rechnung {number}',
    page: 'Seite {page} von {pages}',
    thanks: 'Vielen Dank für Ihr Vertrauen.',
  },
  en: {
    invoiceTitle: 'Invoice {number}',
    creditNoteTitle: 'Credit note {number}',
    issuedOn: 'Date',
    dueOn: 'Due date',
    servicePeriod: 'Service period',
    reference: 'Reference',
    customerVatNumber: 'Your VAT no.',
    purchaseOrder: 'Your purchase order',
    creditNoteFor: 'For invoice',
    creditedBy: 'Credit note',
    providerVatNumber: 'VAT no.',
    columnDescription: 'Description',
    columnQuantity: 'Qty',
    columnUnitPrice: 'Unit price',
    columnVat: 'VAT',
    columnAmount: 'Amount {currency}',
    linePlan: '{plan} subscription, {period}',
    lineSeats: 'Additional users, {plan}',
    linePlanCredit: 'Credit: {plan} subscription, {period}',
    lineSeatsCredit: 'Credit: additional users, {plan}',
    monthly: 'monthly',
    yearly: 'yearly',
    prorated: 'prorated',
    unusedTime: 'unused time',
    netTotal: 'Net total',
    vatOn: 'VAT {rate} on {amount}',
    vatTotal: 'Total VAT',
    rounding: 'Rounding difference',
    total: 'Total {currency}',
    creditTotal: 'Total credit {currency}',
    alreadyPaid: 'Already paid',
    outstanding: 'Amount due {currency}',
    paymentTerms:
      'Please pay the amount in full by {date} using the enclosed QR payment part (reference {reference}).',
    paymentTermsOverdue:
      'This invoice was due on {date}. Please pay the amount due without delay using the enclosed QR payment part (reference {reference}).',
    paidOn: 'This invoice was paid on {date}. No further payment is required. Thank you.',
    paid: 'This invoice has been paid. No further payment is required. Thank you.',
    voidedBy: 'This invoice was cancelled by credit note {number}. No payment is required.',
    voided: 'This invoice was cancelled. No payment is required.',
    creditNoteNoPayment:
      'This credit note cancels invoice {number}. No payment is required; any amount already paid will be credited to you.',
    nothingToPay: 'No payment is required.',
    paymentPartFor: 'Payment part for invoice {number}',
    page: 'Page {page} of {pages}',
    thanks: 'Thank you for your business.',
  },
  fr: {
    invoiceTitle: 'Facture {number}',
    creditNoteTitle: 'Note de crédit {number}',
    issuedOn: 'Date',
    dueOn: 'Payable jusqu’au',
    servicePeriod: 'Période de prestation',
    reference: 'Référence',
    customerVatNumber: 'Votre n° TVA',
    purchaseOrder: 'Votre n° de commande',
    creditNoteFor: 'Pour la facture',
    creditedBy: 'Note de crédit',
    providerVatNumber: 'N° TVA',
    columnDescription: 'Description',
    columnQuantity: 'Quantité',
    columnUnitPrice: 'Prix unitaire',
    columnVat: 'TVA',
    columnAmount: 'Montant {currency}',
    linePlan: 'Abonnement {plan}, {period}',
    lineSeats: 'Utilisateurs supplémentaires, {plan}',
    linePlanCredit: 'Crédit abonnement {plan}, {period}',
    lineSeatsCredit: 'Crédit utilisateurs supplémentaires, {plan}',
    monthly: 'mensuel',
    yearly: 'annuel',
    prorated: 'au prorata',
    unusedTime: 'période non utilisée',
    netTotal: 'Total net',
    vatOn: 'TVA {rate} sur {amount}',
    vatTotal: 'Total TVA',
    rounding: 'Différence d’arrondi',
    total: 'Total {currency}',
    creditTotal: 'Total du crédit {currency}',
    alreadyPaid: 'Déjà payé',
    outstanding: 'Montant dû {currency}',
    paymentTerms:
      'Veuillez payer le montant sans déduction d’ici au {date} avec la section paiement QR ci-jointe (référence {reference}).',
    paymentTermsOverdue:
      'Cette facture était payable le {date}. Veuillez payer le montant dû sans délai avec la section paiement QR ci-jointe (référence {reference}).',
    paidOn: 'Cette facture a été payée le {date}. Aucun paiement n’est plus nécessaire. Merci.',
    paid: 'Cette facture est payée. Aucun paiement n’est plus nécessaire. Merci.',
    voidedBy: 'Cette facture a été annulée par la note de crédit {number}. Aucun paiement n’est nécessaire.',
    voided: 'Cette facture a été annulée. Aucun paiement n’est nécessaire.',
    creditNoteNoPayment:
      'Cette note de crédit annule la facture {number}. Aucun paiement n’est nécessaire ; les montants déjà payés vous seront crédités.',
    nothingToPay: 'Aucun paiement n’est nécessaire.',
    paymentPartFor: 'Section paiement de la facture {number}',
    page: 'Page {page} sur {pages}',
    thanks: 'Merci de votre confiance.',
  },
  it: {
    invoiceTitle: 'Fattura {number}',
    creditNoteTitle: 'Nota di credito {number}',
    issuedOn: 'Data',
    dueOn: 'Pagabile entro',
    servicePeriod: 'Periodo di prestazione',
    reference: 'Riferimento',
    customerVatNumber: 'Suo n. IVA',
    purchaseOrder: 'Suo n. d’ordine',
    creditNoteFor: 'Per la fattura',
    creditedBy: 'Nota di credito',
    providerVatNumber: 'N. IVA',
    columnDescription: 'Descrizione',
    columnQuantity: 'Quantità',
    columnUnitPrice: 'Prezzo unitario',
    columnVat: 'IVA',
    columnAmount: 'Importo {currency}',
    linePlan: 'Abbonamento {plan}, {period}',
    lineSeats: 'Utenti supplementari, {plan}',
    linePlanCredit: 'Accredito abbonamento {plan}, {period}',
    lineSeatsCredit: 'Accredito utenti supplementari, {plan}',
    monthly: 'mensile',
    yearly: 'annuale',
    prorated: 'pro rata',
    unusedTime: 'periodo non utilizzato',
    netTotal: 'Totale netto',
    vatOn: 'IVA {rate} su {amount}',
    vatTotal: 'Totale IVA',
    rounding: 'Differenza di arrotondamento',
    total: 'Totale {currency}',
    creditTotal: 'Totale accredito {currency}',
    alreadyPaid: 'Già pagato',
    outstanding: 'Importo dovuto {currency}',
    paymentTerms:
      'La preghiamo di pagare l’importo senza deduzioni entro il {date} con la sezione pagamento QR allegata (riferimento {reference}).',
    paymentTermsOverdue:
      'Questa fattura è scaduta il {date}. La preghiamo di pagare l’importo dovuto senza indugio con la sezione pagamento QR allegata (riferimento {reference}).',
    paidOn: 'Questa fattura è stata pagata il {date}. Non è più necessario alcun pagamento. Grazie.',
    paid: 'Questa fattura è pagata. Non è più necessario alcun pagamento. Grazie.',
    voidedBy:
      'Questa fattura è stata annullata con la nota di credito {number}. Non è necessario alcun pagamento.',
    voided: 'Questa fattura è stata annullata. Non è necessario alcun pagamento.',
    creditNoteNoPayment:
      'Questa nota di credito annulla la fattura {number}. Non è necessario alcun pagamento; gli importi già pagati le saranno accreditati.',
    nothingToPay: 'Non è necessario alcun pagamento.',
    paymentPartFor: 'Sezione pagamento della fattura {number}',
    page: 'Pagina {page} di {pages}',
    thanks: 'Grazie per la fiducia.',
  },
};

/** `template` with each `{name}` replaced by `values[name]`. */
export function fill(template: string, values: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The calendar day of an instant in `timeZone`, as YYYY-MM-DD. */
export function dayIn(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(instant));
}

/** A country (ISO 3166-1 alpha-2) by its name in the language. */
export function countryName(code: string, language: Language): string {
  return new Intl.DisplayNames(INTL_LOCALES[language], { type: 'region' }).of(code) ?? code;
}
