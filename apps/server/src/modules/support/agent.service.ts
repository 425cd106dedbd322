// The agents' side of support: the queue across accounts, one ticket with its whole conversation, and what staff
// do with it. Who may do what is the user role's level (SUPPORT_ACTION_ROLES in the contract). Every change is
// written to the customer's audit log, and what the customer must hear about (an answer, a status that asks them
// or tells them it is done) becomes a notification to the ticket's creator, in the change's transaction.
// Internal notes stay here: no customer answer, notification or audit entry ever carries their text.
import {
  ACTIVE_TICKET_STATUSES,
  QUEUE_PAGE_SIZE_MAX,
  TICKET_STATUSES,
  USER_ROLES,
  maySupport,
  mayBeAssignee,
  type AgentAssignBody,
  type AgentNoteBody,
  type AgentReplyBody,
  type AgentTicketDetail,
  type NotificationType,
  type QueueQuery,
  type QueueTicket,
  type SupportAction,
  type SupportAgent,
  type TicketStatus,
  type UserRole,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import { statementName, type Db, type Queryable } from '../../db/client.ts';
import { DEFAULT_PAGE_SIZE, listPage, pageOf, sqlParams, type ListPage } from '../../db/paging.ts';
import type { CheckedUpload, FileStore, StoredFile } from '../../files/files.ts';
import { HttpError, forbidden, invalidField, notFound } from '../../http/errors.ts';
import type { PortalUser } from '../../http/types.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import { checkAttachments, fileSummary, invalid, keepFiles } from './attachments.ts';
import { endConsentWithStatus } from './consent.ts';
import {
  TICKET_JOINS,
  insertMessage,
  isVisibleAttachment,
  readTicketDetail,
  ticketColumns,
  toTicket,
  type TicketRow,
} from './tickets.store.ts';

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

/** A ticket across accounts: the store's columns (internal notes counted) and the account's name. */
type QueueRow = TicketRow & { account_name: string };
const toQueueTicket = (row: QueueRow): QueueTicket => ({ ...toTicket(row), accountName: row.account_name });

/**
 * A ticket of a live account, asked of the ticket alone: its account is none of those past their scheduled deletion
 * (a few, found on accounts_expiry_idx and hashed once per statement). Joining each ticket with its account for
 * this read the account of every ticket a page looked at (decision 260).
 */
const LIVE_TICKET = 't.account_uuid not in (select x.uuid from accounts x where x.available_until <= now())';

/**
 * One page of the queue across accounts, longest waiting first: tickets whose customer waits for an answer by
 * the time they started waiting, then the others by their last change. Without a status filter it shows the
 * active tickets (open or waiting for the customer).
 */
export async function listQueue(
  db: Queryable,
  user: PortalUser,
  query: QueueQuery,
): Promise<ListPage<QueueTicket>> {
  requireSupport(user, 'read');
  const p = sqlParams();
  const where: string[] = [];
  const status = query.status ?? 'ACTIVE';
  const statuses =
    status === 'ACTIVE'
      ? ACTIVE_TICKET_STATUSES
      : TICKET_STATUSES.filter((known) => status === 'ALL' || known === status);
  if (query.severity) where.push(`t.severity = ${p.add(query.severity)}`);
  if (query.category) where.push(`t.category = ${p.add(query.category)}`);
  if (query.assignee === 'unassigned') where.push('t.assignee_uuid is null');
  else if (query.assignee)
    where.push(`t.assignee_uuid = ${p.add(query.assignee === 'mine' ? user.uuid : query.assignee)}`);
  if (query.waitingHours)
    where.push(`t.awaiting_agent_since <= now() - make_interval(hours => ${p.add(query.waitingHours)}::int)`);
  const filter = [LIVE_TICKET, ...where].join(' and ');
  const paging = pageOf(query);
  // What the count filters. Every status is counted without naming them: the planner then counts all tickets as
  // before, not off the index.
  const matches =
    [
      ...where,
      ...(status === 'ALL' ? [] : [`t.status in (${statuses.map((known) => `'${known}'`).join(', ')})`]),
    ].join(' and ') || 'true';
  // The first page of a view without a filter but the status (the queue as it opens, each status) is a statement
  // without parameters, kept planned on each connection (decision 265): planning it took as long as running it
  // (2.5 ms for 100 tickets). Only those: a statement with parameters is planned once for any values, and that
  // plan read all 37,600 closed tickets for a rare severity. The page sizes the pagers offer only: 24 statements.
  const kept = where.length === 0 && paging.offset === 0 && KEPT_PAGE_SIZES.includes(paging.limit);
  const page = p.copy();
  const value = (n: number) => (kept ? String(n) : page.add(n));
  // The page's tickets are chosen on the index's columns alone (order, offset, limit); only those 25 are then
  // joined with their account and people and have their messages counted. Paged after the joins, page 20 computed
  // all of that for the 475 tickets it skips (decision 260).
  const rowsSql = `select ${ticketColumns(true)}, a.name as account_name
         from (select f.uuid from (${firstOfEach(statuses, filter, paging.offset + paging.limit)}) f
                ${queueOrder('f')} limit ${value(paging.limit)} offset ${value(paging.offset)}) pg
         join support_tickets t on t.uuid = pg.uuid
         join accounts a on a.uuid = t.account_uuid ${TICKET_JOINS}
        ${queueOrder('t')}`;
  // The tickets the filter finds less those of accounts past their deletion: the first count reads the index
  // alone when only the status filters (37,600 closed tickets in 1.5 ms, against 4 ms checking each ticket's
  // account), the second only the few accounts past their deletion and their tickets.
  const countSql = `select (select count(*) from support_tickets t where ${matches})
            - (select count(*) from accounts x join support_tickets t on t.account_uuid = x.uuid
                where x.available_until <= now() and ${matches}) as total`;
  const [rows, count] = await Promise.all([
    db.query<QueueRow>(rowsSql, page.values, kept ? { prepare: statementName('portal_queue', rowsSql) } : {}),
    db.query<{ total: string | number }>(
      countSql,
      p.values,
      where.length === 0 ? { prepare: statementName('portal_queue_count', countSql) } : {},
    ),
  ]);
  return listPage(rows.rows.map(toQueueTicket), count.rows[0]?.total ?? 0, paging);
}

/** The page sizes whose first pages are kept planned: the pagers' choices (decision 265). */
const KEPT_PAGE_SIZES = [10, DEFAULT_PAGE_SIZE, 50, QUEUE_PAGE_SIZE_MAX];

/** The queue's one order, on the columns of `support_tickets_queue_idx` of the ticket (or row) `alias`. */
const queueOrder = (alias: string) =>
  `order by ${alias}.awaiting_agent_since asc nulls last, ${alias}.updated_at asc, ${alias}.number asc`;

/**
 * The tickets a page can show: the first `upTo` (the page's offset and size) of each status, each read off its own
 * range of `support_tickets_queue_idx` in the queue's order, hold the first `upTo` of them all. PostgreSQL does not
 * merge one index's statuses in order itself: "all" sorted 50,000 tickets, and the active view 3,000, each joined
 * with its account and people first; an index in the order without the status lured the active view's rare filters
 * (decision 259). Each row carries its sort columns, so the page is chosen before any join.
 */
function firstOfEach(statuses: readonly TicketStatus[], filter: string, upTo: number): string {
  const first = (status: TicketStatus) =>
    `(select t.uuid, t.awaiting_agent_since, t.updated_at, t.number from support_tickets t
       where ${filter} and t.status = '${status}' ${queueOrder('t')} limit ${upTo})`;
  return statuses.map(first).join(' union all ');
}

/** What a change needs to know of a ticket, locked for the change's transaction. */
interface TicketFacts {
  uuid: string;
  number: string;
  subject: string;
  status: TicketStatus;
  account_uuid: string;
  created_by: string | null;
  assignee_uuid: string | null;
  updated_at: Date;
}

async function lockTicket(tx: Queryable, ticketUuid: string): Promise<TicketFacts> {
  const { rows } = await tx.query<TicketFacts>(
    `select t.uuid, t.number, t.subject, t.status, t.account_uuid, t.created_by, t.assignee_uuid, t.updated_at
       from support_tickets t join accounts a on a.uuid = t.account_uuid
      where t.uuid = $1 and ${LIVE_ACCOUNT} for update of t`,
    [ticketUuid],
  );
  if (!rows[0]) throw notFound('No such ticket');
  return rows[0];
}

/** The ticket with its whole conversation, internal notes included, and its account's name. */
async function agentTicket(q: Queryable, ticketUuid: string): Promise<AgentTicketDetail> {
  const { rows } = await q.query<{ name: string }>(
    `select a.name from support_tickets t join accounts a on a.uuid = t.account_uuid
      where t.uuid = $1 and ${LIVE_ACCOUNT}`,
    [ticketUuid],
  );
  const detail = rows[0]
    ? await readTicketDetail(q, ticketUuid, { accountUuid: null, includeInternal: true })
    : null;
  if (!detail) throw notFound('No such ticket');
  return { ticket: { ...detail.ticket, accountName: rows[0]!.name }, messages: detail.messages };
}

const ticketTarget = (ticketUuid: string) => `ticket:${ticketUuid}`;

/**
 * A ticket as agents see it. Reading a customer's conversation is access to their data: it is written to the
 * customer's log like any staff access.
 */
export async function getAgentTicket(
  db: Db,
  user: PortalUser,
  ticketUuid: string,
): Promise<AgentTicketDetail> {
  requireSupport(user, 'read');
  return db.transaction(async (tx) => {
    const ticket = await agentTicket(tx, ticketUuid);
    await writeAudit(tx, {
      accountUuid: ticket.ticket.accountUuid,
      actor: user,
      action: 'support.access',
      target: ticketTarget(ticketUuid),
    });
    return ticket;
  });
}

/** What a status change tells the customer; other statuses (back to open) tell them nothing. */
const STATUS_NOTIFICATION: Partial<Record<TicketStatus, NotificationType>> = {
  WAITING_FOR_CUSTOMER: 'ticket.waiting_for_customer',
  SOLVED: 'ticket.solved',
};

/**
 * Tells the ticket's creator, while they are still a member of its account. The parameters name the ticket only:
 * never a message's text.
 */
async function notifyCreator(tx: Queryable, notifier: Notifier, row: TicketFacts, type: NotificationType) {
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
 * means an agent owes an answer again, every other status means nobody waits for an agent. Solving or closing
 * ends the customer's consent to staff access, logged as the agent's doing; setting the ticket open again never
 * gives it back (decision 195).
 */
async function setStatus(tx: Queryable, user: PortalUser, row: TicketFacts, status: TicketStatus) {
  await endConsentWithStatus(tx, user, { uuid: row.uuid, accountUuid: row.account_uuid }, status);
  await tx.query(
    `update support_tickets
        set status = $2, updated_at = now(),
            solved_at = case when $2 = 'SOLVED' then now() else solved_at end,
            awaiting_agent_since = case when $2 = 'OPEN' then coalesce(awaiting_agent_since, now()) else null end
      where uuid = $1`,
    [row.uuid, status],
  );
}

/** Checks an agent's message before anything changes: its text (only spaces is none) and its files. */
async function checkMessage(input: AgentNoteBody): Promise<CheckedUpload[]> {
  const problems: Record<string, string> = {};
  if (!input.body.trim()) problems.body = 'required';
  const uploads = await checkAttachments(input.attachments ?? [], problems);
  if (Object.keys(problems).length) throw invalid(problems);
  return uploads;
}

/**
 * An agent's message (an answer or an internal note) through the store, its files kept in the ticket's account.
 * A note's files are the note's: only agents read them.
 */
async function agentMessage(
  tx: Queryable,
  files: FileStore,
  user: PortalUser,
  row: TicketFacts,
  message: { body: string; uploads: readonly CheckedUpload[]; internal: boolean },
): Promise<StoredFile[]> {
  const stored = await keepFiles(tx, files, user, row.account_uuid, message.uploads);
  await insertMessage(tx, {
    ticketUuid: row.uuid,
    authorUuid: user.uuid,
    authorKind: 'AGENT',
    internal: message.internal,
    body: message.body,
    fileUuids: stored.map((file) => file.uuid),
  });
  return stored;
}

/**
 * An agent's answer to the customer, optionally with a new status. The creator hears of it once: through the new
 * status's notification when the status changes to one that has one, else as "answered".
 */
export async function replyToTicket(
  db: Db,
  { notifier, files }: { notifier: Notifier; files: FileStore },
  user: PortalUser,
  ticketUuid: string,
  input: AgentReplyBody,
): Promise<AgentTicketDetail> {
  requireSupport(user, 'reply');
  const uploads = await checkMessage(input);
  return db.transaction(async (tx) => {
    const row = await lockTicket(tx, ticketUuid);
    if (row.status === 'CLOSED') throw closedConflict();
    const stored = await agentMessage(tx, files, user, row, { body: input.body, uploads, internal: false });
    const status = input.status && input.status !== row.status ? input.status : null;
    if (status) await setStatus(tx, user, row, status);
    // The answer settles what the customer waited for, whatever the status.
    else
      await tx.query(
        `update support_tickets set updated_at = now(), awaiting_agent_since = null where uuid = $1`,
        [ticketUuid],
      );
    await notifyCreator(tx, notifier, row, (status && STATUS_NOTIFICATION[status]) || 'ticket.answered');
    const after = {
      ...(status ? { status } : {}),
      ...(stored.length ? { attachments: stored.map(fileSummary) } : {}),
    };
    await writeAudit(tx, {
      accountUuid: row.account_uuid,
      actor: user,
      action: 'support.agent.reply',
      target: ticketTarget(ticketUuid),
      ...(status ? { before: { status: row.status } } : {}),
      ...(Object.keys(after).length ? { after } : {}),
    });
    return agentTicket(tx, ticketUuid);
  });
}

/**
 * An internal note: for agents only. It changes neither the ticket's status nor its last-change time (which the
 * customer sees), and tells nobody; the customer's log records that staff wrote one, never its text nor its files.
 */
export async function addInternalNote(
  db: Db,
  files: FileStore,
  user: PortalUser,
  ticketUuid: string,
  input: AgentNoteBody,
): Promise<AgentTicketDetail> {
  requireSupport(user, 'note');
  const uploads = await checkMessage(input);
  return db.transaction(async (tx) => {
    const row = await lockTicket(tx, ticketUuid);
    await agentMessage(tx, files, user, row, { body: input.body, uploads, internal: true });
    // The customer sees when their ticket last changed: a note leaves no trace there.
    await tx.query('update support_tickets set updated_at = $2 where uuid = $1', [
      ticketUuid,
      row.updated_at,
    ]);
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
  status: TicketStatus,
): Promise<AgentTicketDetail> {
  requireSupport(user, 'status');
  return db.transaction(async (tx) => {
    const row = await lockTicket(tx, ticketUuid);
    if (row.status === status) return agentTicket(tx, ticketUuid);
    if (row.status === 'CLOSED') throw closedConflict();
    await setStatus(tx, user, row, status);
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
): Promise<AgentTicketDetail> {
  requireSupport(user, 'assignSelf');
  return db.transaction(async (tx) => {
    const row = await lockTicket(tx, ticketUuid);
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

/** An attachment of a ticket's conversation for staff; 404 when the file is no attachment of that ticket. */
export async function readAgentAttachment(
  db: Queryable,
  files: FileStore,
  user: PortalUser,
  ticketUuid: string,
  fileUuid: string,
): Promise<{ file: StoredFile; content: Buffer }> {
  requireSupport(user, 'read');
  const { rows } = await db.query<{ account_uuid: string }>(
    `select t.account_uuid from support_tickets t join accounts a on a.uuid = t.account_uuid
      where t.uuid = $1 and ${LIVE_ACCOUNT}`,
    [ticketUuid],
  );
  const found =
    rows[0] && (await isVisibleAttachment(db, ticketUuid, fileUuid, true))
      ? await files.read(db, rows[0].account_uuid, fileUuid)
      : null;
  if (!found) throw notFound();
  return found;
}
