import { DATA_EXPORT_DAYS } from '@portal/contract';
import { ConfigError, type Env } from './parse.ts';

/**
 * What the portal keeps how long: the one table (README, "Aufbewahrung / Retention"; decision 242). Each entry is
 * a number of days, counted from the instant named beside it; the hourly retention job (jobs/retention.ts) removes
 * what is older, in small batches. Every entry can be set by its variable.
 */
export interface RetentionConfig {
  /** AUDIT_RETENTION_DAYS (400, at least 30): an account's log entries, from when they were written. */
  auditLogDays: number;
  /** RETENTION_SIGN_INS_DAYS (90): the sign-in history, from the attempt (the page shows 90 days). */
  signInsDays: number;
  /** RETENTION_NOTIFICATIONS_DAYS (180): inbox entries, read or not, from when they arrived. */
  notificationsDays: number;
  /** RETENTION_OUTBOX_DAYS (30): mails kept in the outbox (no SMTP_URL, /dev/mail), from when they were written. */
  outboxDays: number;
  /** RETENTION_EXPORTS_DAYS (8): a person's data exports, from the request (the download is offered 7 days). */
  exportsDays: number;
  /**
   * RETENTION_DELETED_PERSONS_DAYS (30): the emptied user row of a deleted login, from the deletion, once nothing
   * the accounts keep (log entries, support messages and tickets, accepted terms) points at it any more.
   */
  deletedPersonsDays: number;
  /** RETENTION_FAILED_JOBS_DAYS (30): jobs that ran out of attempts, from their last attempt. */
  failedJobsDays: number;
}

export const RETENTION_DEFAULTS: RetentionConfig = {
  auditLogDays: 400,
  signInsDays: 90,
  notificationsDays: 180,
  outboxDays: 30,
  exportsDays: 8,
  deletedPersonsDays: 30,
  failedJobsDays: 30,
};

/** The database refuses to purge log entries younger than 30 days whatever is set (decision 097). */
const AUDIT_LOG_FLOOR = 30;

function daysOf(env: Env, name: string, fallback: number, least: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < least || value > 3650) {
    throw new ConfigError(name, `must be a whole number of days from ${least} to 3650 (got "${raw}")`);
  }
  return value;
}

export function retentionConfig(env: Env): RetentionConfig {
  const d = RETENTION_DEFAULTS;
  return {
    auditLogDays: daysOf(env, 'AUDIT_RETENTION_DAYS', d.auditLogDays, AUDIT_LOG_FLOOR),
    signInsDays: daysOf(env, 'RETENTION_SIGN_INS_DAYS', d.signInsDays, 1),
    notificationsDays: daysOf(env, 'RETENTION_NOTIFICATIONS_DAYS', d.notificationsDays, 1),
    outboxDays: daysOf(env, 'RETENTION_OUTBOX_DAYS', d.outboxDays, 1),
    // The download is offered DATA_EXPORT_DAYS (7): an export cannot go before.
    exportsDays: daysOf(env, 'RETENTION_EXPORTS_DAYS', d.exportsDays, DATA_EXPORT_DAYS),
    deletedPersonsDays: daysOf(env, 'RETENTION_DELETED_PERSONS_DAYS', d.deletedPersonsDays, 1),
    failedJobsDays: daysOf(env, 'RETENTION_FAILED_JOBS_DAYS', d.failedJobsDays, 1),
  };
}
