import { randomUUID } from 'node:crypto';
import {
  formatInvoiceNumber,
  type Currency,
  type InvoiceKind,
  type InvoiceLine,
  type InvoiceReason,
  type Language,
  type PostalAddress,
} from '@portal/contract';
import type { BillingConfig } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { Notifier } from '../notifications/notifier.ts';
import { addDays, invoiceTotals } from './money.ts';
import { paymentReference } from './reference.ts';

declare module '../jobs/runner.ts' {
  interface JobKinds {
    /** After an invoice was issued: mail it to the billing recipients. */
    'invoicing.issued': { invoiceUuid: string };
  }
}

export interface IssueInvoiceInput {
  accountUuid: string;
  kind?: InvoiceKind;
  reason: InvoiceReason;
  /**
   * What the invoice is for, unique per account ('period:2026-11-01', 'change:<uuid>', 'void:<invoice uuid>'): an
   * issue with a key already used returns that invoice instead of issuing a second one.
   */
  sourceKey: string;
  currency: Currency;
  /** Lines with their VAT (money.ts `withVat`). */
  lines: InvoiceLine[];
  periodStart: string;
  periodEnd: string;
  issuedOn: string;
  relatedInvoiceUuid?: string | null;
}

export interface IssuedInvoice {
  uuid: string;
  number: string;
  totalMinor: number;
  /** False when the source key had issued the invoice before. */
  created: boolean;
}

/** Who an invoice is made out to, as it was when it was issued. */
export interface BilledTo {
  name: string;
  address: PostalAddress | null;
  vatNumber: string | null;
  purchaseOrder: string | null;
  recipients: string[];
  language: Language;
}

export interface Invoicing {
  readonly config: BillingConfig;
  /**
   * Issues an invoice (or credit note) inside the caller's transaction: the next number of the issue year without
   * gaps, its payment reference, totals from the lines, the billed party as it is now, the "invoice issued"
   * notification to the account's admins, and the job that mails it once the transaction commits.
   */
  issue(tx: Queryable, input: IssueInvoiceInput): Promise<IssuedInvoice>;
  /**
   * `issue` for many invoices at once (the renewal scheduler's batches): numbered in the order given, with a few
   * set-based statements instead of a round of queries per invoice; answers in the order given.
   */
  issueMany(tx: Queryable, inputs: IssueInvoiceInput[]): Promise<IssuedInvoice[]>;
  /** What the 'invoicing.issued' job does with a new invoice (the billing area mails it); idempotent. */
  onIssued(handler: (invoiceUuid: string) => Promise<void>): void;
}

/** A street line of the company profile ("Musterstrasse 12a") as street and building number. */
function splitStreet(line: string): { street: string; buildingNumber: string | null } {
  const match = /^(.*\S)\s+(\d+\s?[a-zA-Z]?)$/.exec(line.trim());
  return match
    ? { street: match[1]!, buildingNumber: match[2]! }
    : { street: line.trim(), buildingNumber: null };
}

interface BilledToRow {
  name: string;
  country: string;
  language: string;
  street: string | null;
  building_number: string | null;
  postcode: string | null;
  city: string | null;
  details_country: string | null;
  vat_number: string | null;
  recipients: string[] | null;
  purchase_order: string | null;
  profile_street: string | null;
  profile_postcode: string | null;
  profile_city: string | null;
  profile_vat: string | null;
  billing_email: string | null;
  owner_email: string | null;
}

/** The billing details when saved; otherwise the company profile's address and billing email, or the owner. */
export async function billedTo(tx: Queryable, accountUuid: string): Promise<BilledTo> {
  const party = (await billedToMany(tx, [accountUuid])).get(accountUuid);
  if (!party) throw new Error(`account ${accountUuid} not found`);
  return party;
}

