import {
  formatDate,
  formatDateTime,
  formatDay,
  formatMoney,
  isLanguage,
  isNotificationType,
  type Language,
} from '@portal/contract';
import { renderMail } from '../mail/layout.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { mailText } from '../mail/user-text.ts';
import { TEXTS, type LanguageTexts, type Shown } from './mail-texts.ts';

// The mail of a notification: its subject and sentence from the one table of mail texts (mail-texts.ts), in the
// recipient's language, written through the one mail layout.

export interface NotificationMail {
  to: { email: string; name: string; language: string };
  type: string;
  params: Record<string, unknown>;
  /** The account's name, for a notification of an account whose parameters do not name it. */
  accountName: string | null;
  /** The notification in the portal (its inbox page). */
  link: string;
  product: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The subject and sentence of one notification in one language, as the mail shows them. */
export function notificationMailText(
  language: Language,
  type: string,
  params: Record<string, unknown>,
  accountName: string | null = null,
): { subject: string; body: string } {
  const t = TEXTS[language];
  const date = Date.parse(text(params.availableUntil ?? params.graceUntil));
  const shown: Shown = {
    account: t.account(mailText(text(params.accountName) || (accountName ?? ''))),
    exportedAccount:
      type === 'data_export.ready' && text(params.accountName)
        ? t.account(mailText(text(params.accountName)))
        : undefined,
    person:
      mailText(
        text(
          params.invitedBy ??
            params.name ??
            params.changedBy ??
            params.removedBy ??
            params.requestedBy ??
            params.acceptedBy ??
            params.cancelledBy ??
            params.scheduledBy,
        ),
      ) ?? t.someone,
    role: t.roles[text(params.role)] ?? text(params.role),
    previousRole: t.roles[text(params.previousRole)] ?? text(params.previousRole),
    date: Number.isNaN(date) ? '' : formatDate(date, language),
    kind: t.kinds[text(params.kind)] ?? t.kinds.all!,
    version: text(params.version),
    ticket: t.ticket(
      typeof params.ticketNumber === 'number' ? params.ticketNumber : undefined,
      mailText(text(params.subject)),
    ),
    invoice: invoiceShown(params),
    due: Number.isNaN(Date.parse(text(params.dueOn))) ? '' : formatDay(text(params.dueOn), language),
    ...announcementShown(t, language, params),
  };
  const [subject, body] = isNotificationType(type) ? t.types[type](shown) : t.unknown;
  return { subject, body };
}

/** An announcement's title in `language` (German where it has none), its kind and its window. */
function announcementShown(t: LanguageTexts, language: Language, params: Record<string, unknown>) {
  const titles = (params.title ?? {}) as Partial<Record<Language, string>>;
  const title = text(titles[language]) || text(titles.de);
  const start = Date.parse(text(params.startsAt));
  const end = Date.parse(text(params.endsAt));
  return {
    announcement: mailText(title) ?? '',
    announcementKind: t.announcementKinds[text(params.kind)] ?? t.announcementKinds.info!,
    announcementWindow: Number.isNaN(start)
      ? ''
      : t.window(formatDateTime(start, language), Number.isNaN(end) ? null : formatDateTime(end, language)),
  };
}

/** An invoice's number and amount as mails show them: "2026-000123 (CHF 1'234.50)". */
function invoiceShown(params: Record<string, unknown>): string {
  if (typeof params.totalMinor !== 'number' || !text(params.number)) return text(params.number);
  return `${text(params.number)} (${formatMoney(params.totalMinor, text(params.currency))})`;
}

/** The mail of one notification in the recipient's language: greeting, the sentence, the link, why it came. */
export function notificationMail(mail: NotificationMail): MailMessage {
  const language: Language = isLanguage(mail.to.language) ? mail.to.language : 'de';
  const t = TEXTS[language];
  const { subject, body } = notificationMailText(language, mail.type, mail.params, mail.accountName);
  return renderMail({
    to: mail.to.email,
    language,
    product: mail.product,
    subject,
    greeting: `${t.greeting(mailText(mail.to.name))},`,
    body: [body, { button: { label: t.action, url: mail.link } }, t.why],
  });
}
