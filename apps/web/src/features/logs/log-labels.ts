import { ACCOUNT_ROLES, hasLevel, type AccountRole, type Language, type LogEntry } from '@portal/contract';
import { LOG_ACTION_TEXTS, logActionText, logSubjectText, readableLogKey } from '@portal/contract/log-texts';
import { href } from '@/app/href.ts';

// The log's words come from the contract's one table (log-texts.ts), which the server's search and CSV export read
// too: what the table shows is what the search finds and the file says (decision 211).

/** Every action key the log knows, for the action filter. */
export const LOG_ACTIONS = Object.keys(LOG_ACTION_TEXTS);

/** "ownership.transfer.start" → "Ownership transfer start": the key made readable when no text exists. */
export const readableKey = readableLogKey;

/** An action as the log shows it. */
export function actionLabel(language: Language, action: string): string {
  return logActionText(action, language);
}

/** What an entry acted on, as people know it: the person, "Rechnung 2026-0012", "Allgemeine Geschäftsbedingungen"… */
export function targetLabel(language: Language, entry: LogEntry): string {
  return logSubjectText(entry.subject, language);
}

/** The page an entry's subject has, when the reader (with `role` in the account) may open it; else undefined. */
export function targetLink(entry: LogEntry, role: AccountRole): string | undefined {
  const { kind, id } = entry.subject;
  const admin = hasLevel(ACCOUNT_ROLES, role, 'ADMIN');
  switch (kind) {
    case 'person':
      return admin && id && entry.subject.name
        ? href('settings-user-management-form', { uuid: id })
        : undefined;
    case 'invoice':
      return admin && id ? href('billing', undefined, { invoice: id }) : undefined;
    case 'ticket':
      return id && entry.subject.ref ? href('support-ticket-detail', { ticketUuid: id }) : undefined;
    case 'subscription':
      return admin ? href('subscriptions') : undefined;
    case 'logo':
      return admin ? href('settings-company-profile') : undefined;
    case 'shop':
      return admin ? href('peppershop-config') : undefined;
    case 'cloud':
      return id && entry.subject.name ? href('deepcloud-connection', { uuid: id }) : undefined;
    case 'invitation':
      return admin ? href('settings-user-management') : undefined;
    default:
      return undefined;
  }
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
