import crypto from 'node:crypto';
import { TERMS_VERSION, type AccountRole, type InvitationStatus, type Language } from '@portal/contract';
import type { Db, Queryable } from './client.ts';
import { DEMO_ACCOUNTS, DEMO_USERS } from './demo-users.ts';
import { writeAudit } from '../audit/audit.ts';
import { loadConfig, type BillingConfig } from '../config.ts';
import { seedDemoBilling } from './seed-billing.ts';
import { seedDemoLessons } from './seed-lessons.ts';
import { createSecrets, developmentSecretsKey } from '../secrets/secrets.ts';

type DemoLogin = keyof typeof DEMO_USERS;

interface DemoAccount {
  uuid: string;
  name: string;
  country: string;
  preferredLanguage: Language;
  termsAccepted: boolean;
  /** Days until the scheduled deletion, if one is scheduled. */
  deletionInDays?: number;
  createdDaysAgo: number;
  members: { login: DemoLogin; role: AccountRole; invitation?: InvitationStatus }[];
  /** The company profile beyond name and country (address, tax number, contact), with a logo. */
  company?: DemoCompany;
  /** Invitations to people without a demo login, sent this many days ago (older than 7 days: expired). */
  invitations?: { email: string; role: AccountRole; sentDaysAgo: number }[];
}

interface DemoCompany {
  street: string;
  postcode: string;
  city: string;
  uid: string;
  billingEmail: string;
  phone: string;
  website: string;
  logoSvg: string;
}

/** A small logo drawn in code: a red rounded square with a white "M". */
const MUSTER_LOGO = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">
  <rect width="160" height="160" rx="28" fill="#c8102e"/>
  <path d="M36 120V40h18l26 38 26-38h18v80h-18V70l-26 37-26-37v50z" fill="#ffffff"/>