/** `billedTo` of several accounts in one query, by account. */
export async function billedToMany(tx: Queryable, accountUuids: string[]): Promise<Map<string, BilledTo>> {
  const { rows } = await tx.query<BilledToRow & { uuid: string }>(
    `select a.uuid, a.name, a.country, a.preferred_language as language,
            d.street, d.building_number, d.postcode, d.city, d.country as details_country, d.vat_number,
            d.recipients, d.purchase_order,
            p.street as profile_street, p.postcode as profile_postcode, p.city as profile_city,
            coalesce(p.vat_number, p.uid) as profile_vat, p.billing_email,
            (select u.email from account_members m join users u on u.uuid = m.user_uuid
              where m.account_uuid = a.uuid and m.role = 'OWNER') as owner_email
       from accounts a
       left join billing_details d on d.account_uuid = a.uuid
       left join company_profiles p on p.account_uuid = a.uuid
      where a.uuid = any($1::uuid[])`,
    [accountUuids],
  );
  return new Map(rows.map((row) => [row.uuid, partyOf(row)]));
}

function partyOf(row: BilledToRow): BilledTo {
  const language = (['de', 'en', 'fr', 'it'].includes(row.language) ? row.language : 'de') as Language;
  if (row.street && row.postcode && row.city) {
    return {
      name: row.name,
      address: {
        street: row.street,
        buildingNumber: row.building_number,
        postcode: row.postcode,
        city: row.city,
        country: row.details_country ?? row.country,
      },
      vatNumber: row.vat_number,
      purchaseOrder: row.purchase_order,
      recipients: row.recipients ?? [],
      language,
    };
  }
  const address =
    row.profile_street && row.profile_postcode && row.profile_city
      ? {
          ...splitStreet(row.profile_street),
          postcode: row.profile_postcode,
          city: row.profile_city,
          country: row.country,
        }
      : null;
  const recipient = row.billing_email ?? row.owner_email;
  return {
    name: row.name,
    address,
    vatNumber: row.profile_vat,
    purchaseOrder: null,
    recipients: recipient ? [recipient] : [],
    language,
  };
}

