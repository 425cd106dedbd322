import type { TFunction } from 'i18next';
import {
  NOTIFICATION_TYPES,
  isNotificationType,
  type Notification,
  type NotificationType,
} from '@portal/contract';
import { announcementText } from '@portal/contract';
import { href } from '@/app/href.ts';
import { formatDate, formatDateTime, formatDay, formatMoney } from '@/i18n/format.ts';
import { currentLanguage } from '@/i18n/i18n.ts';

/** What the inbox shows of a notification, in the reader's language: rendered now, from its type and parameters. */
export interface NotificationView {
  /** The type's name (filter, preferences). */
  label: string;
  title: string;
  body: string;
  /** Where the notification leads, and the link's text. */
  to: string;
  action: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The person a notification names, whichever parameter carries it for its type. */
function personOf(params: Record<string, unknown>): string {
  for (const key of [
    'invitedBy',
    'name',
    'changedBy',
    'removedBy',
    'requestedBy',
    'acceptedBy',
    'cancelledBy',
    'scheduledBy',
  ]) {
    if (text(params[key])) return text(params[key]);
  }
  return '';
}

/** The type's message key prefix, e.g. `notifications.types.invitation.received`. */
function keyOf(type: NotificationType) {
  return `notifications.types.${type}` as const;
}

/** The type's name for filters and preferences. */
export function typeLabel(t: TFunction, type: NotificationType): string {
  return t(`${keyOf(type)}.label`);
}

export const TYPE_OPTIONS = NOTIFICATION_TYPES;

/**
 * Where each type leads: what it is about, in its account (`?uuid=` makes the guard select that account; a
 * personal notification carries none). Support tickets open their conversation, invoices their detail.
 */
function linkOf(notification: Notification): string {
  const type = notification.type as NotificationType;
  const account = notification.accountUuid ? { uuid: notification.accountUuid } : undefined;
  switch (type) {
    case 'invitation.received':
    case 'member.removed':
      return href('accounts');
    case 'invitation.accepted':
    case 'invitation.declined':
      return href('settings-user-management', undefined, account);
    case 'ownership.transfer_accepted':
    case 'ownership.transfer_cancelled':
      return href('settings-ownership', undefined, account);
    case 'terms.to_accept':
      return href('accept-agb', undefined, account);
    case 'account.two_factor_required':
      return href('settings-users', undefined, { ...account, tab: 'security' });
    case 'data_export.ready':
      // An account's export (decision 240) is on the company profile; the person's own on their settings.
      return account
        ? href('settings-company-profile', undefined, account)
        : href('settings-users', undefined, { tab: 'data' });
    case 'invoice.issued':
    case 'invoice.overdue':
      // The billing page opens the invoice named by `invoice=`.
      return href('billing', undefined, { ...account, invoice: text(notification.params.invoiceUuid) });
    case 'ticket.answered':
    case 'ticket.waiting_for_customer':
    case 'ticket.solved':
      return href('support-ticket-detail', { ticketUuid: text(notification.params.ticketUuid) }, account);
    case 'cloud.needs_reconnect':
      return href('deepcloud-connection', { uuid: text(notification.params.connectionUuid) }, account);
    case 'announcement.published':
      // The announcement's whole text is on the notification's own page.
      return href('inbox-item', { uuid: notification.uuid }, account);
    default:
      return href('dashboard', undefined, account);
  }
}

/** An announcement's title in the interface language (German where it has none), its kind and its window. */
function announcementValues(t: TFunction, params: Record<string, unknown>) {
  const titles = (params.title ?? {}) as { de?: string };
  const start = text(params.startsAt);
  const end = text(params.endsAt);
  const kind = text(params.kind);
  return {
    title: announcementText({ ...titles, de: text(titles.de) }, currentLanguage()),
    kind: t(`notifications.announcementKinds.${kind}` as 'notifications.announcementKinds.info', {
      defaultValue: t('notifications.announcementKinds.info'),
    }),
    window: start
      ? end
        ? t('notifications.announcementWindow', { start: formatDateTime(start), end: formatDateTime(end) })
        : t('notifications.announcementFrom', { start: formatDateTime(start) })
      : '',
  };
}

/** The notification as the reader sees it; a type this version does not know reads as a generic message. */
export function notificationView(t: TFunction, notification: Notification): NotificationView {
  const { type, params } = notification;
  if (!isNotificationType(type)) {
    return {
      label: t('notifications.unknown.label'),
      title: t('notifications.unknown.title'),
      body: t('notifications.unknown.body'),
      to: href('dashboard'),
      action: t('notifications.unknown.action'),
    };
  }
  const role = text(params.role);
  const previousRole = text(params.previousRole);
  const roleName = (value: string) =>
    value ? t(`notifications.roles.${value}` as 'notifications.roles.ADMIN', { defaultValue: value }) : '';
  const values = {
    ...params,
    person: personOf(params) || t('notifications.someone'),
    accountName: text(params.accountName) || t('notifications.anAccount'),
    role: roleName(role),
    previousRole: roleName(previousRole),
    date: text(params.availableUntil ?? params.graceUntil)
      ? formatDate(text(params.availableUntil ?? params.graceUntil))
      : '',
    due: text(params.dueOn) ? formatDay(text(params.dueOn)) : '',
    amount:
      typeof params.totalMinor === 'number' ? formatMoney(params.totalMinor, text(params.currency)) : '',
    kind: t(`notifications.kinds.${text(params.kind) || 'all'}` as 'notifications.kinds.all', {
      defaultValue: t('notifications.kinds.all'),
    }),
    ...(type === 'announcement.published' ? announcementValues(t, params) : {}),
  };
  const key = keyOf(type);
  // The export of an account's data reads as such; the person's own export as theirs.
  const texts =
    type === 'data_export.ready' && text(params.accountName)
      ? ('notifications.types.data_export.readyAccount' as const)
      : key;
  return {
    label: t(`${key}.label`),
    title: t(`${texts}.title`, values),
    body: t(`${texts}.body`, values),
    to: linkOf(notification),
    action: t(`${key}.action`),
  };
}
