import Type from 'typebox';
import { DateTime, Entity, ErrorBody, List, Uuid, PageNumber } from './common.ts';
import { FileBytes, FileUpload, base64MaxLength } from './company.ts';
import { defineRoute } from './route.ts';

// Support tickets: a member of an account asks for help, support staff (agents) answer in the same conversation.
// Customers never see an agent's internal notes. Closed value sets are keys; the web shows localised labels.

export const SUPPORT_CATEGORIES = ['ACCOUNT', 'BILLING', 'TECHNICAL', 'INTEGRATIONS', 'OTHER'] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];

export const SUPPORT_SEVERITIES = ['LOW', 'NORMAL', 'HIGH', 'CRITICAL'] as const;
export type SupportSeverity = (typeof SUPPORT_SEVERITIES)[number];

export const TICKET_STATUSES = ['OPEN', 'WAITING_FOR_CUSTOMER', 'SOLVED', 'CLOSED'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Statuses in which a ticket still needs someone's work (the support home lists them as "open tickets"). */
export const ACTIVE_TICKET_STATUSES: readonly TicketStatus[] = ['OPEN', 'WAITING_FOR_CUSTOMER'];

export const TICKET_SUBJECT_MAX = 150;
export const TICKET_BODY_MAX = 10_000;
/** Attachments of one message (a new ticket's description or a reply). */
export const ATTACHMENTS_PER_MESSAGE_MAX = 5;
/** Largest attachment, in bytes (10 MB). */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Attachment types, detected from the file's content (text: valid UTF-8 without NUL; CSV by the name among text). */
export const ATTACHMENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/plain',
  'text/csv',
] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];
/** File name extensions the picker offers (the server still judges the content). */
export const ATTACHMENT_EXTENSIONS = ['.pdf', '.png', '.jpg', '.jpeg', '.txt', '.csv'] as const;
/** A solved ticket can be reopened by the customer for this many days. */
export const TICKET_REOPEN_DAYS = 14;
export const SUPPORT_PAGE_SIZE_MAX = 100;

export const SupportCategorySchema = Type.Enum(SUPPORT_CATEGORIES);
export const SupportSeveritySchema = Type.Enum(SUPPORT_SEVERITIES);
export const TicketStatusSchema = Type.Enum(TICKET_STATUSES);

/** Whether a ticket solved at `solvedAt` may still be reopened at `now`. */
export function canReopen(
  ticket: { status: TicketStatus; solvedAt: string | null },
  now: Date = new Date(),
): boolean {
  if (ticket.status !== 'SOLVED' || !ticket.solvedAt) return false;
  return now.getTime() - new Date(ticket.solvedAt).getTime() <= TICKET_REOPEN_DAYS * 24 * 3600 * 1000;
}

export const SupportAttachment = Type.Object({
  uuid: Uuid,
  fileName: Type.String(),
  contentType: Type.Enum(ATTACHMENT_TYPES),
  size: Type.Integer(),
});
export type SupportAttachment = Type.Static<typeof SupportAttachment>;

export const SupportMessage = Type.Object({
  uuid: Uuid,
  /** CUSTOMER: a member of the account; AGENT: support staff. */
  authorKind: Type.Enum(['CUSTOMER', 'AGENT'] as const),
  /** The author's name; null when the user no longer exists. */
  authorName: Type.Union([Type.String(), Type.Null()]),
  authorUuid: Type.Union([Uuid, Type.Null()]),
  /** An agents-only note; never present in a customer's answer. */
  internal: Type.Boolean(),
  body: Type.String(),
  createdAt: DateTime,
  attachments: Type.Array(SupportAttachment),
});
export type SupportMessage = Type.Static<typeof SupportMessage>;