</svg>
`;

/** The demo accounts, each with its members and the state a demo shows (terms, a scheduled deletion). */
export const DEMO_ACCOUNT_DATA: DemoAccount[] = [
  {
    uuid: DEMO_ACCOUNTS.muster,
    name: 'Muster AG',
    country: 'CH',
    preferredLanguage: 'de',
    termsAccepted: true,
    createdDaysAgo: 400,
    members: [
      { login: 'owner', role: 'OWNER' },
      { login: 'admin', role: 'ADMIN' },
      { login: 'employee', role: 'EMPLOYEE' },
      { login: 'coach', role: 'DC' },
      { login: 'unverified', role: 'EMPLOYEE' },
    ],
    company: {
      street: 'Bahnhofstrasse 10',
      postcode: '8001',
      city: 'Zürich',
      // A made-up UID with a valid check digit.
      uid: 'CHE-123.456.788',
      billingEmail: 'buchhaltung@example.com',
      phone: '+41 44 123 45 67',
      website: 'https://www.example.com',
      logoSvg: MUSTER_LOGO,
    },
    invitations: [
      { email: 'lea.lehmann@example.com', role: 'EMPLOYEE', sentDaysAgo: 2 },
      { email: 'marco.meier@example.com', role: 'ADMIN', sentDaysAgo: 12 },
    ],
  },
  {
    uuid: DEMO_ACCOUNTS.beispiel,
    name: 'Beispiel GmbH',
    country: 'DE',
    preferredLanguage: 'de',
    termsAccepted: true,
    deletionInDays: 20,
    createdDaysAgo: 200,
    members: [
      { login: 'inhaber', role: 'OWNER' },
      { login: 'owner', role: 'EMPLOYEE' },
      { login: 'employee', role: 'EMPLOYEE', invitation: 'PENDING' },
      { login: 'coach', role: 'DC' },
    ],
  },
  {
    uuid: DEMO_ACCOUNTS.neu,
    name: 'Neu Sàrl',
    country: 'CH',
    preferredLanguage: 'fr',
    termsAccepted: false,
    createdDaysAgo: 2,
    members: [{ login: 'newowner', role: 'OWNER' }],
  },
];

/** Serialises seeding when several instances start at once. */
const SEED_LOCK = 727_002;

async function seedUsers(tx: Queryable): Promise<Map<DemoLogin, string>> {
  const ids = new Map<DemoLogin, string>();
  for (const [login, user] of Object.entries(DEMO_USERS) as [DemoLogin, (typeof DEMO_USERS)[DemoLogin]][]) {
    await tx.query(
      `insert into users (uuid, subject, email, name, user_role, language, email_verified, created_at)
       values ($1::uuid, $1::text, $2, $3, $4, $5, $6, now() - interval '400 days') on conflict do nothing`,
      [user.id, user.email, user.name, user.userRole, user.language, user.emailVerified],
    );
    // The user may have been provisioned from a token before the seed ran: use whatever row holds the subject.
    const { rows } = await tx.query<{ uuid: string }>('select uuid from users where subject = $1', [user.id]);
    ids.set(login, rows[0]!.uuid);
  }
  return ids;
}

async function seedAccount(tx: Queryable, account: DemoAccount, ids: Map<DemoLogin, string>) {
  const owner = ids.get(account.members.find((m) => m.role === 'OWNER')!.login)!;
  const created = await tx.query(
    `insert into accounts (uuid, name, country, preferred_language, available_until, created_by, created_at)
     values ($1, $2, $3, $4, case when $5::int is null then null else now() + make_interval(days => $5::int) end, $6,
             now() - make_interval(days => $7))
     on conflict do nothing returning uuid`,
    [
      account.uuid,
      account.name,
      account.country,
      account.preferredLanguage,
      account.deletionInDays ?? null,
      owner,
      account.createdDaysAgo,
    ],
  );
  // An existing account is left as the demo users changed it (accepted terms, cancelled deletion…).
  if (!created.rows.length) return;
  const at = (daysAgo: number) => `now() - make_interval(days => ${daysAgo})`;
  await writeAudit(tx, {
    accountUuid: account.uuid,
    actor: { uuid: owner },
    action: 'account.create',
    target: `account:${account.uuid}`,
    after: { name: account.name, country: account.country, preferredLanguage: account.preferredLanguage },
  });
  for (const [i, member] of account.members.entries()) {
    const status = member.invitation ?? 'ACCEPTED';
    const userUuid = ids.get(member.login)!;
    if (status === 'PENDING') {
      await seedInvitation(tx, account.uuid, owner, {
        email: DEMO_USERS[member.login].email,
        role: member.role,
        // Still open: sent a day ago.
        sentDaysAgo: 1,
      });
      continue;
    }
    await tx.query(
      `insert into account_members (account_uuid, user_uuid, role, invitation_status, invited_by, invited_at, accepted_at)
       values ($1, $2, $3, $4, $5, ${at(account.createdDaysAgo - i)},
               case when $4 = 'ACCEPTED' then ${at(account.createdDaysAgo - i)} end)
       on conflict do nothing`,
      [account.uuid, userUuid, member.role, status, member.role === 'OWNER' ? null : owner],
    );
    if (member.role !== 'OWNER') {
      await writeAudit(tx, {
        accountUuid: account.uuid,
        actor: { uuid: owner },
        action: 'member.invite',
        target: `user:${userUuid}`,
        after: { email: DEMO_USERS[member.login].email, role: member.role, invitationStatus: status },
      });
    }
  }
  for (const invitation of account.invitations ?? [])
    await seedInvitation(tx, account.uuid, owner, invitation);
  if (account.termsAccepted) {
    for (const kind of ['agb', 'privacy']) {
      await tx.query(
        `insert into terms_acceptances (account_uuid, kind, version, accepted_by) values ($1, $2, $3, $4)
         on conflict do nothing`,
        [account.uuid, kind, TERMS_VERSION, owner],
      );
      await writeAudit(tx, {
        accountUuid: account.uuid,
        actor: { uuid: owner },
        action: 'account.terms.accept',
        target: `terms:${kind}`,
        after: { kind, version: TERMS_VERSION },
      });
    }
  }
  if (account.company) await seedCompany(tx, account.uuid, owner, account.company);
  if (account.deletionInDays !== undefined) {
    await writeAudit(tx, {
      accountUuid: account.uuid,
      actor: { uuid: owner },
      action: 'account.deletion.schedule',
      target: `account:${account.uuid}`,
      before: { availableUntil: null },
      after: { inDays: account.deletionInDays },
    });
  }
}

async function seedCompany(tx: Queryable, accountUuid: string, owner: string, company: DemoCompany) {
  const logo = Buffer.from(company.logoSvg, 'utf8');
  const fileUuid = crypto.randomUUID();
  await tx.query(
    `insert into files (uuid, account_uuid, purpose, content_type, size, sha256, file_name, content, created_by)
     values ($1, $2, 'company-logo', 'image/svg+xml', $3, $4, 'logo.svg', $5, $6)`,
    [fileUuid, accountUuid, logo.length, crypto.createHash('sha256').update(logo).digest('hex'), logo, owner],
  );
  const { logoSvg: _, ...fields } = company;
  await tx.query(
    `insert into company_profiles (account_uuid, street, postcode, city, uid, billing_email, phone, website, logo_file_uuid)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      accountUuid,
      fields.street,
      fields.postcode,
      fields.city,
      fields.uid,
      fields.billingEmail,
      fields.phone,
      fields.website,
      fileUuid,
    ],
  );
  await writeAudit(tx, {
    accountUuid,
    actor: { uuid: owner },
    action: 'company.update',
    target: `account:${accountUuid}`,
    after: fields,
  });
}

