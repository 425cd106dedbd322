import { describe, expect, it } from 'vitest';
import type { Invoice, Language } from '@portal/contract';
import { invoiceFileName } from './billing.documents.ts';
import { invoiceMail, reminderMail } from './billing.mails.ts';
import { remindersDue } from './billing.overdue.ts';
import { cardPaymentsFor } from './card-payments.ts';

const INVOICE = {
  uuid: '6f1c2b1e-0013-4000-8000-000000000099',
  number: '2026-000123',
  kind: 'INVOICE',
  reason: 'PERIOD',
  status: 'OPEN',
  currency: 'CHF',
  issuedOn: '2026-11-01',
  dueOn: '2026-12-01',
  periodStart: '2026-11-01',
  periodEnd: '2027-11-01',
  totalMinor: 162150,
  paidMinor: 50000,
  reference: '000000000000000020260001233',
} as Invoice;
const CREDITOR = { name: 'Portal AG', iban: 'CH4431999123000889012' };

/** The mail input of the test invoice, with `change` applied. */
const input = (change: Partial<Parameters<typeof invoiceMail>[0]> = {}) => ({
  to: 'a@example.com',
  language: 'de' as Language,
  invoice: INVOICE,
  accountName: 'Muster AG',
  creditor: CREDITOR,
  ...change,
});

describe('invoice mails', () => {
  const expected: Record<Language, [string, string]> = {
    de: ['Rechnung 2026-000123 von Portal AG', 'zahlbar bis 01.12.2026'],
    en: ['Invoice 2026-000123 from Portal AG', 'due by 01/12/2026'],
    fr: ['Facture 2026-000123 de Portal AG', 'payable jusqu’au 01.12.2026'],
    it: ['Fattura 2026-000123 di Portal AG', 'pagabile entro il 01.12.2026'],
  };
  for (const [language, [subject, due]] of Object.entries(expected) as [Language, [string, string]][]) {
    it(`says number, amount, due date and how to pay, in ${language}`, () => {
      const mail = invoiceMail(input({ language }));
      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain("CHF 1'621.50");
      expect(mail.text).toContain(due);
      expect(mail.text).toContain('CH44 3199 9123 0008 8901 2');
      expect(mail.text).toContain('00 00000 00000 00002 02600 01233');
    });
  }

  it('escapes what the HTML part carries', () => {
    const mail = invoiceMail(input({ accountName: '<script>alert(1)</script> & Co' }));
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(mail.html).not.toContain('<script>');
  });

  it('tells a credit note apart: nothing to pay, no payment instructions', () => {
    const mail = invoiceMail(input({ language: 'en', invoice: { ...INVOICE, kind: 'CREDIT_NOTE' } }));
    expect(mail.subject).toBe('Credit note 2026-000123 from Portal AG');
    expect(mail.text).not.toContain('QR-bill');
  });

  it('writes euros as Swiss customers read them, in every language (decision 201)', () => {
    const euros = { ...INVOICE, currency: 'EUR' as const };
    for (const language of ['de', 'fr', 'it'] as Language[]) {
      expect(invoiceMail(input({ language, invoice: euros })).text).toContain("EUR 1'621.50");
    }
  });

  it('reminds of the amount still open', () => {
    const mail = reminderMail(input());
    expect(mail.subject).toBe('Zahlungserinnerung: Rechnung 2026-000123');
    expect(mail.text).toContain("Offen sind noch CHF 1'121.50.");
  });

  it('names the downloaded file in the language', () => {
    expect(invoiceFileName(INVOICE, 'de')).toBe('Rechnung-2026-000123.pdf');
    expect(invoiceFileName(INVOICE, 'fr')).toBe('Facture-2026-000123.pdf');
    expect(invoiceFileName({ ...INVOICE, kind: 'CREDIT_NOTE' }, 'it')).toBe(
      'Nota-di-credito-2026-000123.pdf',
    );
  });
});

describe('reminders due', () => {
  it('counts the reminder days reached after the due date', () => {
    expect(remindersDue('2026-10-31', '2026-11-09', [10, 30])).toBe(0);
    expect(remindersDue('2026-10-31', '2026-11-10', [10, 30])).toBe(1);
    expect(remindersDue('2026-10-31', '2026-11-29', [10, 30])).toBe(1);
    expect(remindersDue('2026-10-31', '2026-11-30', [10, 30])).toBe(2);
    expect(remindersDue('2026-10-31', '2027-01-01', [])).toBe(0);
  });
});

describe('card payments', () => {
  it('exist only when a provider is configured with its key', () => {
    expect(cardPaymentsFor({ card: null })).toBeNull();
    const port = cardPaymentsFor({ card: { provider: 'stripe', secretKey: 'sk_test_x', apiUrl: null } });
    expect(port).not.toBeNull();
    expect(Object.keys(port!).sort()).toEqual(['charge', 'completeSetup', 'createSetupUrl']);
  });
});
