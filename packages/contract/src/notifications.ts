import Type from 'typebox';
import { DateTime, Entity, ErrorBody, List, Uuid, UuidParams, PageNumber } from './common.ts';
import { defineRoute } from './route.ts';

// Notifications are stored as a type key with parameters and rendered in the reader's language at display time.
// Every area adds its types here (and their texts to the web app's messages); the server writes them through its
// one notify function, in the transaction of the change that causes them.

/** Parameters of each notification type: plain values the text and the link are made of. */
export interface NotificationParams {
  /** To the invited person (a personal notification: no account). */
  'invitation.received': { accountName: string; invitedBy: string; role: string };
  /** To the account's admins. */
  'invitation.accepted': { email: string; name: string; role: string };
  'invitation.declined': { email: string; role: string };
  /** To the member whose role changed. */
  'member.role_changed': { accountName: string; role: string; previousRole: string; changedBy: string };
  /** To the removed member (personal: they no longer reach the account). */
  'member.removed': { accountName: string; removedBy: string };
  /** To the proposed new owner. */
  'ownership.transfer_requested': { accountName: string; requestedBy: string };
  /** To the previous owner. */
  'ownership.transfer_accepted': { accountName: string; acceptedBy: string };
  /** To the proposed new owner. */
  'ownership.transfer_cancelled': { accountName: string; cancelledBy: string };
  /** To every member. */
  'account.deletion_scheduled': { accountName: string; availableUntil: string; scheduledBy: string };
  'account.deletion_cancelled': { accountName: string; cancelledBy: string };
  /**
   * To members without a second factor: the account requires one from `graceUntil` on (when switched on, and as
   * reminders during the grace period).
   */
  'account.two_factor_required': { accountName: string; graceUntil: string };
  /** To the account's owner: a new version of the terms or privacy policy waits for acceptance. */
  'terms.to_accept': { kind: string; version: string };
  /** To the ticket's creator (never carries internal notes). */
  'ticket.answered': { ticketUuid: string; ticketNumber: number; subject: string };
  'ticket.waiting_for_customer': { ticketUuid: string; ticketNumber: number; subject: string };
  'ticket.solved': { ticketUuid: string; ticketNumber: number; subject: string };
  /** To the account's admins (the invoice itself is mailed to the billing recipients). */
  'invoice.issued': {
    invoiceUuid: string;
    number: string;
    totalMinor: number;
    currency: string;
    dueOn: string;
  };
  'invoice.overdue': {
    invoiceUuid: string;
    number: string;
    totalMinor: number;
    currency: string;
    dueOn: string;
  };
  /** To the account's admins: the cloud refused the connection's refresh token, someone must connect again. */
  'cloud.needs_reconnect': { accountName: string; connectionUuid: string };
  /**
   * To the person (personal): the export of their data can be downloaded until `availableUntil`. With `accountName`
   * (and the notification's account): the export of that account's data, to the owner who asked for it.
   */
  'data_export.ready': { availableUntil: string; accountName?: string };
  /**
   * To every person of an announcement's audience (a personal notification: once per person, whatever their
   * accounts): its kind, its title per language (each falling back to German) and its window.
   */
  'announcement.published': {
    announcementUuid: string;
    kind: string;
    title: Record<'de' | 'en' | 'fr' | 'it', string>;
    startsAt: string;
    endsAt: string | null;
  };
}

export type NotificationType = keyof NotificationParams;

/** Every known type, in the order the preferences list them. */
export const NOTIFICATION_TYPES = [
  'invitation.received',
  'invitation.accepted',
  'invitation.declined',
  'member.role_changed',
  'member.removed',
  'ownership.transfer_requested',
  'ownership.transfer_accepted',
  'ownership.transfer_cancelled',
  'account.deletion_scheduled',
  'account.deletion_cancelled',
  'account.two_factor_required',
  'terms.to_accept',
  'ticket.answered',
  'ticket.waiting_for_customer',
  'ticket.solved',
  'invoice.issued',
  'invoice.overdue',
  'cloud.needs_reconnect',
  'data_export.ready',
  'announcement.published',
] as const satisfies readonly NotificationType[];

