import { describe, expect, it } from 'vitest';
import { LANGUAGES, NOTIFICATION_TYPES, type NotificationParams } from '@portal/contract';
import { notificationMail, notificationMailText } from './mails.ts';

/** Parameters of every type, as the areas write them. */
const PARAMS: { [T in keyof NotificationParams]: NotificationParams[T] } = {
  'invitation.received': { accountName: 'Muster AG', invitedBy: 'Olivia Owner', role: 'ADMIN' },
  'invitation.accepted': { email: 'a@example.com', name: 'Adrian Admin', role: 'EMPLOYEE' },
  'invitation.declined': { email: 'a@example.com', role: 'EMPLOYEE' },
  'member.role_changed': {
    accountName: 'Muster AG',
    role: 'ADMIN',
    previousRole: 'EMPLOYEE',
    changedBy: 'Olivia Owner',
  },
  'member.removed': { accountName: 'Muster AG', removedBy: 'Olivia Owner' },
  'ownership.transfer_requested': { accountName: 'Muster AG', requestedBy: 'Olivia Owner' },
  'ownership.transfer_accepted': { accountName: 'Muster AG', acceptedBy: 'Adrian Admin' },
  'ownership.transfer_cancelled': { accountName: 'Muster AG', cancelledBy: 'Olivia Owner' },
  'account.deletion_scheduled': {
    accountName: 'Muster AG',
    availableUntil: '2026-12-22T10:00:00.000Z',
    scheduledBy: 'Olivia Owner',
  },
  'account.deletion_cancelled': { accountName: 'Muster AG', cancelledBy: 'Olivia Owner' },
  'terms.to_accept': { kind: 'agb', version: '2026-01' },
  'ticket.answered': { ticketUuid: 'x', ticketNumber: 1042, subject: 'Rechnung fehlt' },
  'ticket.waiting_for_customer': { ticketUuid: 'x', ticketNumber: 1042, subject: 'Rechnung fehlt' },
  'ticket.solved': { ticketUuid: 'x', ticketNumber: 1042, subject: 'Rechnung fehlt' },
  'invoice.issued': {
    invoiceUuid: '6f1c2b1e-0013-4000-8000-000000000001',
    number: '2026-000123',
    totalMinor: 123450,
    currency: 'CHF',
    dueOn: '2026-12-22',
  },
  'invoice.overdue': {
    invoiceUuid: '6f1c2b1e-0013-4000-8000-000000000001',
    number: '2026-000123',
    totalMinor: 123450,
    currency: 'CHF',
    dueOn: '2026-12-22',
  },
  'account.two_factor_required': { accountName: 'Muster AG', graceUntil: '2026-12-01T10:00:00.000Z' },
  'cloud.needs_reconnect': {
    accountName: 'Muster AG',
    connectionUuid: '6f1c2b1e-0018-4000-8000-000000000001',
  },
  'data_export.ready': { availableUntil: '2026-12-04T10:00:00.000Z' },
  'announcement.published': {
    announcementUuid: '6f1c2b1e-0031-4000-8000-000000000001',
    kind: 'maintenance',
    title: {
      de: 'Wartung am Samstag',
      en: 'Maintenance on Saturday',
      fr: 'Maintenance samedi',
      it: 'Manutenzione sabato',
    },
    startsAt: '2026-12-05T21:00:00.000Z',
    endsAt: '2026-12-06T01:00:00.000Z',
  },
};

describe('notification mails', () => {
  it('has a subject and a sentence for every type in every language, with its values filled in', () => {
    for (const language of LANGUAGES) {
      const subjects = new Set<string>();
      for (const type of NOTIFICATION_TYPES) {
        const { subject, body } = notificationMailText(language, type, PARAMS[type], 'Muster AG');
        for (const text of [subject, body]) {
          expect(text, `${language} ${type}`).not.toMatch(/\bundefined\b|\bnull\b|\{\{|\$\{/);
          expect(text.length).toBeGreaterThan(5);
        }
        subjects.add(subject);
        const values = Object.values(PARAMS[type]).filter(
          (v) => typeof v === 'string' && /^[A-Z][a-z]+ [A-Z]/.test(v),
        );
        for (const value of values) expect(`${subject} ${body}`, `${language} ${type}`).toContain(value);
      }
      // Each type reads differently.
      expect(subjects.size).toBe(NOTIFICATION_TYPES.length);
    }
  });

  it('writes an invoice’s amount the Swiss way in every language and its due day as the day it is', () => {
    const params = { ...PARAMS['invoice.issued'], currency: 'EUR', totalMinor: -123450 };
    for (const language of LANGUAGES) {
      expect(notificationMailText(language, 'invoice.issued', params).body).toContain("EUR -1'234.50");
    }
    expect(notificationMailText('it', 'invoice.overdue', PARAMS['invoice.overdue']).body).toContain(
      "CHF 1'234.50",
    );
  });

  it('renders in the reader language: dates, roles and quotes as that language writes them', () => {
    const params = PARAMS['account.deletion_scheduled'];
    expect(notificationMailText('de', 'account.deletion_scheduled', params).body).toBe(
      'Olivia Owner hat die Löschung von «Muster AG» veranlasst. Das Konto ist noch bis am 22. Dezember 2026 verfügbar.',
    );
    expect(notificationMailText('en', 'account.deletion_scheduled', params).body).toBe(
      'Olivia Owner scheduled the deletion of “Muster AG”. The account remains available until 22 December 2026.',
    );
    expect(notificationMailText('fr', 'member.role_changed', PARAMS['member.role_changed']).body).toBe(
      'Olivia Owner a changé votre rôle dans «\u00a0Muster AG\u00a0» de collaborateur/trice à administrateur/trice.',
    );
    expect(notificationMailText('it', 'ticket.solved', PARAMS['ticket.solved']).subject).toBe(
      'La sua richiesta n. 1042 «Rechnung fehlt» è risolta',
    );
  });

  it('leaves out text that could become a link, and reads an unknown type generically', () => {
    const { body } = notificationMailText('en', 'member.removed', {
      accountName: 'evil.example.com',
      removedBy: 'http://x',
    });
    expect(body).toBe('Someone removed you from an account. You no longer have access to this account.');
    expect(notificationMailText('de', 'billing.future', {}).subject).toBe('Neue Mitteilung');
  });

  it('is a mail in the recipient language with the link, escaped in HTML', () => {
    const mail = notificationMail({
      to: { email: 'o@example.com', name: 'Olivia <Owner>', language: 'it' },
      type: 'member.removed',
      params: { accountName: 'A & B', removedBy: 'Olivia' },
      accountName: null,
      link: 'https://portal.example/inbox/1',
      product: 'Portal',
    });
    expect(mail.to).toBe('o@example.com');
    expect(mail.subject).toBe('Portal: È stato/a rimosso/a da «A & B»');
    expect(mail.text).toContain('Buongiorno Olivia <Owner>,');
    expect(mail.text).toContain('https://portal.example/inbox/1');
    expect(mail.html).toContain('A &amp; B');
    expect(mail.html).toMatch(/<a href="https:\/\/portal\.example\/inbox\/1"[^>]*>Apri nel portale<\/a>/);
    expect(mail.html).not.toContain('<Owner>');
  });
});