/**
 * An open invitation (expired when sent more than 7 days ago). Its link token is unknown, as if the mail went
 * elsewhere: the demo user answers it from the accounts list, an admin can resend it.
 */
async function seedInvitation(
  tx: Queryable,
  accountUuid: string,
  owner: string,
  invitation: { email: string; role: AccountRole; sentDaysAgo: number },
) {
  const sent = `now() - make_interval(days => ${invitation.sentDaysAgo})`;
  const { rows } = await tx.query<{ uuid: string }>(
    `insert into invitations (uuid, account_uuid, email, role, token_hash, expires_at, invited_by, invited_at, sent_at)
     values (gen_random_uuid(), $1, $2, $3, md5(gen_random_uuid()::text) || md5(gen_random_uuid()::text),
             ${sent} + interval '7 days', $4, ${sent}, ${sent})
     on conflict do nothing returning uuid`,
    [accountUuid, invitation.email, invitation.role, owner],
  );
  if (!rows[0]) return;
  await writeAudit(tx, {
    accountUuid,
    actor: { uuid: owner },
    action: 'member.invite',
    target: `invitation:${rows[0].uuid}`,
    after: { email: invitation.email, role: invitation.role, invitationStatus: 'PENDING' },
  });
}

/**
 * Demo logins, accounts, memberships, history, subscriptions and invoices (issued with the billing settings given,
 * the product's defaults otherwise); running it again changes nothing.
 */
export async function seedDemoData(db: Db, billing: BillingConfig = loadConfig({}).billing): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK]);
    const ids = await seedUsers(tx);
    for (const account of DEMO_ACCOUNT_DATA) await seedAccount(tx, account, ids);
    await seedDemoLog(tx, ids);
    await seedDemoNotifications(tx, ids);
    await seedDemoTickets(tx, ids);
    await seedDemoBilling(db, tx, billing);
    await seedDemoAbaclik(tx, ids);
    await seedDemoLessons(tx, ids.get('owner')!, DEMO_ACCOUNTS.muster);
    await seedDemoShop(tx);
  });
}

/**
 * Muster AG's online shop, configured and synchronised yesterday: 128 products, 342 orders, 87 customers. Its
 * address does not exist, so it syncs only when asked (interval MANUAL). The key is sealed with the development
 * key, which a demo start without SECRETS_KEYS uses; elsewhere the page asks for the key again.
 */
async function seedDemoShop(tx: Queryable) {
  const uuid = '6f1c2b1e-0019-4000-8000-000000000001';
  const { rowCount } = await tx.query(
    `insert into shop_connections (uuid, account_uuid, url, api_key_sealed, api_key_last_four, sync_products,
                                   sync_orders, sync_customers, sync_interval, enabled, updated_at,
                                   last_sync_status, last_sync_started_at, last_sync_finished_at, last_sync_counts)
     values ($1, $2, 'https://shop.muster-ag.example', $3, '7421', true, true, true, 'MANUAL', true,
             now() - interval '12 days', 'OK', now() - interval '1 day 2 minutes', now() - interval '1 day',
             '{"products": 128, "orders": 342, "customers": 87}')
     on conflict (account_uuid) do nothing`,
    [
      uuid,
      DEMO_ACCOUNTS.muster,
      createSecrets([developmentSecretsKey()]).seal('demo-shop-key-7421', `shop_connections:${uuid}`),
    ],
  );
  if (!rowCount) return;
  const synced = "now() - interval '1 day'";
  await tx.query(
    `insert into shop_records (account_uuid, kind, shop_id, data, synced_at)
     select $1::uuid, 'PRODUCTS', 'P-' || n, jsonb_build_object('id', 'P-' || n, 'name', 'Artikel ' || n,
            'price', 490 + n * 125), ${synced} from generate_series(1001, 1128) n
     union all
     select $1::uuid, 'ORDERS', 'O-' || n, jsonb_build_object('id', 'O-' || n, 'total', 2450 + (n * 37) % 9000),
            ${synced} from generate_series(20001, 20342) n
     union all
     select $1::uuid, 'CUSTOMERS', 'C-' || n, jsonb_build_object('id', 'C-' || n), ${synced}
       from generate_series(501, 587) n`,
    [DEMO_ACCOUNTS.muster],
  );
}

