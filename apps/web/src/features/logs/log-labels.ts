import type { TFunction } from 'i18next';
import type { LogEntry } from '@portal/contract';

/**
 * The one table of action labels: each action key the server writes → its message key under `logs.actions` (in
 * all four locales). An area that writes a new action adds a line here and its text; an action missing here is
 * still shown, readably, from its key.
 */
export const LOG_ACTION_LABELS = {
  'account.create': 'account_create',
  'account.update': 'account_update',
  'account.delete': 'account_delete',
  'account.deletion.schedule': 'account_deletion_schedule',
  'account.deletion.cancel': 'account_deletion_cancel',
  'account.migration.begin': 'account_migration_begin',
  'account.terms.accept': 'account_terms_accept',
  'company.update': 'company_update',
  'company.logo.upload': 'company_logo_upload',
  'company.logo.remove': 'company_logo_remove',
  'company.two_factor_policy': 'company_two_factor_policy',
  'shop.save': 'shop_save',
  'shop.disconnect': 'shop_disconnect',
  'member.invite': 'member_invite',
  'member.role.change': 'member_role_change',
  'member.remove': 'member_remove',
  'member.leave': 'member_leave',
  'invitation.accept': 'invitation_accept',
  'invitation.decline': 'invitation_decline',
  'invitation.resend': 'invitation_resend',
  'invitation.revoke': 'invitation_revoke',
  'ownership.transfer.start': 'ownership_transfer_start',
  'ownership.transfer.accept': 'ownership_transfer_accept',
  'ownership.transfer.decline': 'ownership_transfer_decline',
  'ownership.transfer.cancel': 'ownership_transfer_cancel',
  'support.access': 'support_access',
  'support.ticket.create': 'support_ticket_create',
  'support.ticket.reply': 'support_ticket_reply',
  'support.ticket.reopen': 'support_ticket_reopen',
  'support.ticket.close': 'support_ticket_close',
  'support.ticket.consent': 'support_ticket_consent',
  'support.consent.grant': 'support_consent_grant',
  'support.consent.end': 'support_consent_end',
  'support.agent.reply': 'support_agent_reply',
  'support.agent.note': 'support_agent_note',
  'support.agent.status': 'support_agent_status',
  'support.agent.assign': 'support_agent_assign',
  'subscription.change': 'subscription_change',
  'subscription.cancel': 'subscription_cancel',
  'subscription.resume': 'subscription_resume',
  'billing.card.setup': 'billing_card_setup',
  'billing.card.save': 'billing_card_save',
  'billing.card.remove': 'billing_card_remove',
  'billing.card.declined': 'billing_card_declined',
  'cloud.connected': 'cloud_connected',
  'cloud.disconnected': 'cloud_disconnected',
  'user.update': 'user_update',
  'abaclik.device-paired': 'abaclik_device_paired',
  'abaclik.device-revoked': 'abaclik_device_revoked',
} as const;

export type KnownLogAction = keyof typeof LOG_ACTION_LABELS;

export function isKnownAction(action: string): action is KnownLogAction {
  return Object.hasOwn(LOG_ACTION_LABELS, action);
}

/** "ownership.transfer.start" → "Ownership transfer start": the key made readable when no label exists. */
export function readableKey(key: string): string {
  const words = key
    .split(/[._-]+/)
    .filter(Boolean)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function actionLabel(t: TFunction, action: string): string {
  return isKnownAction(action) ? t(`logs.actions.${LOG_ACTION_LABELS[action]}`) : readableKey(action);
}

const TARGET = /^([a-z_]+):([0-9a-fA-F-]{36})$/;

/** What an entry acted on, for people: the user's name, "this account", or the kind and a short id. */
export function targetLabel(t: TFunction, entry: LogEntry): string {
  if (entry.targetUser) {
    const { name, email } = entry.targetUser;
    return name || email || t('logs.deletedUser');
  }
  const target = entry.target ?? '';
  const match = TARGET.exec(target);
  if (match?.[1] === 'account') return t('logs.thisAccount');
  if (match) return `${readableKey(match[1]!)} ${match[2]!.slice(0, 8)}`;
  return target;
}

/** One changed field: its name and the value before and after (absent values are undefined). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields whose value differs between before and after; values that are not objects count as one field. */
export function changedFields(before: unknown, after: unknown): FieldChange[] {
  if (before == null && after == null) return [];
  if (!isRecord(before ?? {}) || !isRecord(after ?? {})) return [{ field: '', before, after }];
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .filter((field) => JSON.stringify(b[field]) !== JSON.stringify(a[field]))
    .map((field) => ({ field, before: b[field], after: a[field] }));
}

/** A value of a change as text: strings as they are, everything else as JSON; absent as a dash. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
