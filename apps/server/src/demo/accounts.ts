import crypto from 'node:crypto';
import { TERMS_VERSION, type AccountRole, type InvitationStatus, type Language } from '@portal/contract';
import { writeAudit } from '../audit/audit.ts';
import type { Queryable } from '../db/client.ts';
import { DEMO_ACCOUNT_NAMES, DEMO_ACCOUNTS, DEMO_USERS, type DemoLogin } from './users.ts';

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

/** A day in milliseconds. */
const DAY = 86_400_000;

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
    name: DEMO_ACCOUNT_NAMES.muster,
    country: 'CH',
    preferredLanguage: 'de',
    termsAccepted: true,
    // Before its first invoice (demo/billing.ts: the yearly period that began 12 months before this month's first,
    // at most 396 days ago), inside the log's retention of 400 days, so "Konto erstellt" is its oldest entry.
    createdDaysAgo: 398,
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
    name: DEMO_ACCOUNT_NAMES.beispiel,
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
    name: DEMO_ACCOUNT_NAMES.neu,
    country: 'CH',
    preferredLanguage: 'fr',
    termsAccepted: false,
    createdDaysAgo: 2,
    members: [{ login: 'newowner', role: 'OWNER' }],
  },
];

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
  // The history is dated as it happened: the account's creation first, then its members, terms and company, so
  // "Konto erstellt" is the log's oldest entry (issue 23 item 12); a scheduled deletion 30 days before its date.
  const dated = (daysAgo: number, minutes = 0) => new Date(Date.now() - daysAgo * DAY + minutes * 60_000);
  await writeAudit(tx, {
    createdAt: dated(account.createdDaysAgo),
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
        createdAt: dated(account.createdDaysAgo - i, -1),
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
        createdAt: dated(account.createdDaysAgo, 2),
        accountUuid: account.uuid,
        actor: { uuid: owner },
        action: 'account.terms.accept',
        target: `terms:${kind}`,
        after: { kind, version: TERMS_VERSION },
      });
    }
  }
  if (account.company)
    await seedCompany(tx, account.uuid, owner, account.company, dated(account.createdDaysAgo, 5));
  if (account.deletionInDays !== undefined) {
    await writeAudit(tx, {
      createdAt: dated(30 - account.deletionInDays),
      accountUuid: account.uuid,
      actor: { uuid: owner },
      action: 'account.deletion.schedule',
      target: `account:${account.uuid}`,
      before: { availableUntil: null },
      after: { inDays: account.deletionInDays },
    });
  }
}

async function seedCompany(
  tx: Queryable,
  accountUuid: string,
  owner: string,
  company: DemoCompany,
  createdAt: Date,
) {
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
    createdAt,
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
    createdAt: new Date(Date.now() - invitation.sentDaysAgo * DAY),
    accountUuid,
    actor: { uuid: owner },
    action: 'member.invite',
    target: `invitation:${rows[0].uuid}`,
    after: { email: invitation.email, role: invitation.role, invitationStatus: 'PENDING' },
  });
}

/**
 * The demo logins' portal users and the demo accounts with their members, invitations, terms and company profile;
 * answers each login's user id (a user provisioned from a token before the seed keeps its row).
 */
export async function seedDemoAccounts(tx: Queryable): Promise<Map<DemoLogin, string>> {
  const ids = await seedUsers(tx);
  for (const account of DEMO_ACCOUNT_DATA) await seedAccount(tx, account, ids);
  return ids;
}
