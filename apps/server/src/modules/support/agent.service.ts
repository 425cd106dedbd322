// The agents' side of support: the queue across accounts, one ticket with its whole conversation, and what staff
// do with it. Who may do what is the user role's level (SUPPORT_ACTION_ROLES in the contract). Every change is
// written to the customer's audit log, and what the customer must hear about (an answer, a status that asks them
// or tells them it is done) becomes a notification to the ticket's creator, in the change's transaction.
// Internal notes stay here: no customer answer, notification or audit entry ever carries their text.
import {
  USER_ROLES,
  maySupport,
  mayBeAssignee,
  type AgentAssignBody,
  type AgentMessage,
  type AgentNoteBody,
  type AgentReplyBody,
  type AgentTicket,
  type AgentTicketStatus,
  type NotificationType,
  type QueueQuery,
  type QueueTicket,
  type SupportAction,
  type SupportAgent,
  type UserRole,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { HttpError, forbidden, invalidField, notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import type { Notifier } from '../../notifications/notifier.ts';

const ACTION_DENIED: Record<SupportAction, string> = {
  read: 'This needs a support role',
  note: 'This needs a support role',
  reply: 'Answering customers needs the SUPPORT_AGENT role',
  status: 'Changing the status needs the SUPPORT_AGENT role',
  assignSelf: 'Taking tickets needs the SUPPORT_AGENT role',
  assignOther: 'Only a support manager can give a ticket to another agent',
};

/** Refuses (403) a caller whose user role may not do `action`. */
export function requireSupport(user: PortalUser, action: SupportAction): void {
  if (!maySupport(user.userRole, action)) throw forbidden(ACTION_DENIED[action]);
}

const closedConflict = () => new HttpError(409, 'CONFLICT', 'A closed ticket cannot change any more');

/** An account past its scheduled deletion is gone, its tickets with it. */
const LIVE_ACCOUNT = '(a.available_until is null or a.available_until > now())';

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

interface PersonColumns {
  uuid: string | null;
  name: string | null;
  email: string | null;
}
const person = ({ uuid, name, email }: PersonColumns) =>
  uuid ? { uuid, name: name ?? '', email: email ?? '' } : null;

interface TicketRow {
  uuid: string;
  number: string;
  subject: string;
  category: string;
  severity: string;
  status: AgentTicketStatus;
  account_uuid: string;
  account_name: string;
  assignee_uuid: string | null;
  assignee_name: string | null;
  assignee_email: string | null;
  awaiting_agent_since: Date | null;
  staff_access_consent: boolean;
  created_at: Date;
  updated_at: Date;
  solved_at: Date | null;
  created_by: string | null;
  creator_name: string | null;
  creator_email: string | null;
}

const TICKET_SELECT = `select t.uuid, t.number, t.subject, t.category, t.severity, t.status, t.account_uuid,
    a.name as account_name, t.assignee_uuid, asg.name as assignee_name, asg.email as assignee_email,
    t.awaiting_agent_since, t.staff_access_consent, t.created_at, t.updated_at, t.solved_at,
    t.created_by, cr.name as creator_name, cr.email as creator_email
  from support_tickets t
  join accounts a on a.uuid = t.account_uuid
  left join users asg on asg.uuid = t.assignee_uuid
  left join users cr on cr.uuid = t.created_by`;

function toQueueTicket(row: TicketRow): QueueTicket {
  return {
    uuid: row.uuid,
    number: Number(row.number),
    subject: row.subject,
    category: row.category,
    severity: row.severity,
    status: row.status,
    accountUuid: row.account_uuid,
    accountName: row.account_name,
    assignee: person({ uuid: row.assignee_uuid, name: row.assignee_name, email: row.assignee_email }),
    awaitingAgentSince: isoOrNull(row.awaiting_agent_since),
    staffAccessConsent: row.staff_access_consent,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/**
 * One page of the queue across accounts, longest waiting first: tickets whose customer waits for an answer by
 * the time they started waiting, then the others by their last change. Without a status filter it shows the
 * active tickets (open or waiting for the customer).
 */
export async function listQueue(
  db: Queryable,
  user: PortalUser,
  query: QueueQuery,
): Promise<{ data: QueueTicket[]; meta: { total: number; page: number; pageSize: number } }> {
  requireSupport(user, 'read');
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 25;
  const values: unknown[] = [];
  const add = (value: unknown) => `$${values.push(value)}`;
  const where = [LIVE_ACCOUNT];
  const status = query.status ?? 'ACTIVE';
  if (status === 'ACTIVE') where.push(`t.status in ('OPEN', 'WAITING_FOR_CUSTOMER')`);
  else if (status !== 'ALL') where.push(`t.status = ${add(status)}`);
  if (query.severity) where.push(`t.severity = ${add(query.severity)}`);
  if (query.category) where.push(`t.category = ${add(query.category)}`);
  if (query.assignee === 'unassigned') where.push('t.assignee_uuid is null');
  else if (query.assignee)
    where.push(`t.assignee_uuid = ${add(query.assignee === 'mine' ? user.uuid : query.assignee)}`);
  if (query.waitingHours)
    where.push(`t.awaiting_agent_since <= now() - make_interval(hours => ${add(query.waitingHours)}::int)`);
  const filter = where.join(' and ');
  const count = await db.query<{ total: string }>(
    `select count(*) as total from support_tickets t join accounts a on a.uuid = t.account_uuid where ${filter}`,
    values,
  );
  const { rows } = await db.query<TicketRow>(
    `${TICKET_SELECT} where ${filter}
      order by t.awaiting_agent_since asc nulls last, t.updated_at asc, t.number asc
      limit ${add(pageSize)} offset ${add((page - 1) * pageSize)}`,
    values,
  );
  return { data: rows.map(toQueueTicket), meta: { total: Number(count.rows[0]!.total), page, pageSize } };
}

async function ticketRow(q: Queryable, ticketUuid: string, lock = false): Promise<TicketRow> {
  const { rows } = await q.query<TicketRow>(
    `${TICKET_SELECT} where t.uuid = $1 and ${LIVE_ACCOUNT}${lock ? ' for update of t' : ''}`,
    [ticketUuid],
  );
  if (!rows[0]) throw notFound('No such ticket');
  return rows[0];
}

interface MessageRow extends PersonColumns {
  id: string;
  message_uuid: string;
  author_kind: 'CUSTOMER' | 'AGENT';
  internal: boolean;
  body: string;
  created_at: Date;
}

interface AttachmentRow {
  message_id: string;
  uuid: string;
  file_name: string;
  content_type: string;
  size: number;
}

/** The whole conversation of a ticket, oldest first, internal notes included and marked. */
async function conversation(q: Queryable, ticketUuid: string): Promise<AgentMessage[]> {
  const [messages, files] = await Promise.all([
    q.query<MessageRow>(
      `select m.id, m.uuid as message_uuid, m.author_kind, m.internal, m.body, m.created_at,
              u.uuid, u.name, u.email
         from support_messages m left join users u on u.uuid = m.author_uuid
        where m.ticket_uuid = $1 order by m.id`,
      [ticketUuid],
    ),
    q.query<AttachmentRow>(
      `select s.message_id, f.uuid, f.file_name, f.content_type, f.size
         from support_attachments s join files f on f.uuid = s.file_uuid
        where s.ticket_uuid = $1 order by f.created_at, f.uuid`,
      [ticketUuid],
    ),
  ]);
  return messages.rows.map((row) => ({
    uuid: row.message_uuid,
    authorKind: row.author_kind,
    author: person(row),
    internal: row.internal,
    body: row.body,
    attachments: files.rows
      .filter((file) => file.message_id === row.id)
      .map((file) => ({
        uuid: file.uuid,
        fileName: file.file_name,
        contentType: file.content_type,
        size: Number(file.size),
      })),
    createdAt: iso(row.created_at),
  }));
}

async function agentTicket(q: Queryable, ticketUuid: string): Promise<AgentTicket> {
  const row = await ticketRow(q, ticketUuid);
  return {
    ...toQueueTicket(row),
    createdBy: person({ uuid: row.created_by, name: row.creator_name, email: row.creator_email }),
    solvedAt: isoOrNull(row.solved_at),
    messages: await conversation(q, ticketUuid),
  };
}

const ticketTarget = (ticketUuid: string) => `ticket:${ticketUuid}`;

/**
 * A ticket as agents see it. Reading a customer's conversation is access to their data: it is written to the
 * customer's log like any staff access.
 */
export async function getAgentTicket(db: Db, user: PortalUser, ticketUuid: string): Promise<AgentTicket> {
  requireSupport(user, 'read');
  return db.transaction(async (tx) => {
    const ticket = await agentTicket(tx, ticketUuid);
    await writeAudit(tx, {
      accountUuid: ticket.accountUuid,
      actor: user,
      action: 'support.access',
      target: ticketTarget(ticketUuid),
    });
    return ticket;
  });
}

/** What a status change tells the customer; other statuses (back to open) tell them nothing. */
const STATUS_NOTIFICATION: Partial<Record<AgentTicketStatus, NotificationType>> = {
  WAITING_FOR_CUSTOMER: 'ticket.waiting_for_customer',
  SOLVED: 'ticket.solved',
};

/**
 * Tells the ticket's creator, while they are still a member of its account. The parameters name the ticket only:
 * never a message's text.
 */
async function notifyCreator(tx: Queryable, notifier: Notifier, row: TicketRow, type: NotificationType) {
  if (!row.created_by) return;
  const { rows } = await tx.query(
    `select 1 from account_members where account_uuid = $1 and user_uuid = $2 and invitation_status = 'ACCEPTED'`,
    [row.account_uuid, row.created_by],
  );
  if (!rows.length) return;
  await notifier.notify(tx, {
    accountUuid: row.account_uuid,
    userUuids: [row.created_by],
    type: type as 'ticket.answered',
    params: { ticketUuid: row.uuid, ticketNumber: Number(row.number), subject: row.subject },
  });
}

/**
 * Sets the status of a locked ticket. Solving records when (the customer may reopen for a while after); open
 * means an agent owes an answer again, every other status means nobody waits for an agent.
 */
async function setStatus(tx: Queryable, row: TicketRow, status: AgentTicketStatus) {
  await tx.query(
    `update support_tickets
        set status = $2, updated_at = now(),
            solved_at = case when $2 = 'SOLVED' then now() else solved_at end,
            awaiting_agent_since = case when $2 = 'OPEN' then coalesce(awaiting_agent_since, now()) else null end
      where uuid = $1`,
    [row.uuid, status],
  );
}

async function insertMessage(
  tx: Queryable,
  user: PortalUser,
  ticketUuid: string,
  body: string,
  internal: boolean,
) {
  await tx.query(
    `insert into support_messages (ticket_uuid, author_uuid, author_kind, internal, body)
     values ($1, $2, 'AGENT', $3, $4)`,
    [ticketUuid, user.uuid, internal, body],
  );
}

/**
 * An agent's answer to the customer, optionally with a new status. The creator hears of it once: through the new
 * status's notification when the status changes to one that has one, else as "answered".
 */
export async function replyToTicket(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  ticketUuid: string,
  input: AgentReplyBody,
): Promise<AgentTicket> {
  requireSupport(user, 'reply');
  return db.transaction(async (tx) => {
    const row = await ticketRow(tx, ticketUuid, true);
    if (row.status === 'CLOSED') throw closedConflict();
    await insertMessage(tx, user, ticketUuid, input.body, false);
    const status = input.status && input.status !== row.status ? input.status : null;
    if (status) await setStatus(tx, row, status);
    // The answer settles what the customer waited for, whatever the status.
    else
      await tx.query(
        `update support_tickets set updated_at = now(), awaiting_agent_since = null where uuid = $1`,
        [ticketUuid],
      );
    await notifyCreator(tx, notifier, row, (status && STATUS_NOTIFICATION[status]) || 'ticket.answered');
    await writeAudit(tx, {
      accountUuid: row.account_uuid,
      actor: user,
      action: 'support.agent.reply',
      target: ticketTarget(ticketUuid),
      ...(status ? { before: { status: row.status }, after: { status } } : {}),
    });
    return agentTicket(tx, ticketUuid);
  });
}

/**
 * An internal note: for agents only. It changes neither the ticket's status nor its last-change time (which the
 * customer sees), and tells nobody; the customer's log records that staff wrote one, never its text.
 */
export async function addInternalNote(
  db: Db,
  user: PortalUser,
  ticketUuid: string,
  input: AgentNoteBody,
): Promise<AgentTicket> {
  requireSupport(user, 'note');
  return db.transaction(async (tx) => {
    const row = await ticketRow(tx, ticketUuid, true);
    await insertMessage(tx, user, ticketUuid, input.body, true);
    await writeAudit(tx, {
      accountUuid: row.account_uuid,
      actor: user,
      action: 'support.agent.note',
      target: ticketTarget(ticketUuid),
    });
    return agentTicket(tx, ticketUuid);
  });
}

/** A new status; the same one again changes nothing. A closed ticket is final. */
export async function changeTicketStatus(
  db: Db,
  notifier: Notifier,
  user: PortalUser,
  ticketUuid: string,
  status: AgentTicketStatus,
): Promise<AgentTicket> {
  requireSupport(user, 'status');
  return db.transaction(async (tx) => {
    const row = await ticketRow(tx, ticketUuid, true);
    if (row.status === status) return agentTicket(tx, ticketUuid);
    if (row.status === 'CLOSED') throw closedConflict();
    await setStatus(tx, row, status);
    const type = STATUS_NOTIFICATION[status];
    if (type) await notifyCreator(tx, notifier, row, type);
    await writeAudit(tx, {
      accountUuid: row.account_uuid,
      actor: user,
      action: 'support.agent.status',
      target: ticketTarget(ticketUuid),
      before: { status: row.status },
      after: { status },
    });
    return agentTicket(tx, ticketUuid);
  });
}

async function roleOf(q: Queryable, userUuid: string): Promise<UserRole | null> {
  const { rows } = await q.query<{ user_role: UserRole }>('select user_role from users where uuid = $1', [
    userUuid,
  ]);
  return rows[0]?.user_role ?? null;
}

/**
 * Who owns a ticket. An agent takes a free ticket (or one of their own) and gives their own back; taking one from
 * another agent, or giving one to someone else, is a manager's. The new owner must be able to answer customers.
 */
export async function assignTicket(
  db: Db,
  user: PortalUser,
  ticketUuid: string,
  { assigneeUuid }: AgentAssignBody,
): Promise<AgentTicket> {
  requireSupport(user, 'assignSelf');
  return db.transaction(async (tx) => {
    const row = await ticketRow(tx, ticketUuid, true);
    const current = row.assignee_uuid;
    if (current === assigneeUuid) return agentTicket(tx, ticketUuid);
    const aboutSelfOnly =
      (current === null || current === user.uuid) && (assigneeUuid ?? user.uuid) === user.uuid;
    if (!aboutSelfOnly) requireSupport(user, 'assignOther');
    if (assigneeUuid && !mayBeAssignee(await roleOf(tx, assigneeUuid))) {
      throw invalidField('assigneeUuid', 'is no support agent');
    }
    await tx.query(`update support_tickets set assignee_uuid = $2, updated_at = now() where uuid = $1`, [
      ticketUuid,
      assigneeUuid,
    ]);
    await writeAudit(tx, {
      accountUuid: row.account_uuid,
      actor: user,
      action: 'support.agent.assign',
      target: ticketTarget(ticketUuid),
      before: { assignee: current },
      after: { assignee: assigneeUuid },
    });
    return agentTicket(tx, ticketUuid);
  });
}

/** Staff users who can own tickets, by name. */
export async function listAgents(db: Queryable, user: PortalUser): Promise<SupportAgent[]> {
  requireSupport(user, 'read');
  const { rows } = await db.query<{ uuid: string; name: string; email: string }>(
    `select uuid, name, email from users where user_role = any($1::text[])
      order by lower(name), email, uuid limit 500`,
    [USER_ROLES.filter(mayBeAssignee)],
  );
  return rows.map((row) => ({ ...row, isSelf: row.uuid === user.uuid }));
}
