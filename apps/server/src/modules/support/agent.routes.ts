import { SUPPORT_BODY_LIMIT, supportAgentRoutes } from '@portal/contract';
import { wholeList } from '../../db/paging.ts';
import { sendFile } from '../../files/files.ts';
import type { ModuleDeps } from '../deps.ts';
import {
  addInternalNote,
  assignTicket,
  changeTicketStatus,
  getAgentTicket,
  listAgents,
  listQueue,
  readAgentAttachment,
  replyToTicket,
} from './agent.service.ts';

/**
 * The agents' side of support, across accounts: the queue, a ticket with its conversation, and replies and internal
 * notes (with attachments), status and assignment. The caller's user role decides (the service refuses with 403).
 */
export function registerSupportAgentRoutes({ db, route, notifier, files }: ModuleDeps) {
  route(supportAgentRoutes.agentQueue, {
    handler: async (request) => listQueue(db, request.user, request.query),
  });

  route(supportAgentRoutes.agentTicket, {
    handler: async (request) => ({ data: await getAgentTicket(db, request.user, request.params.ticketUuid) }),
  });

  route(supportAgentRoutes.agentReply, {
    bodyLimit: SUPPORT_BODY_LIMIT,
    handler: async (request, reply) => {
      const { user, params, body } = request;
      const data = await replyToTicket(db, { notifier, files }, user, params.ticketUuid, body);
      reply.code(201);
      return { data };
    },
  });

  route(supportAgentRoutes.agentNote, {
    bodyLimit: SUPPORT_BODY_LIMIT,
    handler: async (request, reply) => {
      const data = await addInternalNote(db, files, request.user, request.params.ticketUuid, request.body);
      reply.code(201);
      return { data };
    },
  });

  route(supportAgentRoutes.agentStatus, {
    handler: async (request) => ({
      data: await changeTicketStatus(
        db,
        notifier,
        request.user,
        request.params.ticketUuid,
        request.body.status,
      ),
    }),
  });

  route(supportAgentRoutes.agentAssign, {
    handler: async (request) => ({
      data: await assignTicket(db, request.user, request.params.ticketUuid, request.body),
    }),
  });

  route(supportAgentRoutes.agentAttachment, {
    handler: async (request, reply) => {
      const { ticketUuid, fileUuid } = request.params;
      return sendFile(
        request,
        reply,
        await readAgentAttachment(db, files, request.user, ticketUuid, fileUuid),
      );
    },
  });

  route(supportAgentRoutes.agentList, {
    handler: async (request) => {
      return wholeList(await listAgents(db, request.user));
    },
  });
}