export function createInvoicing(deps: {
  config: BillingConfig;
  jobs: JobRunner;
  notifier: Notifier;
}): Invoicing {
  const { config, jobs, notifier } = deps;
  let issuedHandler: ((invoiceUuid: string) => Promise<void>) | null = null;
  jobs.define('invoicing.issued', {
    handler: async ({ payload }) => {
      if (issuedHandler) await issuedHandler(payload.invoiceUuid);
    },
  });

  const invoicing: Invoicing = {
    config,
    onIssued(handler) {
      issuedHandler = handler;
    },
    async issue(tx, input) {
      return (await invoicing.issueMany(tx, [input]))[0]!;
    },
    async issueMany(tx, inputs) {
      if (inputs.length === 0) return [];
      const keyOf = (input: { accountUuid: string; sourceKey: string }) =>
        `${input.accountUuid} ${input.sourceKey}`;
      const existing = await tx.query<{
        account_uuid: string;
        source_key: string;
        uuid: string;
        number: string;
        total_minor: string;
      }>(
        `select i.account_uuid, i.source_key, i.uuid, i.number, i.total_minor
           from invoices i
           join unnest($1::uuid[], $2::text[]) as k (account_uuid, source_key)
             on i.account_uuid = k.account_uuid and i.source_key = k.source_key`,
        [inputs.map((input) => input.accountUuid), inputs.map((input) => input.sourceKey)],
      );
      const issued = new Map<string, IssuedInvoice>(
        existing.rows.map((row) => [
          keyOf({ accountUuid: row.account_uuid, sourceKey: row.source_key }),
          { uuid: row.uuid, number: row.number, totalMinor: Number(row.total_minor), created: false },
        ]),
      );
      // Each source key once: a key issued before (or twice in this call) returns its invoice.
      const fresh: IssueInvoiceInput[] = [];
      const seen = new Set(issued.keys());
      for (const input of inputs) {
        if (seen.has(keyOf(input))) continue;
        seen.add(keyOf(input));
        fresh.push(input);
      }

      // The counter row of each year is locked until this transaction ends (years in order, so two issuers never
      // wait on each other crosswise): concurrent issuers queue, a rollback gives the numbers back.
      const sequences = new Map<IssueInvoiceInput, { year: number; sequence: number }>();
      const years = [...new Set(fresh.map((input) => Number(input.issuedOn.slice(0, 4))))].sort(
        (a, b) => a - b,
      );
      for (const year of years) {
        const ofYear = fresh.filter((input) => Number(input.issuedOn.slice(0, 4)) === year);
        const counter = await tx.query<{ last_number: number }>(
          `insert into invoice_number_counters (year, last_number) values ($1, $2)
           on conflict (year) do update set last_number = invoice_number_counters.last_number + $2
           returning last_number`,
          [year, ofYear.length],
        );
        const first = counter.rows[0]!.last_number - ofYear.length + 1;
        ofYear.forEach((input, index) => sequences.set(input, { year, sequence: first + index }));
      }

      const parties = await billedToMany(tx, [...new Set(fresh.map((input) => input.accountUuid))]);
      const rows = fresh.map((input) => {
        const { year, sequence } = sequences.get(input)!;
        const party = parties.get(input.accountUuid);
        if (!party) throw new Error(`account ${input.accountUuid} not found`);
        const kind = input.kind ?? 'INVOICE';
        const totals = invoiceTotals(input.lines, input.currency);
        return {
          input,
          totals,
          record: {
            uuid: randomUUID(),
            account_uuid: input.accountUuid,
            number: formatInvoiceNumber(year, sequence),
            year,
            sequence,
            kind,
            reason: input.reason,
            status: kind === 'CREDIT_NOTE' ? 'PAID' : 'OPEN',
            currency: input.currency,
            issued_on: input.issuedOn,
            due_on: addDays(input.issuedOn, kind === 'CREDIT_NOTE' ? 0 : config.paymentTermDays),
            period_start: input.periodStart,
            period_end: input.periodEnd,
            lines: input.lines,
            totals,
            net_minor: totals.netMinor,
            vat_minor: totals.vatMinor,
            total_minor: totals.totalMinor,
            reference: paymentReference(config.creditor.iban, year, sequence),
            billed_to: party,
            related_invoice_uuid: input.relatedInvoiceUuid ?? null,
            source_key: input.sourceKey,
          },
        };
      });
      if (rows.length) {
        await tx.query(
          `insert into invoices (uuid, account_uuid, number, year, sequence, kind, reason, status, currency, issued_on,
             due_on, period_start, period_end, lines, totals, net_minor, vat_minor, total_minor, reference, billed_to,
             related_invoice_uuid, source_key)
           select * from jsonb_to_recordset($1::jsonb) as r (uuid uuid, account_uuid uuid, number text, year integer,
             sequence integer, kind text, reason text, status text, currency text, issued_on date, due_on date,
             period_start date, period_end date, lines jsonb, totals jsonb, net_minor bigint, vat_minor bigint,
             total_minor bigint, reference text, billed_to jsonb, related_invoice_uuid uuid, source_key text)`,
          [JSON.stringify(rows.map((row) => row.record))],
        );
      }
      const admins = await tx.query<{ account_uuid: string; user_uuid: string }>(
        `select account_uuid, user_uuid from account_members
          where account_uuid = any($1::uuid[]) and role in ('OWNER', 'ADMIN') and invitation_status = 'ACCEPTED'`,
        [[...parties.keys()]],
      );
      const adminsOf = new Map<string, string[]>();
      for (const row of admins.rows)
        adminsOf.set(row.account_uuid, [...(adminsOf.get(row.account_uuid) ?? []), row.user_uuid]);
      await notifier.notifyMany(
        tx,
        rows.map(({ input, totals, record }) => ({
          accountUuid: input.accountUuid,
          userUuids: adminsOf.get(input.accountUuid) ?? [],
          type: 'invoice.issued' as const,
          params: {
            invoiceUuid: record.uuid,
            number: record.number,
            totalMinor: totals.totalMinor,
            currency: input.currency,
            dueOn: addDays(input.issuedOn, config.paymentTermDays),
          },
        })),
      );
      await jobs.enqueueMany(
        'invoicing.issued',
        rows.map(({ record }) => ({
          payload: { invoiceUuid: record.uuid },
          uniqueKey: `invoicing.issued:${record.uuid}`,
        })),
        { tx },
      );
      for (const { input, totals, record } of rows) {
        issued.set(keyOf(input), {
          uuid: record.uuid,
          number: record.number,
          totalMinor: totals.totalMinor,
          created: true,
        });
      }
      return inputs.map((input) => issued.get(keyOf(input))!);
    },
  };
  return invoicing;
}
