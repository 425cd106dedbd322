import Type from 'typebox';
import { Entity, ErrorBody, List, USER_ROLES, Uuid, hasLevel, type UserRole, PageNumber } from './common.ts';
import { FileBytes } from './company.ts';
import {
  ATTACHMENTS_PER_MESSAGE_MAX,
  AttachmentUpload,
  SupportCategorySchema,
  SupportMessage,
  SupportSeveritySchema,
  SupportTicket,
  TICKET_BODY_MAX,
  TICKET_STATUSES,
  TicketStatusSchema,
} from './support.ts';
import { defineRoute } from './route.ts';

/**
 * What support staff may do with tickets, each with the lowest user role that may (user roles are a level
 * order: SUPPORT < SUPPORT_AGENT < SUPPORT_MANAGER < PORTAL_ADMIN). SUPPORT reads and writes internal notes;
 * SUPPORT_AGENT also answers customers, changes the status and takes tickets; SUPPORT_MANAGER also hands tickets
 * to another agent.
 */
export const SUPPORT_ACTION_ROLES = {
  read: 'SUPPORT',
  note: 'SUPPORT',
  reply: 'SUPPORT_AGENT',
  status: 'SUPPORT_AGENT',
  assignSelf: 'SUPPORT_AGENT',
  assignOther: 'SUPPORT_MANAGER',
} as const satisfies Record<string, UserRole>;
export type SupportAction = keyof typeof SUPPORT_ACTION_ROLES;

/** Whether a user role may do a support action (the server enforces it, the web mirrors it). */
export function maySupport(role: UserRole | null | undefined, action: SupportAction): boolean {
  return hasLevel(USER_ROLES, role, SUPPORT_ACTION_ROLES[action]);
}

/** Only who may answer customers can own a ticket. */
export function mayBeAssignee(role: UserRole | null | undefined): boolean {
  return maySupport(role, 'assignSelf');
}

/** Largest page of the queue. */
export const QUEUE_PAGE_SIZE_MAX = 100;
/** Longest waiting time a filter can ask for, in hours (a year). */
export const QUEUE_WAITING_HOURS_MAX = 8_760;

/** `ACTIVE`: open or waiting for the customer (the default); `ALL`: every status. */
export const QUEUE_STATUS_FILTERS = ['ACTIVE', ...TICKET_STATUSES, 'ALL'] as const;
export type QueueStatusFilter = (typeof QUEUE_STATUS_FILTERS)[number];

/** `mine`: assigned to the caller; `unassigned`: to nobody; or one agent's uuid. */
export const QueueAssignee = Type.Union([Type.Enum(['mine', 'unassigned'] as const), Uuid]);

export const QueueQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(QUEUE_STATUS_FILTERS)),
    severity: Type.Optional(SupportSeveritySchema),
    category: Type.Optional(SupportCategorySchema),
    assignee: Type.Optional(QueueAssignee),
    /** Only tickets whose customer has waited for an answer at least this many hours. */
    waitingHours: Type.Optional(Type.Integer({ minimum: 1, maximum: QUEUE_WAITING_HOURS_MAX })),
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: QUEUE_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type QueueQuery = Type.Static<typeof QueueQuery>;

/** A ticket as agents see it across accounts: with its account's name; counts include internal notes. */
export const QueueTicket = Type.Object({ ...SupportTicket.properties, accountName: Type.String() });
export type QueueTicket = Type.Static<typeof QueueTicket>;

/** One ticket for agents: the whole conversation, internal notes included and marked (`internal`). */
export const AgentTicketDetail = Type.Object({
  ticket: QueueTicket,
  messages: Type.Array(SupportMessage),
});
export type AgentTicketDetail = Type.Static<typeof AgentTicketDetail>;

/** A staff user who can own tickets (for the assign control). */
export const SupportAgent = Type.Object({
  uuid: Uuid,
  name: Type.String(),
  email: Type.String(),
  isSelf: Type.Boolean(),
});
export type SupportAgent = Type.Static<typeof SupportAgent>;

const MessageText = Type.String({ minLength: 1, maxLength: TICKET_BODY_MAX });
/**
 * Files of an answer or a note, with the customer's limits (five files of at most 10 MB each, the type judged
 * from the content); none when left out. One more than allowed passes the schema, so the server answers with the
 * field's own message.
 */
const MessageAttachments = Type.Optional(
  Type.Array(AttachmentUpload, { maxItems: ATTACHMENTS_PER_MESSAGE_MAX + 1 }),
);