/**
 * Notifications of the demo users, read and unread, so the inbox and its badge look alive: answers to Muster AG's
 * invitations for its owner and admins, a role change, Beispiel GmbH's planned deletion for its members, and the
 * pending invitation to Beispiel GmbH (personal). Written once, with the first seed (the owner's first
 * notification tells a later run that they exist).
 */
async function seedDemoNotifications(tx: Queryable, ids: Map<DemoLogin, string>) {
  const id = (login: DemoLogin) => ids.get(login)!;
  const marker = await tx.query('select 1 from notifications where user_uuid = $1 limit 1', [id('owner')]);
  if (marker.rows.length) return;
  const muster = DEMO_ACCOUNTS.muster;
  const beispiel = DEMO_ACCOUNTS.beispiel;
  const deletion = await tx.query<{ available_until: Date | null }>(
    'select available_until from accounts where uuid = $1',
    [beispiel],
  );
  const availableUntil = (deletion.rows[0]?.available_until ?? new Date()).toISOString();
  const olivia = DEMO_USERS.owner.name;
  const isabelle = DEMO_USERS.inhaber.name;
  // [recipient, account (null: personal), type, parameters, hours ago, read]
  const items: [DemoLogin, string | null, string, Record<string, unknown>, number, boolean][] = [
    ['owner', muster, 'invitation.declined', { email: 'jana.jung@example.com', role: 'EMPLOYEE' }, 5, false],
    [
      'owner',
      beispiel,
      'account.deletion_scheduled',
      { accountName: 'Beispiel GmbH', availableUntil, scheduledBy: isabelle },
      20,
      false,
    ],
    [
      'owner',
      muster,
      'invitation.accepted',
      { email: DEMO_USERS.unverified.email, name: DEMO_USERS.unverified.name, role: 'EMPLOYEE' },
      50,
      false,
    ],
    [
      'owner',
      muster,
      'invitation.accepted',
      { email: DEMO_USERS.coach.email, name: DEMO_USERS.coach.name, role: 'DC' },
      240,
      true,
    ],
    [
      'owner',
      muster,
      'invitation.accepted',
      { email: DEMO_USERS.employee.email, name: DEMO_USERS.employee.name, role: 'EMPLOYEE' },
      600,
      true,
    ],
    [
      'owner',
      muster,
      'invitation.accepted',
      { email: DEMO_USERS.admin.email, name: DEMO_USERS.admin.name, role: 'EMPLOYEE' },
      900,
      true,
    ],
    ['admin', muster, 'invitation.declined', { email: 'jana.jung@example.com', role: 'EMPLOYEE' }, 5, false],
    [
      'admin',
      muster,
      'member.role_changed',
      { accountName: 'Muster AG', role: 'ADMIN', previousRole: 'EMPLOYEE', changedBy: olivia },
      880,
      true,
    ],
    ['coach', muster, 'invitation.declined', { email: 'jana.jung@example.com', role: 'EMPLOYEE' }, 5, true],
    [
      'owner',
      null,
      'member.removed',
      { accountName: 'Treuhand Alt AG', removedBy: 'Karl Keller' },
      100,
      false,
    ],
    [
      'employee',
      null,
      'invitation.received',
      { accountName: 'Beispiel GmbH', invitedBy: isabelle, role: 'EMPLOYEE' },
      30,
      false,
    ],
    [
      'inhaber',
      beispiel,
      'account.deletion_scheduled',
      { accountName: 'Beispiel GmbH', availableUntil, scheduledBy: isabelle },
      20,
      true,
    ],
    [
      'coach',
      beispiel,
      'account.deletion_scheduled',
      { accountName: 'Beispiel GmbH', availableUntil, scheduledBy: isabelle },
      20,
      false,
    ],
  ];
  // Fixed ids in the order listed (the owner's first one is …0006-…0001), so docs and tests can link to them;
  // written oldest first, so the creation order (the inbox's tiebreak and the live stream's ids) follows the times.
  const numbered = items.map((item, index) => ({
    item,
    uuid: `6f1c2b1e-0006-4000-8000-${String(index + 1).padStart(12, '0')}`,
  }));
  for (const { item, uuid } of numbered.sort((a, b) => b.item[4] - a.item[4])) {
    const [login, account, type, params, hoursAgo, read] = item;
    await tx.query(
      `insert into notifications (uuid, account_uuid, user_uuid, type, params, created_at, read_at)
       values ($1, $2, $3, $4, $5, now() - make_interval(hours => $6),
               case when $7 then now() - make_interval(hours => $6) + interval '1 hour' end)`,
      [uuid, account, id(login), type, JSON.stringify(params), hoursAgo, read],
    );
  }
}