export const SupportTicket = Type.Object({
  uuid: Uuid,
  /** Global number customers quote (10001, 10002, …). */
  number: Type.Integer(),
  accountUuid: Uuid,
  category: SupportCategorySchema,
  severity: SupportSeveritySchema,
  subject: Type.String(),
  status: TicketStatusSchema,
  /**
   * The customer allows support staff to open the account. Only while the ticket is open: solving or closing it
   * ends the consent, and only the customer gives it again (decision 195).
   */
  staffAccessConsent: Type.Boolean(),
  createdBy: Type.Union([Type.Object({ uuid: Uuid, name: Type.String() }), Type.Null()]),
  assignee: Type.Union([Type.Object({ uuid: Uuid, name: Type.String() }), Type.Null()]),
  createdAt: DateTime,
  updatedAt: DateTime,
  /** Since when the customer's last word waits for an agent; null when it does not. */
  awaitingAgentSince: Type.Union([DateTime, Type.Null()]),
  solvedAt: Type.Union([DateTime, Type.Null()]),
  /** Messages the reader may see. */
  messageCount: Type.Integer(),
  lastMessageAt: DateTime,
});
export type SupportTicket = Type.Static<typeof SupportTicket>;

export const SupportTicketDetail = Type.Object({
  ticket: SupportTicket,
  /** Oldest first. */
  messages: Type.Array(SupportMessage),
});
export type SupportTicketDetail = Type.Static<typeof SupportTicketDetail>;

export const AttachmentUpload = FileUpload(ATTACHMENT_MAX_BYTES);
export type AttachmentUpload = Type.Static<typeof AttachmentUpload>;

/** Largest request body of a message with attachments: five files in base64 plus the texts. */
export const SUPPORT_BODY_LIMIT =
  ATTACHMENTS_PER_MESSAGE_MAX * base64MaxLength(ATTACHMENT_MAX_BYTES) + 4 * TICKET_BODY_MAX + 64 * 1024;

export const CreateTicketBody = Type.Object(
  {
    category: SupportCategorySchema,
    severity: SupportSeveritySchema,
    subject: Type.String({ maxLength: TICKET_SUBJECT_MAX }),
    description: Type.String({ maxLength: TICKET_BODY_MAX }),
    /** Allow support staff to open the account while this ticket is open. */
    staffAccessConsent: Type.Boolean(),
    // One more than allowed passes the schema, so the server answers with the field's own message.
    attachments: Type.Array(AttachmentUpload, { maxItems: ATTACHMENTS_PER_MESSAGE_MAX + 1 }),
  },
  { additionalProperties: false },
);
export type CreateTicketBody = Type.Static<typeof CreateTicketBody>;

export const ReplyBody = Type.Object(
  {
    body: Type.String({ maxLength: TICKET_BODY_MAX }),
    attachments: Type.Array(AttachmentUpload, { maxItems: ATTACHMENTS_PER_MESSAGE_MAX + 1 }),
  },
  { additionalProperties: false },
);
export type ReplyBody = Type.Static<typeof ReplyBody>;

export const ConsentBody = Type.Object(
  { staffAccessConsent: Type.Boolean() },
  { additionalProperties: false },
);
export type ConsentBody = Type.Static<typeof ConsentBody>;

