import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES, type Notification } from '@portal/contract';
import { i18n, initI18n, loadAreas } from '@/i18n/i18n.ts';
import { notificationView } from './notification-text.ts';

const files = import.meta.glob<Record<string, unknown>>('../../i18n/locales/*/messages.json', {
  eager: true,
  import: 'default',
});
const LOCALES = ['de', 'en', 'fr', 'it'] as const;

/** The messages of one language, as a reader of that language sees them: the app's i18next, the inbox's area loaded. */
async function tFor(language: (typeof LOCALES)[number]) {
  if (!i18n.isInitialized) await initI18n();
  await loadAreas(['notifications']);
  await i18n.changeLanguage(language);
  return i18n.getFixedT(language);
}

function lookup(messages: Record<string, unknown>, path: string[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    messages,
  );
}

const notification = (type: string, params: Record<string, unknown>, accountUuid: string | null = 'a1') =>
  ({
    uuid: 'n1',
    type,
    params,
    accountUuid,
    createdAt: '2026-11-20T09:00:00.000Z',
    readAt: null,
    archivedAt: null,
  }) satisfies Notification;

describe('notification texts', () => {
  it('exist for every notification type in all four languages: label, title, body and link text', () => {
    for (const locale of LOCALES) {
      const messages = files[`../../i18n/locales/${locale}/messages.json`]!;
      for (const type of NOTIFICATION_TYPES) {
        for (const part of ['label', 'title', 'body', 'action']) {
          const text = lookup(messages, ['notifications', 'types', ...type.split('.'), part]);
          expect(typeof text === 'string' && text.length > 2, `${locale} ${type}.${part}`).toBe(true);
        }
      }
    }
  });

  it('renders in the reader language at display time, with roles, dates and a link to what it is about', async () => {
    const n = notification('member.role_changed', {
      accountName: 'Muster AG',
      role: 'ADMIN',
      previousRole: 'EMPLOYEE',
      changedBy: 'Olivia Owner',
    });
    const de = notificationView(await tFor('de'), n);
    expect(de.title).toBe('Ihre Rolle in «Muster AG» wurde geändert');
    expect(de.body).toBe('Olivia Owner hat Ihre Rolle von Mitarbeiter/in zu Administrator/in geändert.');
    expect(de.to).toBe('/?uuid=a1');
    const en = notificationView(await tFor('en'), n);
    expect(en.body).toBe('Olivia Owner changed your role from employee to administrator.');

    const ticket = notificationView(
      await tFor('fr'),
      notification('ticket.answered', {
        ticketUuid: 't-1',
        ticketNumber: 1042,
        subject: 'Facture <manquante>',
      }),
    );
    expect(ticket.title).toBe('Réponse à la demande n° 1042');
    expect(ticket.body).toBe('Le support a répondu à votre demande « Facture <manquante> ».');
    expect(ticket.to).toBe('/support/tickets/t-1?uuid=a1');

    const invoice = notificationView(
      await tFor('de'),
      notification('invoice.overdue', {
        invoiceUuid: 'i-1',
        number: '2026-000005',
        totalMinor: 4865,
        currency: 'EUR',
        dueOn: '2026-10-31',
      }),
    );
    expect(invoice.to).toBe('/billing?uuid=a1&invoice=i-1');

    const personal = notificationView(
      await tFor('it'),
      notification('invitation.received', { accountName: 'Neu Sàrl', invitedBy: '', role: 'DC' }, null),
    );
    expect(personal.body).toBe('Qualcuno la invita a unirsi all’account «Neu Sàrl» come Digital Coach.');
    expect(personal.to).toBe('/accounts');

    // The export of an account's data reads as the account's and leads to its company profile; the own as before.
    const accountExport = notificationView(
      await tFor('de'),
      notification('data_export.ready', { availableUntil: '2026-12-05T10:00:00Z', accountName: 'Muster AG' }),
    );
    expect(accountExport.body).toBe(
      'Die Zusammenstellung der Daten von Muster AG ist fertig. Sie können sie bis am 5. Dezember 2026 herunterladen.',
    );
    expect(accountExport.to).toBe('/settings/company-profile?uuid=a1');
    const ownExport = notificationView(
      await tFor('it'),
      notification('data_export.ready', { availableUntil: '2026-12-05T10:00:00Z' }, null),
    );
    expect(ownExport.title).toBe(
      lookup(files['../../i18n/locales/it/messages.json']!, [
        'notifications',
        'types',
        'data_export',
        'ready',
        'title',
      ]),
    );
    expect(ownExport.to).toBe('/settings/users?tab=data');
  });

  it('reads a type this version does not know as a generic notification', async () => {
    const view = notificationView(await tFor('de'), notification('billing.x', {}));
    expect(view).toMatchObject({ title: 'Mitteilung', label: 'Andere', to: '/' });
  });
});
