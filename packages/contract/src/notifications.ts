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
  /** To the account's owner: a new version of the terms or privacy policy waits for acceptance. */
  'terms.to_accept': { kind: string; version: string };
  /** To the ticket's creator (never carries internal notes). */
  'ticket.answered': { ticketUuid: string; ticketNumber: number; subject: string };
  'ticket.waiting_for_customer': { ticketUuid: string; ticketNumber: number; subject: string };
  'ticket.solved': { ticketUuid: string; ticketNumber: number; subject: string };
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
  'terms.to_accept',
  'ticket.answered',
  'ticket.waiting_for_customer',
  'ticket.solved',
] as const satisfies readonly NotificationType[];

/** Types that also send an email unless the user switched it off; the others only when switched on. */
export const NOTIFICATION_EMAIL_DEFAULTS: readonly NotificationType[] = [
  'invitation.received',
  'ownership.transfer_requested',
  'ownership.transfer_accepted',
  'ownership.transfer_cancelled',
  'ticket.answered',
  'ticket.waiting_for_customer',
];