export const TicketsQuery = Type.Object(
  {
    status: Type.Optional(TicketStatusSchema),
    /** `active`: OPEN and WAITING_FOR_CUSTOMER only. */
    state: Type.Optional(Type.Enum(['active'] as const)),
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: SUPPORT_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type TicketsQuery = Type.Static<typeof TicketsQuery>;

/** How to reach support and how fast it answers; from the server's configuration. */
export const SupportInfo = Type.Object({
  email: Type.String(),
  phone: Type.Union([Type.String(), Type.Null()]),
  /** Opening hours, e.g. Monday to Friday 08:00–17:00 in a time zone. */
  hours: Type.Object({
    days: Type.Array(Type.Integer({ minimum: 1, maximum: 7 })),
    from: Type.String(),
    to: Type.String(),
    timeZone: Type.String(),
  }),
  /** First response time per severity, in business hours. */
  responseHours: Type.Object({
    LOW: Type.Integer(),
    NORMAL: Type.Integer(),
    HIGH: Type.Integer(),
    CRITICAL: Type.Integer(),
  }),
});
export type SupportInfo = Type.Static<typeof SupportInfo>;

const TicketParams = Type.Object({ ticketUuid: Uuid });
const AttachmentParams = Type.Object({ ticketUuid: Uuid, fileUuid: Uuid });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const member = { min: 'EMPLOYEE' } as const;

export const supportRoutes = {
  getSupportInfo: defineRoute({
    method: 'GET',
    path: '/support/v1/info',
    summary: 'Contact channels, hours and response times of support',
    tags: ['support'],
    response: { 200: Entity(SupportInfo), 401: ErrorBody },
  }),
  listTickets: defineRoute({
    method: 'GET',
    path: '/support/v1/tickets',
    summary: "The account's tickets, newest first (EMPLOYEE: only their own), paginated",
    tags: ['support'],
    accountScoped: true,
    accountRole: member,
    querystring: TicketsQuery,
    response: { 200: List(SupportTicket), ...errors },
  }),
  createTicket: defineRoute({
    method: 'POST',
    path: '/support/v1/tickets',
    summary: 'Open a ticket with its description and up to 5 attachments (Idempotency-Key)',
    tags: ['support'],
    accountScoped: true,
    accountRole: member,
    body: CreateTicketBody,
    response: { 201: Entity(SupportTicketDetail), ...errors, 409: ErrorBody, 413: ErrorBody },
  }),
  getTicket: defineRoute({
    method: 'GET',
    path: '/support/v1/tickets/{ticketUuid}',
    summary: 'A ticket with its conversation',
    tags: ['support'],
    accountScoped: true,
    accountRole: member,
    params: TicketParams,
    response: { 200: Entity(SupportTicketDetail), ...errors },
  }),
  replyToTicket: defineRoute({
    method: 'POST',
    path: '/support/v1/tickets/{ticketUuid}/messages',
    summary: 'Reply to a ticket, with up to 5 attachments',
    tags: ['support'],
    accountScoped: true,
    accountRole: member,
    params: TicketParams,
    body: ReplyBody,
    response: { 201: Entity(SupportTicketDetail), ...errors, 409: ErrorBody, 413: ErrorBody },
  }),
  reopenTicket: defineRoute({
    method: 'POST',
    path: '/support/v1/tickets/{ticketUuid}/reopen',
    summary: 'Reopen a ticket within 14 days of it being solved',
    tags: ['support'],
    accountScoped: true,
    accountRole: member,
    params: TicketParams,
    response: { 200: Entity(SupportTicketDetail), ...errors, 409: ErrorBody },
  }),
  closeTicket: defineRoute({
    method: 'POST',
    path: '/support/v1/tickets/{ticketUuid}/close',
    summary: 'Close a ticket that needs no more help',
    tags: ['support'],
    accountScoped: true,
    accountRole: member,
    params: TicketParams,
    response: { 200: Entity(SupportTicketDetail), ...errors, 409: ErrorBody },
  }),
  setTicketConsent: defineRoute({
    method: 'PUT',
    path: '/support/v1/tickets/{ticketUuid}/consent',
    summary:
      'The customer allows support staff to open the account (only on an open ticket, until it is solved or closed) or ends that at any time',
    tags: ['support'],
    accountScoped: true,
    accountRole: member,
    params: TicketParams,
    body: ConsentBody,
    response: { 200: Entity(SupportTicketDetail), ...errors, 409: ErrorBody },
  }),
  getTicketAttachment: defineRoute({
    method: 'GET',
    path: '/support/v1/tickets/{ticketUuid}/attachments/{fileUuid}',
    summary: 'An attachment of a ticket, for those who may read the ticket',
    tags: ['support'],
    accountScoped: true,
    accountRole: member,
    params: AttachmentParams,
    response: { 200: FileBytes, ...errors },
  }),
};