/** Types that also send an email unless the user switched it off; the others only when switched on. */
export const NOTIFICATION_EMAIL_DEFAULTS: readonly NotificationType[] = [
  'invitation.received',
  'ownership.transfer_requested',
  'ownership.transfer_accepted',
  'ownership.transfer_cancelled',
  'account.two_factor_required',
  'ticket.answered',
  'ticket.waiting_for_customer',
  'cloud.needs_reconnect',
  'data_export.ready',
];

/**
 * Types whose change sends a mail of its own to the recipient — the invitation with its one-time link, the offer
 * of the ownership, the owner's answer to it: the notification adds no second mail, and their email setting is
 * always on (the preferences show it fixed).
 */
export const NOTIFICATION_TYPES_MAILED_BY_AREA: readonly NotificationType[] = [
  'invitation.received',
  'ownership.transfer_requested',
  'ownership.transfer_accepted',
];

/** Whether the type is one the contract knows (stored rows may carry a type a later version removed). */
export function isNotificationType(value: string): value is NotificationType {
  return (NOTIFICATION_TYPES as readonly string[]).includes(value);
}

/** Notifications per page of the inbox: the default, and the most the server answers. */
export const NOTIFICATIONS_PAGE_SIZE = 25;
export const NOTIFICATIONS_PAGE_SIZE_MAX = 100;

export const NotificationTypeSchema = Type.Enum(NOTIFICATION_TYPES);

/** One notification as the inbox shows it: a type and its parameters; the reader's language renders the text. */
export const Notification = Type.Object({
  uuid: Uuid,
  /** A type key; usually one of NOTIFICATION_TYPES, a type the web does not know reads as a generic message. */
  type: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
  /** The account it belongs to; null for one about the person (an invitation, a removal). */
  accountUuid: Type.Union([Uuid, Type.Null()]),
  createdAt: DateTime,
  readAt: Type.Union([DateTime, Type.Null()]),
  /** When it was archived; null while it is in the inbox. */
  archivedAt: Type.Union([DateTime, Type.Null()]),
});
export type Notification = Type.Static<typeof Notification>;

/**
 * The inbox: unread first, then newest; `unread` keeps only the unread ones, `type` one type. `archived` lists the
 * archived ones instead, the most recently archived first.
 */
