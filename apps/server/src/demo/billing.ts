import crypto from 'node:crypto';
import type { BillingPeriod, Currency, InvoiceLine } from '@portal/contract';
import type { BillingConfig } from '../config.ts';
import { createInvoicing, type Invoicing } from '../invoicing/invoicing.ts';
import { addDays, addMonthsOnAnchor, prorate, todayIn, withVat, type NetLine } from '../invoicing/money.ts';
import { findPlan } from '../invoicing/plans.ts';
import { startTrial } from '../invoicing/subscription-start.ts';
import { JobRunner } from '../jobs/runner.ts';
import { createNotifier } from '../notifications/notifier.ts';
import type { Db, Queryable } from '../db/client.ts';
import { DEMO_ACCOUNTS } from './users.ts';

// Demo subscriptions and invoices: Muster AG pays Professional yearly (two paid years, one open invoice for seats
// added this month), Beispiel GmbH pays Standard monthly in euros and is past due, Neu Sàrl is trying the product.
// Invoices are issued through the invoicing code the product uses (numbers, references, totals and billed party
// are real); their dates lie in the past, relative to the day the seed runs.

interface DemoSubscription {
  accountUuid: string;
  planCode: string;
  period: BillingPeriod;
  currency: Currency;
  seats: number;
}

const demoSubscription = (
  accountUuid: string,
  planCode: string,
  period: BillingPeriod,
  currency: Currency,
  seats: number,
): DemoSubscription => ({ accountUuid, planCode, period, currency, seats });

/** Muster AG's billing address (the demo's tests and the authorization matrix send it back unchanged). */
export const DEMO_BILLING_ADDRESS = {
  street: 'Bahnhofstrasse',
  buildingNumber: '10',
  postcode: '8001',
  city: 'Zürich',
  country: 'CH',
};

/** The first day of the month `months` before the month of `day`. */
const monthStart = (day: string, months: number) => addMonthsOnAnchor(`${day.slice(0, 8)}01`, -months, 1);

/**
 * The lines of one period of a plan: the plan, and the seats above the included ones; or, for seats added during
 * the period, only those seats for the rest of it.
 */
function periodLines(
  config: BillingConfig,
  subscription: DemoSubscription,
  start: string,
  end: string,
  added?: { on: string; seats: number },
): InvoiceLine[] {
  const plan = findPlan(config.plans, subscription.planCode)!;
  const price = plan.prices[subscription.currency];
  const yearly = subscription.period === 'YEARLY';
  const base = {
    planCode: plan.code,
    billingPeriod: subscription.period,
    periodStart: added?.on ?? start,
    periodEnd: end,
    prorated: added !== undefined,
  };
  const lines: NetLine[] = [];
  if (!added) {
    const unit = yearly ? price.yearlyMinor : price.monthlyMinor;
    lines.push({ ...base, kind: 'PLAN', quantity: 1, unitMinor: unit, netMinor: unit });
  }
  const extra = added ? added.seats : subscription.seats - plan.includedSeats;
  if (extra > 0) {
    const unit = yearly ? price.seatYearlyMinor : price.seatMonthlyMinor;
    const net = added ? prorate(unit * extra, start, end, added.on) : unit * extra;
    lines.push({ ...base, kind: 'SEATS', quantity: extra, unitMinor: unit, netMinor: net });
  }
  return lines.flatMap((line) => withVat(line, config.vatRates));
}