/** A demo ticket: who opened it, its state, and its conversation (minutes ago, oldest first). */
interface DemoTicket {
  uuid: string;
  createdBy: DemoLogin;
  category: string;
  severity: string;
  subject: string;
  status: 'OPEN' | 'WAITING_FOR_CUSTOMER';
  consent: boolean;
  messages: { by: DemoLogin; agent?: boolean; minutesAgo: number; body: string; file?: [string, string] }[];
}

const DEMO_TICKETS: DemoTicket[] = [
  {
    uuid: '6f1c2b1e-0005-4000-8000-000000000001',
    createdBy: 'employee',
    category: 'BILLING',
    severity: 'NORMAL',
    subject: 'Rechnung März doppelt belastet',
    status: 'WAITING_FOR_CUSTOMER',
    consent: false,
    messages: [
      {
        by: 'employee',
        minutesAgo: 3 * 24 * 60,
        body: "Guten Tag\n\nUnsere Kreditkarte wurde für die Rechnung vom März zweimal mit CHF 1'234.50 belastet. Können Sie eine Belastung zurückerstatten?\n\nFreundliche Grüsse\nEmma Employee",
      },
      {
        by: 'agent',
        agent: true,
        minutesAgo: 2 * 24 * 60,
        body: 'Guten Tag Frau Employee\n\nDanke für Ihre Meldung. Damit wir die Zahlungen zuordnen können: Senden Sie uns bitte die letzten vier Ziffern der Karte und das Datum der zweiten Belastung.\n\nFreundliche Grüsse\nAaron Agent',
      },
    ],
  },
  {
    uuid: '6f1c2b1e-0005-4000-8000-000000000002',
    createdBy: 'admin',
    category: 'TECHNICAL',
    severity: 'HIGH',
    subject: 'CSV-Export des Protokolls bricht ab',
    status: 'OPEN',
    consent: true,
    messages: [
      {
        by: 'admin',
        minutesAgo: 26 * 60,
        body: 'Der CSV-Export des Protokolls bricht nach etwa einer Minute ab. Die Browser-Konsole zeigt den angehängten Fehler.',
        file: ['konsole.txt', 'GET /api/accounts/…/logs/v1/entries.csv net::ERR_HTTP2_PROTOCOL_ERROR 200\n'],
      },
      {
        by: 'agent',
        agent: true,
        minutesAgo: 20 * 60,
        body: 'Danke, wir können den Abbruch nachstellen und prüfen ihn. Sie haben uns den Zugriff auf Ihr Konto erlaubt; wir melden uns, sobald wir mehr wissen.',
      },
      {
        by: 'admin',
        minutesAgo: 90,
        body: 'Gibt es schon Neuigkeiten? Wir brauchen den Export für die Revision am Freitag.',
      },
    ],
  },
];

