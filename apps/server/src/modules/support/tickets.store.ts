import type {
  AttachmentType,
  SupportAttachment,
  SupportCategory,
  SupportMessage,
  SupportSeverity,
  SupportTicket,
  SupportTicketDetail,
  TicketStatus,
} from '@portal/contract';
import type { Queryable } from '../../db/client.ts';
import { iso } from '../../db/iso.ts';

// The rows of tickets, messages and attachments, and their contract shapes, for the customer's and the agents'
// side alike. Who reads decides one thing here: whether agents' internal notes are part of what is read (never
// for a customer: not the notes, not their attachments, not in the counts).

export type AuthorKind = 'CUSTOMER' | 'AGENT';

export interface TicketRow {
  uuid: string;
  number: string | number;
  account_uuid: string;
  category: SupportCategory;
  severity: SupportSeverity;
  subject: string;
  status: TicketStatus;
  staff_access_consent: boolean;
  created_by: string | null;
  creator_name: string | null;
  assignee_uuid: string | null;
  assignee_name: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  awaiting_agent_since: Date | string | null;
  solved_at: Date | string | null;
  message_count: string | number;
  last_message_at: Date | string | null;
}

const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

/**
 * The select list of a ticket (table alias `t`), with its creator and assignee names and the count and time of
 * the messages the reader may see.
 */
export function ticketColumns(includeInternal: boolean): string {
  const visible = includeInternal ? '' : ' and not m.internal';
  return `t.uuid, t.number, t.account_uuid, t.category, t.severity, t.subject, t.status, t.staff_access_consent,
          t.created_by, creator.name as creator_name, t.assignee_uuid, assignee.name as assignee_name,
          t.created_at, t.updated_at, t.awaiting_agent_since, t.solved_at,
          (select count(*) from support_messages m where m.ticket_uuid = t.uuid${visible}) as message_count,
          (select max(m.created_at) from support_messages m where m.ticket_uuid = t.uuid${visible})
            as last_message_at`;
}

/** The joins `ticketColumns` needs after `from support_tickets t`. */
export const TICKET_JOINS = `left join users creator on creator.uuid = t.created_by
       left join users assignee on assignee.uuid = t.assignee_uuid`;

export function toTicket(row: TicketRow): SupportTicket {
  return {
    uuid: row.uuid,
    number: Number(row.number),
    accountUuid: row.account_uuid,
    category: row.category,
    severity: row.severity,
    subject: row.subject,
    status: row.status,
    staffAccessConsent: row.staff_access_consent,
    createdBy: row.created_by ? { uuid: row.created_by, name: row.creator_name ?? '' } : null,
    assignee: row.assignee_uuid ? { uuid: row.assignee_uuid, name: row.assignee_name ?? '' } : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    awaitingAgentSince: isoOrNull(row.awaiting_agent_since),
    solvedAt: isoOrNull(row.solved_at),
    messageCount: Number(row.message_count),
    lastMessageAt: iso(row.last_message_at ?? row.created_at),
  };
}

export interface NewTicket {
  accountUuid: string;
  createdBy: string;
  category: SupportCategory;
  severity: SupportSeverity;
  subject: string;
  staffAccessConsent: boolean;
  /** The first message: the description. */
  body: string;
  /** Files already kept with `files.put` in the same transaction. */
  fileUuids: readonly string[];
}

/** Inserts a ticket (status OPEN, waiting for an agent) with its first message and that message's attachments. */
export async function insertTicket(
  tx: Queryable,
  input: NewTicket,
): Promise<{ uuid: string; number: number; messageUuid: string }> {
  const { rows } = await tx.query<{ uuid: string; number: string }>(
    `insert into support_tickets (account_uuid, created_by, category, severity, subject, staff_access_consent)
     values ($1, $2, $3, $4, $5, $6) returning uuid, number`,
    [
      input.accountUuid,
      input.createdBy,
      input.category,
      input.severity,
      input.subject,
      input.staffAccessConsent,
    ],
  );
  const ticket = rows[0]!;
  const message = await insertMessage(tx, {
    ticketUuid: ticket.uuid,
    authorUuid: input.createdBy,
    authorKind: 'CUSTOMER',
    internal: false,
    body: input.body,
    fileUuids: input.fileUuids,
  });
  return { uuid: ticket.uuid, number: Number(ticket.number), messageUuid: message.uuid };
}

export interface NewMessage {
  ticketUuid: string;
  authorUuid: string;
  authorKind: AuthorKind;
  /** An agents-only note (only an AGENT may write one; the table refuses the rest). */
  internal: boolean;
  body: string;
  fileUuids: readonly string[];
}

/**
 * Inserts a message with its attachments and marks the ticket as changed. Status and waiting time are the
 * caller's rule (a customer's reply and an agent's answer change them differently).
 */