async function insertSubscription(
  tx: Queryable,
  subscription: DemoSubscription,
  fields: { status: 'TRIALING' | 'ACTIVE'; start: string; end: string; trialEndsOn: string | null },
) {
  await tx.query(
    `insert into subscriptions (account_uuid, plan_code, billing_period, currency, seats, status, trial_ends_on,
       current_period_start, current_period_end, billing_anchor_day)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      subscription.accountUuid,
      subscription.planCode,
      subscription.period,
      subscription.currency,
      subscription.seats,
      fields.status,
      fields.trialEndsOn,
      fields.start,
      fields.end,
      Number(fields.start.slice(8, 10)),
    ],
  );
}

/** The invoice of the period that starts on `start`, issued that day. */
function issuePeriod(tx: Queryable, invoicing: Invoicing, subscription: DemoSubscription, start: string) {
  const periodEnd = addMonthsOnAnchor(start, subscription.period === 'YEARLY' ? 12 : 1, 1);
  return invoicing.issue(tx, {
    accountUuid: subscription.accountUuid,
    reason: 'PERIOD',
    sourceKey: `period:${start}`,
    currency: subscription.currency,
    lines: periodLines(invoicing.config, subscription, start, periodEnd),
    periodStart: start,
    periodEnd,
    issuedOn: start,
  });
}

/** Books the payment of an invoice in full, as a bank file would have, `days` after it was issued. */
async function payInFull(tx: Queryable, invoiceUuid: string, accountUuid: string, bookedOn: string) {
  const { rows } = await tx.query<{ total_minor: string }>(
    `update invoices set status = 'PAID', paid_minor = total_minor, paid_at = $2::date + time '10:00'
      where uuid = $1 returning total_minor`,
    [invoiceUuid, bookedOn],
  );
  await tx.query(
    `insert into invoice_payments (uuid, invoice_uuid, account_uuid, booked_on, amount_minor, source)
     values ($1, $2, $3, $4, $5, 'CAMT')`,
    [crypto.randomUUID(), invoiceUuid, accountUuid, bookedOn, rows[0]!.total_minor],
  );
}

/**
 * What issuing queued and wrote for an invoice of the past: its mail went out back then (the job is dropped, the
 * invoice is marked mailed on its issue day), and the admins' "invoice issued" notification is left out, so the
 * demo inboxes keep the notifications other journeys count on.
 */
async function backdate(tx: Queryable, invoiceUuid: string, issuedOn: string) {
  await tx.query('delete from jobs where unique_key = $1', [`invoicing.issued:${invoiceUuid}`]);
  await tx.query(`update invoices set mailed_at = $2::date + time '06:00' where uuid = $1`, [
    invoiceUuid,
    issuedOn,
  ]);
  await tx.query(`delete from notifications where type = 'invoice.issued' and params->>'invoiceUuid' = $1`, [
    invoiceUuid,
  ]);
}

/** An invoice to issue, on its day: the seed issues them in date order, so the numbers follow the dates. */
interface PlannedIssue {
  issuedOn: string;
  issue: () => Promise<void>;
}

function seedMuster(tx: Queryable, invoicing: Invoicing, today: string): PlannedIssue[] {
  const planned: PlannedIssue[] = [];
  const config = invoicing.config;
  const subscription = demoSubscription(DEMO_ACCOUNTS.muster, 'PROFESSIONAL', 'YEARLY', 'CHF', 20);
  const current = monthStart(today, 0);
  const end = addMonthsOnAnchor(current, 12, 1);
  // Two years paid: the year before this one and the year that started this month.
  for (const start of [addMonthsOnAnchor(current, -12, 1), current]) {
    planned.push({
      issuedOn: start,
      issue: async () => {
        // Two seats fewer then: two were added this month.
        const issued = await issuePeriod(tx, invoicing, { ...subscription, seats: 18 }, start);
        const paidOn = addDays(start, 9) < today ? addDays(start, 9) : today;
        await payInFull(tx, issued.uuid, subscription.accountUuid, paidOn);
        await backdate(tx, issued.uuid, start);
      },
    });
  }
  // Two seats added a few days ago: the rest of the year's seats, prorated, still open.
  const changedOn = addDays(today, -3) > current ? addDays(today, -3) : current;
  planned.push({
    issuedOn: changedOn,
    issue: async () => {
      const change = await invoicing.issue(tx, {
        accountUuid: subscription.accountUuid,
        reason: 'CHANGE',
        sourceKey: 'change:6f1c2b1e-0013-4000-8000-000000000001',
        currency: subscription.currency,
        lines: periodLines(config, subscription, current, end, { on: changedOn, seats: 2 }),
        periodStart: changedOn,
        periodEnd: end,
        issuedOn: changedOn,
      });
      await backdate(tx, change.uuid, changedOn);
    },
  });
  planned.push({
    issuedOn: today,
    issue: () =>
      insertSubscription(tx, subscription, { status: 'ACTIVE', start: current, end, trialEndsOn: null }),
  });
  return planned;
}

async function musterDetails(tx: Queryable) {
  await tx.query(
    `insert into billing_details (account_uuid, street, building_number, postcode, city, country, vat_number,
       recipients, purchase_order, payment_method, updated_at)
     values ($1, $2, $3, $4, $5, $6, 'CHE-123.456.788 MWST', $7::jsonb, 'PO-2026-0042', 'INVOICE',
             now() - interval '390 days')
     on conflict do nothing`,
    [
      DEMO_ACCOUNTS.muster,
      ...Object.values(DEMO_BILLING_ADDRESS),
      JSON.stringify(['buchhaltung@example.com', 'owner@example.com']),
    ],
  );
}

function seedBeispiel(tx: Queryable, invoicing: Invoicing, today: string): PlannedIssue[] {
  const config = invoicing.config;
  const subscription = demoSubscription(DEMO_ACCOUNTS.beispiel, 'STANDARD', 'MONTHLY', 'EUR', 5);
  /** Months of invoices before this one. */
  const monthsBack = 5;
  const bannerBefore = addDays(today, -config.pastDueBannerDays);
  const starts = Array.from({ length: monthsBack + 1 }, (_, i) => monthStart(today, monthsBack - i));
  // The latest invoice due long enough ago to show the past-due banner is unpaid, and so is every later one.
  const unpaidFrom = starts.findLast((start) => addDays(start, config.paymentTermDays) < bannerBefore)!;
  const planned = starts.map((start) => ({ issuedOn: start, issue: () => issueMonth(start) }));
  const issueMonth = async (start: string) => {
    const issued = await issuePeriod(tx, invoicing, subscription, start);
    const dueOn = addDays(start, config.paymentTermDays);
    await backdate(tx, issued.uuid, start);
    if (start < unpaidFrom) {
      await payInFull(tx, issued.uuid, subscription.accountUuid, addDays(start, 12));
      return;
    }
    if (dueOn >= today) return;
    // Past due: overdue since the day after its due date, with the reminders that were due sent on their days.
    const reminders = config.reminderDays.filter((days) => addDays(dueOn, days) <= today);
    await tx.query(
      `update invoices set status = 'OVERDUE', reminders_sent = $2, last_reminded_on = $3 where uuid = $1`,
      [issued.uuid, reminders.length, reminders.length ? addDays(dueOn, reminders.at(-1)!) : null],
    );
    const admins = await tx.query<{ user_uuid: string }>(
      `select user_uuid from account_members
        where account_uuid = $1 and role in ('OWNER', 'ADMIN') and invitation_status = 'ACCEPTED'`,
      [subscription.accountUuid],
    );
    for (const admin of admins.rows) {
      await tx.query(
        `insert into notifications (account_uuid, user_uuid, type, params, created_at)
         values ($1, $2, 'invoice.overdue', $3, $4::date + time '06:00')`,
        [
          subscription.accountUuid,
          admin.user_uuid,
          JSON.stringify({
            invoiceUuid: issued.uuid,
            number: issued.number,
            totalMinor: issued.totalMinor,
            currency: subscription.currency,
            dueOn,
          }),
          addDays(dueOn, 1),
        ],
      );
    }
  };
  const current = starts.at(-1)!;
  planned.push({
    issuedOn: today,
    issue: () =>
      insertSubscription(tx, subscription, {
        status: 'ACTIVE',
        start: current,
        end: addMonthsOnAnchor(current, 1, 1),
        trialEndsOn: null,
      }),
  });
  return planned;
}

/** Neu Sàrl's trial began when the account was made (two days ago), as every new account's does. */
async function seedNeu(tx: Queryable, config: BillingConfig) {
  const { rows } = await tx.query<{ created_on: string }>(
    `select (created_at at time zone $2)::date::text as created_on from accounts where uuid = $1`,
    [DEMO_ACCOUNTS.neu, config.timeZone],
  );
  await startTrial(tx, config.plans, DEMO_ACCOUNTS.neu, rows[0]!.created_on);
}

/**
 * Subscriptions, invoices, payments and billing details of the demo accounts, written once: an account that has a
 * subscription already is left as the demo users changed it.
 */
export async function seedDemoBilling(db: Db, tx: Queryable, config: BillingConfig): Promise<void> {
  // Issuing queues its mail job and notifies in the seed's transaction; nothing runs these jobs here.
  const jobs = new JobRunner(db);
  const invoicing = createInvoicing({ config, jobs, notifier: createNotifier() });
  const today = todayIn(config.timeZone);
  const seeded = await tx.query<{ account_uuid: string }>('select account_uuid from subscriptions');
  const has = new Set(seeded.rows.map((row) => row.account_uuid));
  // Muster AG saved its billing details before its first invoice: every invoice is made out to them.
  if (!has.has(DEMO_ACCOUNTS.muster)) await musterDetails(tx);
  const planned = [
    ...(has.has(DEMO_ACCOUNTS.muster) ? [] : seedMuster(tx, invoicing, today)),
    ...(has.has(DEMO_ACCOUNTS.beispiel) ? [] : seedBeispiel(tx, invoicing, today)),
  ];
  // Stable: the same day keeps the order above.
  for (const step of planned.sort((a, b) => a.issuedOn.localeCompare(b.issuedOn))) await step.issue();
  if (!has.has(DEMO_ACCOUNTS.neu)) await seedNeu(tx, config);
}
