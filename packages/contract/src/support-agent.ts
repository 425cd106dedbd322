import Type from 'typebox';
import { DateTime, Entity, ErrorBody, List, USER_ROLES, Uuid, hasLevel, type UserRole } from './common.ts';
import { defineRoute } from './route.ts';

/** Statuses of a ticket, in the order of its life. */
export const AGENT_TICKET_STATUSES = ['OPEN', 'WAITING_FOR_CUSTOMER', 'SOLVED', 'CLOSED'] as const;
export type AgentTicketStatus = (typeof AGENT_TICKET_STATUSES)[number];
export const AgentTicketStatusSchema = Type.Enum(AGENT_TICKET_STATUSES);

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

/** Longest reply or internal note, in characters. */
export const AGENT_MESSAGE_MAX = 10_000;
/** Largest page of the queue. */
export const QUEUE_PAGE_SIZE_MAX = 100;
/** Longest waiting time a filter can ask for, in hours (a year). */
export const QUEUE_WAITING_HOURS_MAX = 8_760;

/** `ACTIVE`: open or waiting for the customer (the default); `ALL`: every status. */
export const QUEUE_STATUS_FILTERS = ['ACTIVE', ...AGENT_TICKET_STATUSES, 'ALL'] as const;
export type QueueStatusFilter = (typeof QUEUE_STATUS_FILTERS)[number];

/** `mine`: assigned to the caller; `unassigned`: to nobody; or one agent's uuid. */
export const QueueAssignee = Type.Union([Type.Enum(['mine', 'unassigned'] as const), Uuid]);

export const QueueQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(QUEUE_STATUS_FILTERS)),
    severity: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    assignee: Type.Optional(QueueAssignee),
    /** Only tickets whose customer has waited for an answer at least this many hours. */
    waitingHours: Type.Optional(Type.Integer({ minimum: 1, maximum: QUEUE_WAITING_HOURS_MAX })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: QUEUE_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type QueueQuery = Type.Static<typeof QueueQuery>;

const Person = Type.Object({ uuid: Uuid, name: Type.String(), email: Type.String() });
const NullablePerson = Type.Union([Person, Type.Null()]);

/** A ticket as the queue lists it (across accounts). */
export const QueueTicket = Type.Object({
  uuid: Uuid,
  number: Type.Integer(),
  subject: Type.String(),
  category: Type.String(),
  severity: Type.String(),
  status: AgentTicketStatusSchema,
  accountUuid: Uuid,
  accountName: Type.String(),
  assignee: NullablePerson,
  /** Since when the customer's last word waits for an agent; null when nothing waits. */
  awaitingAgentSince: Type.Union([DateTime, Type.Null()]),
  staffAccessConsent: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type QueueTicket = Type.Static<typeof QueueTicket>;

export const AgentAttachment = Type.Object({
  uuid: Uuid,
  fileName: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
});
export type AgentAttachment = Type.Static<typeof AgentAttachment>;

/** One message of the conversation as agents see it: internal notes included, and marked. */
export const AgentMessage = Type.Object({
  uuid: Uuid,
  authorKind: Type.Enum(['CUSTOMER', 'AGENT'] as const),
  author: NullablePerson,
  /** An agents-only note: never shown to the customer, never in a notification. */
  internal: Type.Boolean(),
  body: Type.String(),
  attachments: Type.Array(AgentAttachment),
  createdAt: DateTime,
});
export type AgentMessage = Type.Static<typeof AgentMessage>;

export const AgentTicket = Type.Object({
  ...QueueTicket.properties,
  createdBy: NullablePerson,
  solvedAt: Type.Union([DateTime, Type.Null()]),
  messages: Type.Array(AgentMessage),
});
export type AgentTicket = Type.Static<typeof AgentTicket>;

/** A staff user who can own tickets (for the assign control). */
export const SupportAgent = Type.Object({ ...Person.properties, isSelf: Type.Boolean() });
export type SupportAgent = Type.Static<typeof SupportAgent>;

const MessageText = Type.String({ minLength: 1, maxLength: AGENT_MESSAGE_MAX });

export const AgentReplyBody = Type.Object(
  {
    body: MessageText,
    /** Sets the status in the same step (e.g. answer and wait for the customer). */
    status: Type.Optional(AgentTicketStatusSchema),
  },
  { additionalProperties: false },
);
export type AgentReplyBody = Type.Static<typeof AgentReplyBody>;

export const AgentNoteBody = Type.Object({ body: MessageText }, { additionalProperties: false });
export type AgentNoteBody = Type.Static<typeof AgentNoteBody>;

export const AgentStatusBody = Type.Object(
  { status: AgentTicketStatusSchema },
  { additionalProperties: false },
);
export type AgentStatusBody = Type.Static<typeof AgentStatusBody>;

export const AgentAssignBody = Type.Object(
  { assigneeUuid: Type.Union([Uuid, Type.Null()]) },
  { additionalProperties: false },
);
export type AgentAssignBody = Type.Static<typeof AgentAssignBody>;

const TicketParams = Type.Object({ ticketUuid: Uuid });
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
    response: { 200: Entity(AgentTicket), ...errors },
  }),
  agentReply: defineRoute({
    method: 'POST',
    path: '/support/v1/agent/tickets/{ticketUuid}/replies',
    summary: "Answer the customer, optionally setting the ticket's status (SUPPORT_AGENT and above)",
    tags,
    params: TicketParams,
    body: AgentReplyBody,
    response: { 201: Entity(AgentTicket), ...errors, 409: ErrorBody },
  }),
  agentNote: defineRoute({
    method: 'POST',
    path: '/support/v1/agent/tickets/{ticketUuid}/notes',
    summary: 'Write an internal note other agents read; the customer never sees it (support staff)',
    tags,
    params: TicketParams,
    body: AgentNoteBody,
    response: { 201: Entity(AgentTicket), ...errors },
  }),
  agentStatus: defineRoute({
    method: 'PUT',
    path: '/support/v1/agent/tickets/{ticketUuid}/status',
    summary: "Change the ticket's status (SUPPORT_AGENT and above)",
    tags,
    params: TicketParams,
    body: AgentStatusBody,
    response: { 200: Entity(AgentTicket), ...errors, 409: ErrorBody },
  }),
  agentAssign: defineRoute({
    method: 'PUT',
    path: '/support/v1/agent/tickets/{ticketUuid}/assignee',
    summary: 'Take a ticket or give it back (SUPPORT_AGENT), or hand it to another agent (SUPPORT_MANAGER)',
    tags,
    params: TicketParams,
    body: AgentAssignBody,
    response: { 200: Entity(AgentTicket), ...errors },
  }),
  agentList: defineRoute({
    method: 'GET',
    path: '/support/v1/agent/agents',
    summary: 'The staff users who can own tickets (support staff)',
    tags,
    response: { 200: List(SupportAgent), ...errors },
  }),
};