export async function insertMessage(
  tx: Queryable,
  input: NewMessage,
): Promise<{ id: number; uuid: string; createdAt: string }> {
  const { rows } = await tx.query<{ id: string; uuid: string; created_at: Date }>(
    `insert into support_messages (ticket_uuid, author_uuid, author_kind, internal, body)
     values ($1, $2, $3, $4, $5) returning id, uuid, created_at`,
    [input.ticketUuid, input.authorUuid, input.authorKind, input.internal, input.body],
  );
  const message = rows[0]!;
  for (const [position, fileUuid] of input.fileUuids.entries()) {
    await tx.query(
      'insert into support_attachments (file_uuid, message_id, ticket_uuid, position) values ($1, $2, $3, $4)',
      [fileUuid, message.id, input.ticketUuid, position],
    );
  }
  await tx.query('update support_tickets set updated_at = now() where uuid = $1', [input.ticketUuid]);
  return { id: Number(message.id), uuid: message.uuid, createdAt: iso(message.created_at) };
}

export interface TicketScope {
  /** Only a ticket of this account (the customer's side); null: any account (support staff). */
  accountUuid: string | null;
  /** Whether agents' internal notes are read too; false for every customer answer. */
  includeInternal: boolean;
  /** Lock the ticket row for a change in the caller's transaction. */
  forUpdate?: boolean;
}

/** A ticket as the reader may see it, or null when there is none in the scope. */
export async function readTicket(
  q: Queryable,
  ticketUuid: string,
  scope: TicketScope,
): Promise<SupportTicket | null> {
  if (scope.forUpdate) {
    // Lock first (a locking read cannot carry the aggregates of the full select list).
    const locked = await q.query(
      `select uuid from support_tickets where uuid = $1 and ($2::uuid is null or account_uuid = $2) for update`,
      [ticketUuid, scope.accountUuid],
    );
    if (!locked.rows[0]) return null;
  }
  const { rows } = await q.query<TicketRow>(
    `select ${ticketColumns(scope.includeInternal)}
       from support_tickets t
       ${TICKET_JOINS}
      where t.uuid = $1 and ($2::uuid is null or t.account_uuid = $2)`,
    [ticketUuid, scope.accountUuid],
  );
  return rows[0] ? toTicket(rows[0]) : null;
}

interface MessageRow {
  id: string;
  uuid: string;
  author_uuid: string | null;
  author_name: string | null;
  author_kind: AuthorKind;
  internal: boolean;
  body: string;
  created_at: Date | string;
}

interface AttachmentRow {
  message_id: string;
  file_uuid: string;
  file_name: string;
  content_type: AttachmentType;
  size: number;
}

/** The messages of a ticket, oldest first, each with its attachments; internal notes only when asked for. */
export async function readConversation(
  q: Queryable,
  ticketUuid: string,
  includeInternal: boolean,
): Promise<SupportMessage[]> {
  const visible = includeInternal ? '' : ' and not m.internal';
  const messages = await q.query<MessageRow>(
    `select m.id, m.uuid, m.author_uuid, case when u.deleted_at is null then u.name end as author_name, m.author_kind, m.internal, m.body, m.created_at
       from support_messages m left join users u on u.uuid = m.author_uuid
      where m.ticket_uuid = $1${visible}
      order by m.id`,
    [ticketUuid],
  );
  const attachments = await q.query<AttachmentRow>(
    `select a.message_id, f.uuid as file_uuid, f.file_name, f.content_type, f.size
       from support_attachments a
       join support_messages m on m.id = a.message_id
       join files f on f.uuid = a.file_uuid
      where a.ticket_uuid = $1${visible}
      order by a.message_id, a.position`,
    [ticketUuid],
  );
  const byMessage = new Map<string, SupportAttachment[]>();
  for (const row of attachments.rows) {
    const list = byMessage.get(String(row.message_id)) ?? [];
    list.push({
      uuid: row.file_uuid,
      fileName: row.file_name,
      contentType: row.content_type,
      size: row.size,
    });
    byMessage.set(String(row.message_id), list);
  }
  return messages.rows.map((row) => ({
    uuid: row.uuid,
    authorKind: row.author_kind,
    authorName: row.author_name,
    authorUuid: row.author_uuid,
    internal: row.internal,
    body: row.body,
    createdAt: iso(row.created_at),
    attachments: byMessage.get(String(row.id)) ?? [],
  }));
}

/** A ticket and its conversation as the reader may see them, or null when there is none in the scope. */
export async function readTicketDetail(
  q: Queryable,
  ticketUuid: string,
  scope: TicketScope,
): Promise<SupportTicketDetail | null> {
  const ticket = await readTicket(q, ticketUuid, scope);
  if (!ticket) return null;
  return { ticket, messages: await readConversation(q, ticketUuid, scope.includeInternal) };
}

/**
 * Whether a file is an attachment of the ticket the reader may see (an internal note's file only when internal
 * notes are included).
 */
export async function isVisibleAttachment(
  q: Queryable,
  ticketUuid: string,
  fileUuid: string,
  includeInternal: boolean,
): Promise<boolean> {
  const { rows } = await q.query(
    `select 1 from support_attachments a join support_messages m on m.id = a.message_id
      where a.ticket_uuid = $1 and a.file_uuid = $2${includeInternal ? '' : ' and not m.internal'}`,
    [ticketUuid, fileUuid],
  );
  return rows.length > 0;
}
