import type { Queryable } from './client.ts';

/**
 * The log's purge door (decision 097): its trigger refuses every DELETE except in a transaction that set
 * `portal.audit_purge_before` locally (it ends with the transaction), and even then only entries older than that
 * instant and older than 30 days. Only the retention job's rule for the log (jobs/retention.ts) opens it, in each
 * batch's transaction, with the cut-off of the configured retention (AUDIT_RETENTION_DAYS); only this file names
 * the setting.
 */
export async function allowAuditPurge(tx: Queryable, cutoff: string): Promise<void> {
  await tx.query(`select set_config('portal.audit_purge_before', $1, true)`, [cutoff]);
}
