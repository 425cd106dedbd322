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
  const { rows } = await tx.query<BilledToRow>(
    `select a.name, a.country, a.preferred_language as language,
            d.street, d.building_number, d.postcode, d.city, d.country as details_country, d.vat_number,
            d.recipients, d.purchase_order,
            p.street as profile_street, p.postcode as profile_postcode, p.city as profile_city,
            coalesce(p.vat_number, p.uid) as profile_vat, p.billing_email,
            (select u.email from account_members m join users u on u.uuid = m.user_uuid
              where m.account_uuid = a.uuid and m.role = 'OWNER') as owner_email
       from accounts a
       left join billing_details d on d.account_uuid = a.uuid
       left join company_profiles p on p.account_uuid = a.uuid
      where a.uuid = $1`,
    [accountUuid],
  );
  const row = rows[0];
  if (!row) throw new Error(`account ${accountUuid} not found`);
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

  return {
    config,
    onIssued(handler) {
      issuedHandler = handler;
    },
    async issue(tx, input) {
      const existing = await tx.query<{ uuid: string; number: string; total_minor: string }>(
        'select uuid, number, total_minor from invoices where account_uuid = $1 and source_key = $2',
        [input.accountUuid, input.sourceKey],
      );
      const found = existing.rows[0];
      if (found)
        return {
          uuid: found.uuid,
          number: found.number,
          totalMinor: Number(found.total_minor),
          created: false,
        };

      const year = Number(input.issuedOn.slice(0, 4));
      // The counter row is locked until this transaction ends: concurrent issuers wait, a rollback frees the number.
      const counter = await tx.query<{ last_number: number }>(
        `insert into invoice_number_counters (year, last_number) values ($1, 1)
         on conflict (year) do update set last_number = invoice_number_counters.last_number + 1
         returning last_number`,
        [year],
      );
      const sequence = counter.rows[0]!.last_number;
      const number = formatInvoiceNumber(year, sequence);
      const totals = invoiceTotals(input.lines, input.currency);
      const party = await billedTo(tx, input.accountUuid);
      const uuid = randomUUID();
      const kind = input.kind ?? 'INVOICE';
      await tx.query(
        `insert into invoices (uuid, account_uuid, number, year, sequence, kind, reason, status, currency, issued_on,
           due_on, period_start, period_end, lines, totals, net_minor, vat_minor, total_minor, reference, billed_to,
           related_invoice_uuid, source_key)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
        [
          uuid,
          input.accountUuid,
          number,
          year,
          sequence,
          kind,
          input.reason,
          kind === 'CREDIT_NOTE' ? 'PAID' : 'OPEN',
          input.currency,
          input.issuedOn,
          addDays(input.issuedOn, kind === 'CREDIT_NOTE' ? 0 : config.paymentTermDays),
          input.periodStart,
          input.periodEnd,
          JSON.stringify(input.lines),
          JSON.stringify(totals),
          totals.netMinor,
          totals.vatMinor,
          totals.totalMinor,
          paymentReference(config.creditor.iban, year, sequence),
          JSON.stringify(party),
          input.relatedInvoiceUuid ?? null,
          input.sourceKey,
        ],
      );
      const admins = await tx.query<{ user_uuid: string }>(
        `select user_uuid from account_members
          where account_uuid = $1 and role in ('OWNER', 'ADMIN') and invitation_status = 'ACCEPTED'`,
        [input.accountUuid],
      );
      await notifier.notify(tx, {
        accountUuid: input.accountUuid,
        userUuids: admins.rows.map((row) => row.user_uuid),
        type: 'invoice.issued',
        params: {
          invoiceUuid: uuid,
          number,
          totalMinor: totals.totalMinor,
          currency: input.currency,
          dueOn: addDays(input.issuedOn, config.paymentTermDays),
        },
      });
      await jobs.enqueue(
        'invoicing.issued',
        { invoiceUuid: uuid },
        { tx, uniqueKey: `invoicing.issued:${uuid}` },
      );
      return { uuid, number, totalMinor: totals.totalMinor, created: true };
    },
  };
}
