import { ACTIVE_TICKET_STATUSES, type TicketStatus } from '@portal/contract';
import { writeAudit, type Actor } from '../../audit/audit.ts';
import type { Queryable } from '../../db/client.ts';
import { HttpError } from '../../http/errors.ts';

// The customer's consent to support staff opening the account (decision 195). It lives on one ticket and holds
// only while that ticket is open: solving or closing the ticket ends it, whoever does so, and nothing but the
// customer's own choice gives it again — reopening a ticket never does. Every grant and every end is written to
// the account's log in the change's transaction. Callers hold the ticket's row lock.

/** Why a consent ended, as the log says: the customer took it back, or the ticket was solved or closed. */
export type ConsentEndReason = 'WITHDRAWN' | 'SOLVED' | 'CLOSED';

interface ConsentTicket {
  uuid: string;
  accountUuid: string;
}

const target = (ticket: ConsentTicket) => `ticket:${ticket.uuid}`;

/** Writes that the customer gave the consent (also when they give it with a new ticket). */
export async function logConsentGiven(tx: Queryable, actor: Actor, ticket: ConsentTicket): Promise<void> {
  await writeAudit(tx, {
    accountUuid: ticket.accountUuid,
    actor,
    action: 'support.consent.grant',
    target: target(ticket),
    before: { staffAccessConsent: false },
    after: { staffAccessConsent: true },
  });
}

/**
 * The customer gives the consent on a ticket of theirs that is still open (409 TICKET_NOT_OPEN otherwise). Only the
 * customer's side calls this: staff never give it in the customer's name.
 */
export async function giveConsent(
  tx: Queryable,
  actor: Actor,
  ticket: ConsentTicket & { status: TicketStatus; staffAccessConsent: boolean },
): Promise<void> {
  if (!ACTIVE_TICKET_STATUSES.includes(ticket.status)) {
    throw new HttpError(409, 'TICKET_NOT_OPEN', 'Consent can only be given while the ticket is open');
  }
  if (ticket.staffAccessConsent) return;
  await tx.query(
    'update support_tickets set staff_access_consent = true, updated_at = now() where uuid = $1',
    [ticket.uuid],
  );
  await logConsentGiven(tx, actor, ticket);
}

/** Ends the consent of a ticket, if it is on, with the reason in the log; whether it was on. */
export async function endConsent(
  tx: Queryable,
  actor: Actor,
  ticket: ConsentTicket,
  reason: ConsentEndReason,
): Promise<boolean> {
  const { rows } = await tx.query(
    `update support_tickets set staff_access_consent = false, updated_at = now()
      where uuid = $1 and staff_access_consent returning uuid`,
    [ticket.uuid],
  );
  if (!rows.length) return false;
  await writeAudit(tx, {
    accountUuid: ticket.accountUuid,
    actor,
    action: 'support.consent.end',
    target: target(ticket),
    before: { staffAccessConsent: true },
    after: { staffAccessConsent: false, reason },
  });
  return true;
}

/**
 * Before a ticket's status changes: a ticket being solved or closed takes its consent with it. Every status change
 * (the agent's, an answer that sets a status, the customer's close) calls this first; the table refuses a solved
 * or closed ticket whose consent is still on.
 */
export async function endConsentWithStatus(
  tx: Queryable,
  actor: Actor,
  ticket: ConsentTicket,
  status: TicketStatus,
): Promise<void> {
  if (status === 'SOLVED' || status === 'CLOSED') await endConsent(tx, actor, ticket, status);
}
