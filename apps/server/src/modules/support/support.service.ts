import {
  ACCOUNT_ROLES,
  ACTIVE_TICKET_STATUSES,
  TICKET_REOPEN_DAYS,
  canReopen,
  hasLevel,
  type ConsentBody,
  type CreateTicketBody,
  type ReplyBody,
  type SupportTicket,
  type SupportTicketDetail,
  type TicketStatus,
  type TicketsQuery,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { pageOf, readPage, sqlParams, type ListPage } from '../../db/paging.ts';
import type { FileStore } from '../../files/files.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { checkAttachments, fileSummary, invalid, keepFiles } from './attachments.ts';
import { endConsent, endConsentWithStatus, giveConsent, logConsentGiven } from './consent.ts';
import {
  TICKET_JOINS,
  insertMessage,
  insertTicket,
  isVisibleAttachment,
  readTicket,
  readTicketDetail,
  ticketColumns,
  toTicket,
} from './tickets.store.ts';

// The customer's side of support: a member of the account opens tickets, replies, reopens, closes and gives or
// ends consent to staff access (consent.ts). Customers never read agents' internal notes. ADMIN and above see every
// ticket of the account; an EMPLOYEE only their own (anything else is "not found", as another account's is).

/** Whether the caller sees every ticket of the account (ADMIN and above, staff acting as SUPPORT included). */
const seesAllTickets = (access: AccountAccess) => hasLevel(ACCOUNT_ROLES, access.role, 'ADMIN');

export async function listTickets(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  query: TicketsQuery,
): Promise<ListPage<SupportTicket>> {
  const p = sqlParams();
  const where = [`t.account_uuid = ${p.add(access.accountUuid)}`];
  if (!seesAllTickets(access)) where.push(`t.created_by = ${p.add(user.uuid)}`);
  if (query.status) where.push(`t.status = ${p.add(query.status)}`);
  if (query.state === 'active') where.push(`t.status = any(${p.add(ACTIVE_TICKET_STATUSES)}::text[])`);
  const filter = where.join(' and ');
  return readPage(
    db,
    {
      rows: `select ${ticketColumns(false)} from support_tickets t ${TICKET_JOINS}
              where ${filter} order by t.created_at desc, t.uuid`,
      count: `select count(*) as total from support_tickets t where ${filter}`,
    },
    p,
    pageOf(query),
    toTicket,
  );
}

/** The ticket as the caller may see it (locked for a change when asked), or 404. */
async function visibleTicket(
  q: Queryable,
  user: PortalUser,
  access: AccountAccess,
  ticketUuid: string,
  forUpdate = false,
): Promise<SupportTicket> {
  const ticket = await readTicket(q, ticketUuid, {
    accountUuid: access.accountUuid,
    includeInternal: false,
    forUpdate,
  });
  if (!ticket) throw notFound('No such ticket');
  if (!seesAllTickets(access) && ticket.createdBy?.uuid !== user.uuid) throw notFound('No such ticket');
  return ticket;
}

/** The ticket and its conversation as a customer reads it: never with internal notes. */
async function customerDetail(
  q: Queryable,
  access: AccountAccess,
  ticketUuid: string,
): Promise<SupportTicketDetail> {
  const detail = await readTicketDetail(q, ticketUuid, {
    accountUuid: access.accountUuid,
    includeInternal: false,
  });
  if (!detail) throw notFound('No such ticket');
  return detail;
}

export async function getTicket(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  ticketUuid: string,
): Promise<SupportTicketDetail> {
  await visibleTicket(db, user, access, ticketUuid);
  return customerDetail(db, access, ticketUuid);
}

export async function createTicket(
  db: Db,
  files: FileStore,
  user: PortalUser,
  access: AccountAccess,
  body: CreateTicketBody,
): Promise<SupportTicketDetail> {
  const problems: Record<string, string> = {};
  const subject = body.subject.trim();
  const description = body.description.trim();
  if (!subject) problems.subject = 'required';
  if (!description) problems.description = 'required';
  const uploads = await checkAttachments(body.attachments, problems);
  if (Object.keys(problems).length) throw invalid(problems);

  return db.transaction(async (tx) => {
    const stored = await keepFiles(tx, files, user, access.accountUuid, uploads);
    const created = await insertTicket(tx, {
      accountUuid: access.accountUuid,
      createdBy: user.uuid,
      category: body.category,
      severity: body.severity,
      subject,
      staffAccessConsent: body.staffAccessConsent,
      body: description,
      fileUuids: stored.map((file) => file.uuid),
    });
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'support.ticket.create',
      target: `ticket:${created.uuid}`,
      after: {
        number: created.number,
        category: body.category,
        severity: body.severity,
        subject,
        staffAccessConsent: body.staffAccessConsent,
        attachments: stored.map(fileSummary),
      },
    });
    if (body.staffAccessConsent) {
      await logConsentGiven(tx, user, { uuid: created.uuid, accountUuid: access.accountUuid });
    }
    return customerDetail(tx, access, created.uuid);
  });
}