/** Two tickets of Muster AG with a short conversation with the demo agent; written once (fixed uuids). */
async function seedDemoTickets(tx: Queryable, ids: Map<DemoLogin, string>) {
  const account = DEMO_ACCOUNTS.muster;
  for (const ticket of DEMO_TICKETS) {
    const exists = await tx.query('select 1 from support_tickets where uuid = $1', [ticket.uuid]);
    if (exists.rows.length) continue;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const first = ticket.messages[0]!;
    const last = ticket.messages.at(-1)!;
    const inserted = await tx.query<{ number: string }>(
      `insert into support_tickets (uuid, account_uuid, created_by, category, severity, subject, status,
                                    staff_access_consent, assignee_uuid, created_at, updated_at, awaiting_agent_since)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning number::text`,
      [
        ticket.uuid,
        account,
        ids.get(ticket.createdBy),
        ticket.category,
        ticket.severity,
        ticket.subject,
        ticket.status,
        ticket.consent,
        ids.get('agent'),
        at(first.minutesAgo),
        at(last.minutesAgo),
        last.agent ? null : at(last.minutesAgo),
      ],
    );
    for (const message of ticket.messages) {
      const { rows } = await tx.query<{ id: string }>(
        `insert into support_messages (ticket_uuid, author_uuid, author_kind, body, created_at)
         values ($1, $2, $3, $4, $5) returning id`,
        [
          ticket.uuid,
          ids.get(message.by),
          message.agent ? 'AGENT' : 'CUSTOMER',
          message.body,
          at(message.minutesAgo),
        ],
      );
      if (!message.file) continue;
      const [fileName, text] = message.file;
      const content = Buffer.from(text, 'utf8');
      const fileUuid = crypto.randomUUID();
      await tx.query(
        `insert into files (uuid, account_uuid, purpose, content_type, size, sha256, file_name, content, created_by, created_at)
         values ($1, $2, 'support-attachment', 'text/plain', $3, $4, $5, $6, $7, $8)`,
        [
          fileUuid,
          account,
          content.length,
          crypto.createHash('sha256').update(content).digest('hex'),
          fileName,
          content,
          ids.get(message.by),
          at(message.minutesAgo),
        ],
      );
      await tx.query(
        'insert into support_attachments (file_uuid, message_id, ticket_uuid) values ($1, $2, $3)',
        [fileUuid, rows[0]!.id, ticket.uuid],
      );
    }
    // The creator heard of the agent's last answer: unread while the ticket waits for them.
    const answer = ticket.messages.findLast((message) => message.agent);
    if (answer) {
      const waiting = ticket.status === 'WAITING_FOR_CUSTOMER';
      const params = {
        ticketUuid: ticket.uuid,
        ticketNumber: Number(inserted.rows[0]!.number),
        subject: ticket.subject,
      };
      await tx.query(
        `insert into notifications (account_uuid, user_uuid, type, params, created_at, read_at)
         values ($1, $2, $3, $4, $5, case when $6 then null else $5::timestamptz end)`,
        [
          account,
          ids.get(ticket.createdBy),
          waiting ? 'ticket.waiting_for_customer' : 'ticket.answered',
          JSON.stringify(params),
          at(answer.minutesAgo),
          waiting,
        ],
      );
    }
  }
}

/** Browsers and addresses the demo log's entries come from. */
const DEMO_CLIENTS = [
  {
    address: '203.0.113.24',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  },
  {
    address: '198.51.100.7',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:133.0) Gecko/20100101 Firefox/133.0',
  },
  {
    address: '2001:db8:4a1::17',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  },
  {
    address: '192.0.2.88',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
  },
];

/**
 * A few hundred log entries for Muster AG over the last ten months, so the log page looks alive: changes by the
 * owner and the admin, members' own answers, and support staff opening the account. Written once, with the
 * account's first seed (their client addresses tell a later run that they exist); deterministic, no randomness.
 */
