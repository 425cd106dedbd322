import type { Currency, Language } from '@portal/contract';
import type { BillingConfig } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { billedTo } from '../../invoicing/invoicing.ts';
import { addDays } from '../../invoicing/money.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import { reminderMail } from './billing.mails.ts';
import { readInvoice } from './billing.service.ts';

/** How often the overdue check runs: hourly, so a new day is noticed soon after midnight in any instance. */
export const OVERDUE_CHECK_EVERY_MS = 60 * 60 * 1000;

/** Invoices handled per transaction and round; a round repeats until none is left. */
const BATCH = 200;

/** How many of the configured reminders are due for an invoice on `today`: one per reminder day reached. */
export function remindersDue(dueOn: string, today: string, reminderDays: readonly number[]): number {
  return reminderDays.filter((days) => addDays(dueOn, days) <= today).length;
}

interface DueRow {
  uuid: string;
  account_uuid: string;
  number: string;
  currency: Currency;
  total_minor: string;
  due_on: string;
}

/**
 * Open invoices whose due date has passed become OVERDUE, and the account's admins hear it once ('invoice.overdue':
 * the status change is what makes it once). Rows are claimed with SKIP LOCKED, so two instances share the work.
 */
async function markOverdue(db: Db, notifier: Notifier, today: string): Promise<number> {
  let marked = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const { rows } = await tx.query<DueRow>(
        `select uuid, account_uuid, number, currency, total_minor, due_on::text as due_on from invoices
          where status = 'OPEN' and kind = 'INVOICE' and due_on < $1::date
          order by due_on limit ${BATCH} for update skip locked`,
        [today],
      );
      for (const row of rows) {
        await tx.query(`update invoices set status = 'OVERDUE' where uuid = $1`, [row.uuid]);
        const admins = await tx.query<{ user_uuid: string }>(
          `select user_uuid from account_members
            where account_uuid = $1 and role in ('OWNER', 'ADMIN') and invitation_status = 'ACCEPTED'`,
          [row.account_uuid],
        );
        await notifier.notify(tx, {
          accountUuid: row.account_uuid,
          userUuids: admins.rows.map((admin) => admin.user_uuid),
          type: 'invoice.overdue',
          params: {
            invoiceUuid: row.uuid,
            number: row.number,
            totalMinor: Number(row.total_minor),
            currency: row.currency,
            dueOn: row.due_on,
          },
        });
      }
      return rows.length;
    });
    marked += count;
    if (count < BATCH) return marked;
  }
}

/** Who a reminder goes to: the billing recipients of the account now, in its language; none once it is gone. */
async function reminderAddressees(
  tx: Queryable,
  accountUuid: string,
): Promise<{ recipients: string[]; language: Language; name: string } | null> {
  const exists = await tx.query('select 1 from accounts where uuid = $1', [accountUuid]);
  if (!exists.rows.length) return null;
  const party = await billedTo(tx, accountUuid);
  return { recipients: party.recipients, language: party.language, name: party.name };
}

/**
 * Reminder mails for overdue invoices: when a configured number of days after the due date is reached, one mail to
 * the billing recipients (an invoice that missed several reminder days gets one mail, not several). The counter
 * `reminders_sent` and `last_reminded_on` change in the transaction that queues the mails, so a second run on the
 * same day finds nothing to send.
 */
async function sendReminders(
  db: Db,
  mailer: Mailer,
  config: Pick<BillingConfig, 'reminderDays' | 'creditor'>,
  today: string,
): Promise<number> {
  if (!config.reminderDays.length) return 0;
  let sent = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ uuid: string; account_uuid: string; reminders_due: number }>(
        `select uuid, account_uuid, reminders_due from (
           select uuid, account_uuid, due_on, reminders_sent,
                  (select count(*)::int from unnest($2::int[]) as d where due_on + d <= $1::date) as reminders_due
             from invoices
            where status = 'OVERDUE' and reminders_sent < $3
              and (last_reminded_on is null or last_reminded_on < $1::date)
         ) as due
          where reminders_due > reminders_sent
          order by due_on limit ${BATCH}`,
        [today, config.reminderDays, config.reminderDays.length],
      );
      let handled = 0;
      for (const row of rows) {
        // Claimed one by one: an instance that sent this reminder meanwhile has raised the counter.
        const claimed = await tx.query(
          `update invoices set reminders_sent = $2, last_reminded_on = $3::date
            where uuid = $1 and reminders_sent < $2`,
          [row.uuid, row.reminders_due, today],
        );
        if (!claimed.rowCount) continue;
        handled += 1;
        const to = await reminderAddressees(tx, row.account_uuid);
        const invoice = await readInvoice(tx, row.account_uuid, row.uuid);
        if (!to || !invoice) continue;
        for (const recipient of to.recipients) {
          await mailer.send(
            reminderMail({
              to: recipient,
              language: to.language,
              invoice,
              accountName: to.name,
              creditor: config.creditor,
            }),
            tx,
          );
        }
      }
      return { claimed: rows.length, handled };
    });
    sent += count.handled;
    if (count.claimed < BATCH || count.handled === 0) return sent;
  }
}

/** The daily work on unpaid invoices: mark the ones past due overdue, then send the reminders that are due. */
export async function checkOverdue(
  db: Db,
  deps: { notifier: Notifier; mailer: Mailer; config: BillingConfig },
  today: string,
): Promise<{ overdue: number; reminded: number }> {
  const overdue = await markOverdue(db, deps.notifier, today);
  const reminded = await sendReminders(db, deps.mailer, deps.config, today);
  return { overdue, reminded };
}
