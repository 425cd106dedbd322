import { isLanguage, type Language } from '@portal/contract';
import type { Queryable } from '../../db/client.ts';
import type { ExportSources } from '../deps.ts';
import { ACCOUNT_README } from './account-export.readme.ts';
import { iso, json, safeName } from './export-format.ts';
import type { ExportEntry } from './my-data.export.ts';

/** The extension of a stored logo, by its type. */
const LOGO_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
};

/**
 * Gathers the account's data for its owner, frozen now (decision 240): the documents as JSON and references to what
 * the download writes as it streams (the logo and the tickets' attachments from the file store, every invoice's
 * PDF as its download gives it, the log as CSV up to now). What an integration keeps secret never goes along: no
 * token, key, hash or card reference, only what its settings page shows. An agent's internal notes stay with the
 * support team. Nothing of another account: every query is bound to this account.
 */
export async function gatherAccountExport(
  q: Queryable,
  sources: Pick<ExportSources, 'invoiceFileName'>,
  accountUuid: string,
  ownerUuid: string,
): Promise<{ entries: ExportEntry[]; accountName: string; language: Language }> {
  const all = async <T extends object>(sql: string, params: unknown[]) =>
    (await q.query<T>(sql, params)).rows;
  const [account] = await all<{
    name: string;
    country: string;
    preferred_language: string;
    created_at: Date;
    available_until: Date | null;
  }>('select name, country, preferred_language, created_at, available_until from accounts where uuid = $1', [
    accountUuid,
  ]);
  if (!account) throw new Error('The account is gone');
  const [owner] = await all<{ language: string }>('select language from users where uuid = $1', [ownerUuid]);
  const language: Language = isLanguage(owner?.language ?? '') ? (owner!.language as Language) : 'de';
  const accountLanguage: Language = isLanguage(account.preferred_language)
    ? account.preferred_language
    : 'de';

  // The log goes up to the database's moment of this transaction: what was written before it, nothing after.
  const [{ at: frozenAt }] = (await all<{ at: Date }>('select now() as at', [])) as [{ at: Date }];
  const files: ExportEntry[] = [];
  const [profile] = await all<Record<string, unknown> & { logo_file_uuid: string | null }>(
    `select p.street, p.postcode, p.city, p.uid, p.vat_number as "vatNumber", p.billing_email as "billingEmail",
            p.phone, p.website, p.updated_at as "updatedAt", p.logo_file_uuid, f.content_type as "logoType"
       from company_profiles p left join files f on f.uuid = p.logo_file_uuid and f.account_uuid = p.account_uuid
      where p.account_uuid = $1`,
    [accountUuid],
  );
  let logo: string | null = null;
  if (profile?.logo_file_uuid) {
    logo = `company/logo.${LOGO_EXTENSIONS[String(profile.logoType)] ?? 'bin'}`;
    files.push({ name: logo, accountUuid, fileUuid: profile.logo_file_uuid });
  }
  const [twoFactor] = await all(
    `select enabled, enabled_at as "enabledAt", grace_days as "graceDays", grace_until as "graceUntil"
       from account_two_factor_policies where account_uuid = $1`,
    [accountUuid],
  );
  // Billing details without the card's references at the payment provider (only brand and last digits are shown).
  const [billingDetails] = await all(
    `select street, building_number as "buildingNumber", postcode, city, country, vat_number as "vatNumber",
            recipients, purchase_order as "purchaseOrder", payment_method as "paymentMethod",
            card_brand as "cardBrand", card_last4 as "cardLast4", updated_at as "updatedAt"
       from billing_details where account_uuid = $1`,
    [accountUuid],
  );
  const company = {
    name: account.name,
    country: account.country,
    preferredLanguage: account.preferred_language,
    createdAt: iso(account.created_at),
    deletionScheduledFor: iso(account.available_until),
    profile: profile
      ? Object.fromEntries(
          Object.entries(profile).filter(([key]) => key !== 'logo_file_uuid' && key !== 'logoType'),
        )
      : null,
    logo,
    twoFactorRule: twoFactor ?? null,
    billingDetails: billingDetails ?? null,
  };

  const members = await all(
    `select u.name, u.email, m.role, m.invitation_status as "invitationStatus", m.invited_at as "invitedAt",
            m.accepted_at as "acceptedAt", u.last_sign_in_at as "lastSignInAt"
       from account_members m join users u on u.uuid = m.user_uuid
      where m.account_uuid = $1 and u.deleted_at is null order by lower(u.name), lower(u.email)`,
    [accountUuid],
  );
  const invitations = await all(
    `select i.email, i.role, i.note, i.status, i.invited_at as "invitedAt", i.expires_at as "expiresAt",
            i.answered_at as "answeredAt", inviter.name as "invitedBy"
       from invitations i left join users inviter on inviter.uuid = i.invited_by
      where i.account_uuid = $1 order by i.invited_at`,
    [accountUuid],
  );
  const [subscription] = await all(
    `select plan_code as "planCode", billing_period as "billingPeriod", currency, seats, status,
            trial_ends_on::text as "trialEndsOn", current_period_start::text as "currentPeriodStart",
            current_period_end::text as "currentPeriodEnd", cancel_at_period_end as "cancelAtPeriodEnd",
            cancel_reason as "cancelReason", cancel_comment as "cancelComment",
            pending_plan_code as "pendingPlanCode", pending_billing_period as "pendingBillingPeriod",
            pending_seats as "pendingSeats", created_at as "createdAt"
       from subscriptions where account_uuid = $1`,
    [accountUuid],
  );

  const invoiceRows = await all<{
    uuid: string;
    number: string;
    kind: 'INVOICE' | 'CREDIT_NOTE';
    [key: string]: unknown;
  }>(
    `select uuid, number, kind, reason, status, currency, issued_on::text as "issuedOn", due_on::text as "dueOn",
            period_start::text as "periodStart", period_end::text as "periodEnd", lines, totals,
            net_minor as "netMinor", vat_minor as "vatMinor", total_minor as "totalMinor", paid_minor as "paidMinor",
            reference, billed_to as "billedTo", paid_at as "paidAt", voided_at as "voidedAt",
            void_reason as "voidReason"
       from invoices where account_uuid = $1 order by issued_on, sequence`,
    [accountUuid],
  );
  const invoices = invoiceRows.map(({ uuid, ...invoice }) => {
    const name = `invoices/${sources.invoiceFileName(invoice, accountLanguage)}`;
    files.push({ name, invoiceUuid: uuid });
    return {
      ...invoice,
      netMinor: Number(invoice.netMinor),
      vatMinor: Number(invoice.vatMinor),
      totalMinor: Number(invoice.totalMinor),
      paidMinor: Number(invoice.paidMinor),
      pdf: name,
    };
  });
  const payments = (
    await all<{ amountMinor: string | number }>(
      `select i.number as "invoiceNumber", p.booked_on::text as "bookedOn", p.amount_minor as "amountMinor",
              i.currency, p.source, p.note, p.created_at as "createdAt"
         from invoice_payments p join invoices i on i.uuid = p.invoice_uuid
        where p.account_uuid = $1 and i.account_uuid = $1 order by p.booked_on, p.created_at`,
      [accountUuid],
    )
  ).map((payment) => ({ ...payment, amountMinor: Number(payment.amountMinor) }));

  // Tickets with the messages the customer side sees (an agent's internal notes stay with the support team).
  const tickets = await all<{ uuid: string; number: string | number }>(
    `select t.uuid, t.number, t.subject, t.category, t.severity, t.status,
            t.staff_access_consent as "staffAccessConsent", creator.name as "createdBy",
            t.created_at as "createdAt", t.solved_at as "solvedAt"
       from support_tickets t left join users creator on creator.uuid = t.created_by
      where t.account_uuid = $1 order by t.number`,
    [accountUuid],
  );
  const messageRows = await all<{
    id: string;
    uuid: string;
    ticket_uuid: string;
    number: string;
    author: string | null;
    author_kind: string;
    body: string;
    created_at: Date;
  }>(
    `select m.id, m.uuid, m.ticket_uuid, t.number, author.name as author, m.author_kind, m.body, m.created_at
       from support_messages m join support_tickets t on t.uuid = m.ticket_uuid
       left join users author on author.uuid = m.author_uuid
      where t.account_uuid = $1 and not m.internal order by m.id`,
    [accountUuid],
  );
  const attachmentRows = await all<{ message_id: string; file_uuid: string; file_name: string }>(
    `select a.message_id, f.uuid as file_uuid, f.file_name
       from support_attachments a join support_messages m on m.id = a.message_id
       join support_tickets t on t.uuid = m.ticket_uuid join files f on f.uuid = a.file_uuid
      where t.account_uuid = $1 and f.account_uuid = $1 and not m.internal order by a.message_id, a.position`,
    [accountUuid],
  );
  const attachmentsOf = new Map<string, typeof attachmentRows>();
  for (const row of attachmentRows) {
    const key = String(row.message_id);
    attachmentsOf.set(key, [...(attachmentsOf.get(key) ?? []), row]);
  }
  const messagesOf = new Map<string, unknown[]>();
  for (const message of messageRows) {
    const attachments = (attachmentsOf.get(String(message.id)) ?? []).map((row, index) => {
      const name = `tickets/${message.number}/${message.uuid.slice(0, 8)}-${index + 1}-${safeName(row.file_name)}`;
      files.push({ name, accountUuid, fileUuid: row.file_uuid });
      return name;
    });
    messagesOf.set(message.ticket_uuid, [
      ...(messagesOf.get(message.ticket_uuid) ?? []),
      {
        // A deleted person's messages stay without a name (decision 232).
        author: message.author || null,
        fromSupport: message.author_kind === 'AGENT',
        body: message.body,
        createdAt: iso(message.created_at),
        attachments,
      },
    ]);
  }
  const ticketDocument = tickets.map(({ uuid, ...ticket }) => ({
    ...ticket,
    number: Number(ticket.number),
    messages: messagesOf.get(uuid) ?? [],
  }));

  // Integrations: what their settings pages show, never a token, key or device token.
  const [deepcloud] = await all(
    `select c.status, c.cloud_name as "cloudName", c.cloud_email as "cloudEmail", c.scopes,
            u.name as "connectedBy", c.connected_at as "connectedAt", c.refreshed_at as "refreshedAt"
       from cloud_connections c left join users u on u.uuid = c.connected_by where c.account_uuid = $1`,
    [accountUuid],
  );
  const [peppershop] = await all(
    `select url, sync_products as "syncProducts", sync_orders as "syncOrders", sync_customers as "syncCustomers",
            sync_interval as "syncInterval", enabled, updated_at as "updatedAt",
            last_sync_status as "lastSyncStatus", last_sync_finished_at as "lastSyncFinishedAt",
            last_sync_counts as "lastSyncCounts"
       from shop_connections where account_uuid = $1`,
    [accountUuid],
  );
  const abaclikDevices = await all(
    `select d.name, d.platform, d.app_version as "appVersion", u.name as "person", d.paired_at as "pairedAt",
            d.last_seen_at as "lastSeenAt"
       from abaclik_devices d join users u on u.uuid = d.user_uuid
      where d.account_uuid = $1 order by d.paired_at`,
    [accountUuid],
  );
  const integrations = {
    deepcloud: deepcloud ?? null,
    peppershop: peppershop ?? null,
    abaclik: { devices: abaclikDevices },
  };

  const entries: ExportEntry[] = [
    { name: 'README.txt', text: ACCOUNT_README[language](account.name, new Date(frozenAt)) },
    { name: 'company.json', text: json(company) },
    { name: 'members.json', text: json(members) },
    { name: 'invitations.json', text: json(invitations) },
    { name: 'subscription.json', text: json(subscription ?? null) },
    { name: 'invoices.json', text: json(invoices) },
    { name: 'payments.json', text: json(payments) },
    { name: 'tickets.json', text: json(ticketDocument) },
    { name: 'integrations.json', text: json(integrations) },
    { name: 'log.csv', log: { to: frozenAt.toISOString(), language } },
    ...files,
  ];
  return { entries, accountName: account.name, language };
}
