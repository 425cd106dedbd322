// Test data for support: tickets inserted directly, staff users of each role, and the customer's consent that
// lets support staff open an account.
import crypto from 'node:crypto';
import type { TicketStatus, UserRole } from '@portal/contract';
import type { TestApi } from './api.ts';

export interface TestTicket {
  account: string;
  /** The customer who opened it (a user uuid). */
  createdBy: string;
  subject?: string;
  status?: TicketStatus;
  category?: string;
  severity?: string;
  consent?: boolean;
  assignee?: string | null;
  /** How long the customer has waited for an agent, in hours; null: nobody waits. */
  waitingHours?: number | null;
  body?: string;
}

/** Inserts a ticket with the customer's first message; its uuid and number. */
export async function insertTestTicket(
  api: TestApi,
  t: TestTicket,
): Promise<{ uuid: string; number: number; subject: string }> {
  const subject = t.subject ?? `Ticket ${crypto.randomUUID().slice(0, 8)}`;
  const { rows } = await api.db.query<{ uuid: string; number: string }>(
    `insert into support_tickets (account_uuid, created_by, category, severity, subject, status,
       staff_access_consent, assignee_uuid, awaiting_agent_since)
     values ($1, $2, $3, $4, $5, $6, $7, $8,
       case when $9::int is null then null else now() - make_interval(hours => $9::int) end)
     returning uuid, number`,
    [
      t.account,
      t.createdBy,
      t.category ?? 'TECHNICAL',
      t.severity ?? 'NORMAL',
      subject,
      t.status ?? 'OPEN',
      t.consent ?? false,
      t.assignee ?? null,
      t.waitingHours === undefined ? 1 : t.waitingHours,
    ],
  );
  await api.db.query(
    `insert into support_messages (ticket_uuid, author_uuid, author_kind, body) values ($1, $2, 'CUSTOMER', $3)`,
    [rows[0]!.uuid, t.createdBy, t.body ?? 'Please help.'],
  );
  return { uuid: rows[0]!.uuid, number: Number(rows[0]!.number), subject };
}

/** The customer allows support staff in: an open ticket of the account with the consent on. */
export async function allowStaff(api: TestApi, account: string, createdBy: string): Promise<string> {
  return (await insertTestTicket(api, { account, createdBy, consent: true })).uuid;
}

/** A new user with this user role, and the token identity to sign in as them. */
export async function staffUser(
  api: TestApi,
  role: UserRole,
): Promise<{ uuid: string; as: { sub: string; email: string; name: string } }> {
  const uuid = crypto.randomUUID();
  const as = {
    sub: uuid,
    email: `${role.toLowerCase()}-${uuid.slice(0, 8)}@example.org`,
    name: `${role} ${uuid.slice(0, 4)}`,
  };
  await api.db.query(
    `insert into users (uuid, subject, email, name, user_role, email_verified) values ($1, $2, $3, $4, $5, true)`,
    [uuid, as.sub, as.email, as.name, role],
  );
  return { uuid, as };
}

/** Attaches a small text file to the ticket's first message; the file's uuid. */
export async function insertTestAttachment(api: TestApi, ticketUuid: string): Promise<string> {
  const uuid = crypto.randomUUID();
  const content = Buffer.from('log line\n');
  await api.db.query(
    `insert into files (uuid, account_uuid, purpose, content_type, size, sha256, file_name, content)
     select $1, account_uuid, 'support-attachment', 'text/plain', $2, $3, 'log.txt', $4
       from support_tickets where uuid = $5`,
    [uuid, content.length, crypto.createHash('sha256').update(content).digest('hex'), content, ticketUuid],
  );
  await api.db.query(
    `insert into support_attachments (file_uuid, message_id, ticket_uuid)
     select $1, min(id), $2 from support_messages where ticket_uuid = $2`,
    [uuid, ticketUuid],
  );
  return uuid;
}

// The start of a Windows executable: "MZ", then the PE header offset and signature file-type looks for.
export const EXE = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.alloc(58),
  Buffer.from([0x40, 0, 0, 0]),
  Buffer.from('PE\0\0'),
]);

/** An attachment as a message's body sends it: its name and its bytes in base64. */
export const uploadOf = (fileName: string, content: Buffer | string) => ({
  fileName,
  content: Buffer.from(content).toString('base64'),
});