async function seedDemoLog(tx: Queryable, ids: Map<DemoLogin, string>) {
  const account = DEMO_ACCOUNTS.muster;
  // The marker: an entry from a demo client's address (documentation ranges; nothing else writes them).
  const marker = await tx.query(
    'select 1 from audit_log where account_uuid = $1 and client_address = $2 limit 1',
    [account, DEMO_CLIENTS[0]!.address],
  );
  if (marker.rows.length) return;
  const id = (login: DemoLogin) => ids.get(login)!;
  const user = (login: DemoLogin) => `user:${id(login)}`;
  type Entry = [DemoLogin, string, string, unknown, unknown];
  const kinds: ((n: number) => Entry)[] = [
    (n) => [
      'admin',
      'company.update',
      `account:${account}`,
      { phone: `+41 44 555 0${n % 90}` },
      { phone: `+41 44 555 0${(n + 1) % 90}` },
    ],
    (n) => [
      'owner',
      'account.update',
      `account:${account}`,
      { preferredLanguage: n % 2 ? 'de' : 'fr' },
      { preferredLanguage: n % 2 ? 'fr' : 'de' },
    ],
    (n) => [
      'admin',
      'member.role.change',
      user('employee'),
      { role: n % 2 ? 'ADMIN' : 'EMPLOYEE' },
      { role: n % 2 ? 'EMPLOYEE' : 'ADMIN' },
    ],
    () => ['agent', 'support.access', 'GET /api/accounts/v1/accounts/:id', null, null],
    (n) => [
      'admin',
      'member.invite',
      `user:${id('unverified')}`,
      null,
      { email: `new.colleague${n}@example.com`, role: 'EMPLOYEE' },
    ],
    () => [
      'employee',
      'invitation.accept',
      user('employee'),
      { invitationStatus: 'PENDING' },
      { invitationStatus: 'ACCEPTED' },
    ],
    (n) => [
      'coach',
      'company.update',
      `account:${account}`,
      { street: `Bahnhofstrasse ${n % 40}` },
      { street: `Bahnhofstrasse ${(n % 40) + 1}` },
    ],
    () => ['owner', 'member.role.change', user('coach'), { role: 'EMPLOYEE' }, { role: 'DC' }],
    (n) => [
      'admin',
      'invitation.resend',
      `user:${id('unverified')}`,
      null,
      { email: DEMO_USERS.unverified.email, resent: n % 3 },
    ],
    () => [
      'owner',
      'account.terms.accept',
      `account:${account}`,
      null,
      { kind: 'agb', version: TERMS_VERSION },
    ],
  ];
  const count = 320;
  for (let n = 0; n < count; n += 1) {
    const [login, action, target, before, after] = kinds[(n * 7 + (n >> 3)) % kinds.length]!(n);
    const client = DEMO_CLIENTS[(n * 3 + (login === 'agent' ? 1 : 0)) % DEMO_CLIENTS.length]!;
    // Spread over 300 days, later entries closer together.
    const minutesAgo = Math.round(((count - n) / count) ** 1.3 * 300 * 24 * 60) + (n % 11) * 37;
    await tx.query(
      `insert into audit_log (account_uuid, actor_uuid, client_address, user_agent, action, target, before, after, created_at)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, now() - make_interval(mins => $9::int))`,
      [
        account,
        id(login),
        client.address,
        client.userAgent,
        action,
        target,
        before === null ? null : JSON.stringify(before),
        after === null ? null : JSON.stringify(after),
        minutesAgo,
      ],
    );
  }
}

/**
 * Paired AbaClik phones of Muster AG's members, seen recently, so the devices page looks alive: fixed uuids, tokens
 * nobody holds (random hashes), and "last seen" renewed at each start.
 */
async function seedDemoAbaclik(tx: Queryable, ids: Map<DemoLogin, string>) {
  // [uuid suffix, member, device name, platform, app version, days since pairing, minutes since last seen]
  const devices: [string, DemoLogin, string, string, string, number, number][] = [
    ['01', 'owner', 'iPhone 15 Pro von Olivia', 'IOS', '3.4.1', 120, 12],
    ['02', 'admin', 'Pixel 8', 'ANDROID', '3.4.0', 45, 95],
    ['03', 'employee', 'Galaxy A54', 'ANDROID', '3.3.2', 20, 1_440 * 2],
    ['04', 'employee', 'iPad Werkstatt', 'IOS', '3.4.1', 3, 30],
  ];
  for (const [suffix, login, name, platform, version, days, minutes] of devices) {
    await tx.query(
      `insert into abaclik_devices (uuid, account_uuid, user_uuid, name, platform, app_version, token_hash,
                                    paired_at, last_seen_at)
       values ($1, $2, $3, $4, $5, $6, $7, now() - make_interval(days => $8::int),
               now() - make_interval(mins => $9::int))
       on conflict (uuid) do update set last_seen_at = excluded.last_seen_at`,
      [
        `6f1c2b1e-0020-4000-8000-0000000000${suffix}`,
        DEMO_ACCOUNTS.muster,
        ids.get(login)!,
        name,
        platform,
        version,
        crypto.randomBytes(32).toString('hex'),
        days,
        minutes,
      ],
    );
  }
}