export const NotificationsQuery = Type.Object(
  {
    archived: Type.Optional(Type.Boolean()),
    unread: Type.Optional(Type.Boolean()),
    type: Type.Optional(NotificationTypeSchema),
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: NOTIFICATIONS_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type NotificationsQuery = Type.Static<typeof NotificationsQuery>;

export const UpdateNotificationBody = Type.Object({ read: Type.Boolean() }, { additionalProperties: false });
export type UpdateNotificationBody = Type.Static<typeof UpdateNotificationBody>;

/** The caller's unread notifications in the account (its own and the personal ones). */
export const UnreadCount = Type.Object({ count: Type.Integer({ minimum: 0 }) });
export type UnreadCount = Type.Static<typeof UnreadCount>;

/** How many notifications an action changed. */
export const NotificationsChanged = Type.Object({ changed: Type.Integer({ minimum: 0 }) });
export type NotificationsChanged = Type.Static<typeof NotificationsChanged>;

/**
 * One type's email setting; `email` is the user's choice or, without one, the type's default. `fixed`: the area
 * mails this type itself (NOTIFICATION_TYPES_MAILED_BY_AREA), so it cannot be switched off.
 */
export const NotificationPreference = Type.Object({
  type: NotificationTypeSchema,
  email: Type.Boolean(),
  fixed: Type.Optional(Type.Boolean()),
});
export type NotificationPreference = Type.Static<typeof NotificationPreference>;

/** Every known type, in NOTIFICATION_TYPES order. A PUT may name some types; the others keep their setting. */
export const NotificationPreferences = Type.Object({
  preferences: Type.Array(NotificationPreference, { maxItems: NOTIFICATION_TYPES.length }),
});
export type NotificationPreferences = Type.Static<typeof NotificationPreferences>;
export const UpdateNotificationPreferencesBody = Type.Object(
  { preferences: Type.Array(NotificationPreference, { minItems: 1, maxItems: NOTIFICATION_TYPES.length }) },
  { additionalProperties: false },
);
export type UpdateNotificationPreferencesBody = Type.Static<typeof UpdateNotificationPreferencesBody>;

/** Whether a type is mailed to a user: their stored choice, else the type's default. */
export function emailsByDefault(type: NotificationType): boolean {
  return NOTIFICATION_EMAIL_DEFAULTS.includes(type);
}

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
/** Every member reads their own notifications; nobody reads anyone else's (the server filters by caller). */
const member = { min: 'EMPLOYEE' } as const;

/**
 * The signed-in user's inbox in one account: the account's notifications addressed to them plus their personal
 * ones (no account). Another user's or another account's notification answers 404.
 */
export const notificationsRoutes = {
  listNotifications: defineRoute({
    method: 'GET',
    path: '/notifications/v1/notifications',
    summary: 'A page of my notifications in the account, unread first, then newest',
    tags: ['notifications'],
    accountScoped: true,
    accountRole: member,
    querystring: NotificationsQuery,
    response: { 200: List(Notification), ...errors },
  }),
  getNotification: defineRoute({
    method: 'GET',
    path: '/notifications/v1/notifications/{id}',
    summary: 'Read one of my notifications',
    tags: ['notifications'],
    accountScoped: true,
    accountRole: member,
    params: UuidParams,
    response: { 200: Entity(Notification), ...errors },
  }),
  updateNotification: defineRoute({
    method: 'PATCH',
    path: '/notifications/v1/notifications/{id}',
    summary: 'Mark one of my notifications read or unread',
    tags: ['notifications'],
    accountScoped: true,
    accountRole: member,
    params: UuidParams,
    body: UpdateNotificationBody,
    response: { 200: Entity(Notification), ...errors },
  }),
  archiveNotification: defineRoute({
    method: 'POST',
    path: '/notifications/v1/notifications/{id}/archive',
    summary: 'Archive one of my notifications: it leaves the inbox and the unread count',
    tags: ['notifications'],
    accountScoped: true,
    accountRole: member,
    params: UuidParams,
    response: { 204: Type.Null(), ...errors },
  }),
  restoreNotification: defineRoute({
    method: 'POST',
    path: '/notifications/v1/notifications/{id}/restore',
    summary: 'Move one of my archived notifications back to the inbox (and, if unread, the unread count)',
    tags: ['notifications'],
    accountScoped: true,
    accountRole: member,
    params: UuidParams,
    response: { 204: Type.Null(), ...errors },
  }),
  markAllNotificationsRead: defineRoute({
    method: 'POST',
    path: '/notifications/v1/notifications/read-all',
    summary: 'Mark all my notifications in the account read',
    tags: ['notifications'],
    accountScoped: true,
    accountRole: member,
    response: { 200: Entity(NotificationsChanged), ...errors },
  }),
  getUnreadCount: defineRoute({
    method: 'GET',
    path: '/notifications/v1/unread-count',
    summary: 'How many of my notifications in the account are unread',
    tags: ['notifications'],
    accountScoped: true,
    accountRole: member,
    response: { 200: Entity(UnreadCount), ...errors },
  }),
  getNotificationPreferences: defineRoute({
    method: 'GET',
    path: '/notifications/v1/preferences',
    summary: 'Which notification types also reach me by email',
    tags: ['notifications'],
    response: { 200: Entity(NotificationPreferences), 400: ErrorBody, 401: ErrorBody },
  }),
  updateNotificationPreferences: defineRoute({
    method: 'PUT',
    path: '/notifications/v1/preferences',
    summary: 'Choose which notification types also reach me by email',
    tags: ['notifications'],
    body: UpdateNotificationPreferencesBody,
    response: { 200: Entity(NotificationPreferences), 400: ErrorBody, 401: ErrorBody, 422: ErrorBody },
  }),
};