export const AgentReplyBody = Type.Object(
  {
    body: MessageText,
    attachments: MessageAttachments,
    /** Sets the status in the same step (e.g. answer and wait for the customer). */
    status: Type.Optional(TicketStatusSchema),
  },
  { additionalProperties: false },
);
export type AgentReplyBody = Type.Static<typeof AgentReplyBody>;

export const AgentNoteBody = Type.Object(
  { body: MessageText, attachments: MessageAttachments },
  { additionalProperties: false },
);
export type AgentNoteBody = Type.Static<typeof AgentNoteBody>;

export const AgentStatusBody = Type.Object({ status: TicketStatusSchema }, { additionalProperties: false });
export type AgentStatusBody = Type.Static<typeof AgentStatusBody>;

export const AgentAssignBody = Type.Object(
  { assigneeUuid: Type.Union([Uuid, Type.Null()]) },
  { additionalProperties: false },
);
export type AgentAssignBody = Type.Static<typeof AgentAssignBody>;

const TicketParams = Type.Object({ ticketUuid: Uuid });
const AttachmentParams = Type.Object({ ticketUuid: Uuid, fileUuid: Uuid });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const tags = ['support-agent'];

/**
 * The agents' side of support, across accounts: the queue, a ticket with its whole conversation, and the
 * actions on it. Not account routes: the caller's user role decides (403 below the action's role).
 */
export const supportAgentRoutes = {
  agentQueue: defineRoute({
    method: 'GET',
    path: '/support/v1/agent/tickets',
    summary: 'The support queue across accounts: filtered, longest waiting first, paginated (support staff)',
    tags,
    querystring: QueueQuery,
    response: { 200: List(QueueTicket), ...errors },
  }),
  agentTicket: defineRoute({
    method: 'GET',
    path: '/support/v1/agent/tickets/{ticketUuid}',
    summary: 'One ticket with its whole conversation, internal notes included (support staff)',
    tags,
    params: TicketParams,
    response: { 200: Entity(AgentTicketDetail), ...errors },
  }),
  agentReply: defineRoute({
    method: 'POST',
    path: '/support/v1/agent/tickets/{ticketUuid}/replies',
    summary:
      "Answer the customer with up to 5 attachments, optionally setting the ticket's status (SUPPORT_AGENT and above)",
    tags,
    params: TicketParams,
    body: AgentReplyBody,
    response: { 201: Entity(AgentTicketDetail), ...errors, 409: ErrorBody, 413: ErrorBody },
  }),
  agentNote: defineRoute({
    method: 'POST',
    path: '/support/v1/agent/tickets/{ticketUuid}/notes',
    summary:
      'Write an internal note, with up to 5 attachments, other agents read; the customer never sees it nor its files (support staff)',
    tags,
    params: TicketParams,
    body: AgentNoteBody,
    response: { 201: Entity(AgentTicketDetail), ...errors, 413: ErrorBody },
  }),
  agentStatus: defineRoute({
    method: 'PUT',
    path: '/support/v1/agent/tickets/{ticketUuid}/status',
    summary:
      "Change the ticket's status (SUPPORT_AGENT and above); solving or closing ends the customer's consent to staff access",
    tags,
    params: TicketParams,
    body: AgentStatusBody,
    response: { 200: Entity(AgentTicketDetail), ...errors, 409: ErrorBody },
  }),
  agentAssign: defineRoute({
    method: 'PUT',
    path: '/support/v1/agent/tickets/{ticketUuid}/assignee',
    summary: 'Take a ticket or give it back (SUPPORT_AGENT), or hand it to another agent (SUPPORT_MANAGER)',
    tags,
    params: TicketParams,
    body: AgentAssignBody,
    response: { 200: Entity(AgentTicketDetail), ...errors },
  }),
  agentAttachment: defineRoute({
    method: 'GET',
    path: '/support/v1/agent/tickets/{ticketUuid}/attachments/{fileUuid}',
    summary: "An attachment of a ticket's conversation, internal notes' included (support staff)",
    tags,
    params: AttachmentParams,
    response: { 200: FileBytes, ...errors },
  }),
  agentList: defineRoute({
    method: 'GET',
    path: '/support/v1/agent/agents',
    summary: 'The staff users who can own tickets (support staff)',
    tags,
    response: { 200: List(SupportAgent), ...errors },
  }),
};