export async function replyToTicket(
  db: Db,
  files: FileStore,
  user: PortalUser,
  access: AccountAccess,
  ticketUuid: string,
  body: ReplyBody,
): Promise<SupportTicketDetail> {
  const problems: Record<string, string> = {};
  const text = body.body.trim();
  if (!text) problems.body = 'required';
  const uploads = await checkAttachments(body.attachments, problems);
  // A ticket the caller may not see is "not found" before any problem of the input is named.
  await visibleTicket(db, user, access, ticketUuid);
  if (Object.keys(problems).length) throw invalid(problems);

  return db.transaction(async (tx) => {
    const ticket = await visibleTicket(tx, user, access, ticketUuid, true);
    if (ticket.status === 'SOLVED' || ticket.status === 'CLOSED') {
      throw new HttpError(409, 'TICKET_NOT_OPEN', 'Reopen the ticket to reply', { body: 'ticketNotOpen' });
    }
    const stored = await keepFiles(tx, files, user, access.accountUuid, uploads);
    const message = await insertMessage(tx, {
      ticketUuid,
      authorUuid: user.uuid,
      authorKind: 'CUSTOMER',
      internal: false,
      body: text,
      fileUuids: stored.map((file) => file.uuid),
    });
    // The customer's word now waits for an agent: the ticket is open again, waiting since the first unanswered
    // word.
    await tx.query(
      `update support_tickets
          set status = 'OPEN', awaiting_agent_since = coalesce(awaiting_agent_since, now())
        where uuid = $1`,
      [ticketUuid],
    );
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'support.ticket.reply',
      target: `ticket:${ticketUuid}`,
      before: { status: ticket.status },
      after: { status: 'OPEN', message: message.uuid, attachments: stored.map(fileSummary) },
    });
    return customerDetail(tx, access, ticketUuid);
  });
}

/** Changes a ticket's status (and what goes with it) in one transaction with its audit entry. */
async function changeStatus(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  ticketUuid: string,
  action: string,
  decide: (ticket: SupportTicket) => { status: TicketStatus; set: string },
): Promise<SupportTicketDetail> {
  return db.transaction(async (tx) => {
    const ticket = await visibleTicket(tx, user, access, ticketUuid, true);
    const { status, set } = decide(ticket);
    await endConsentWithStatus(tx, user, ticket, status);
    await tx.query(`update support_tickets set status = $2, updated_at = now(), ${set} where uuid = $1`, [
      ticketUuid,
      status,
    ]);
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action,
      target: `ticket:${ticketUuid}`,
      before: { status: ticket.status },
      after: { status },
    });
    return customerDetail(tx, access, ticketUuid);
  });
}

/** A solved ticket can be reopened within 14 days; it then waits for an agent again. */
export function reopenTicket(db: Db, user: PortalUser, access: AccountAccess, ticketUuid: string) {
  return changeStatus(db, user, access, ticketUuid, 'support.ticket.reopen', (ticket) => {
    if (!canReopen(ticket)) {
      throw new HttpError(
        409,
        'TICKET_NOT_REOPENABLE',
        `Only a ticket solved within the last ${TICKET_REOPEN_DAYS} days can be reopened`,
      );
    }
    return { status: 'OPEN', set: 'solved_at = null, awaiting_agent_since = now()' };
  });
}

/** The customer closes a ticket that needs no more help; a closed ticket stays closed. */
export function closeTicket(db: Db, user: PortalUser, access: AccountAccess, ticketUuid: string) {
  return changeStatus(db, user, access, ticketUuid, 'support.ticket.close', (ticket) => {
    if (ticket.status === 'CLOSED') {
      throw new HttpError(409, 'TICKET_CLOSED', 'The ticket is already closed');
    }
    return { status: 'CLOSED', set: 'awaiting_agent_since = null' };
  });
}

/**
 * The customer gives or ends the consent to staff opening the account. Ending it is always possible; giving it only
 * while the ticket is open (it holds only then). Staff are refused: only the customer decides.
 */
export async function setConsent(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  ticketUuid: string,
  body: ConsentBody,
): Promise<SupportTicketDetail> {
  return db.transaction(async (tx) => {
    const ticket = await visibleTicket(tx, user, access, ticketUuid, true);
    if (body.staffAccessConsent) await giveConsent(tx, user, ticket);
    else await endConsent(tx, user, ticket, 'WITHDRAWN');
    return customerDetail(tx, access, ticketUuid);
  });
}

/** An attachment of a ticket the caller may read (never one of an internal note), or 404. */
export async function readAttachment(
  db: Db,
  files: FileStore,
  user: PortalUser,
  access: AccountAccess,
  ticketUuid: string,
  fileUuid: string,
) {
  await visibleTicket(db, user, access, ticketUuid);
  if (!(await isVisibleAttachment(db, ticketUuid, fileUuid, false))) throw notFound('No such attachment');
  const found = await files.read(db, access.accountUuid, fileUuid);
  if (!found) throw notFound('No such attachment');
  return found;
}
