import { SUPPORT_BODY_LIMIT, supportRoutes } from '@portal/contract';
import { sendFile } from '../../files/files.ts';
import type { ModuleDeps } from '../deps.ts';
import {
  closeTicket,
  createTicket,
  getTicket,
  listTickets,
  readAttachment,
  reopenTicket,
  replyToTicket,
  setConsent,
} from './support.service.ts';

/**
 * Support, the customer's side: how to reach support (from the configuration), and the account's tickets with
 * their conversation, attachments, reopen, close and consent to staff access.
 */
export function registerSupportRoutes({ db, route, files }: ModuleDeps) {
  route(supportRoutes.getSupportInfo, {
    handler: async (request) => ({ data: request.server.config.support }),
  });

  route(supportRoutes.listTickets, {
    handler: async (request) => listTickets(db, request.user, request.account, request.query),
  });

  route(supportRoutes.createTicket, {
    idempotent: true,
    bodyLimit: SUPPORT_BODY_LIMIT,
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await createTicket(db, files, request.user, request.account, request.body) };
    },
  });

  route(supportRoutes.getTicket, {
    handler: async (request) => ({
      data: await getTicket(db, request.user, request.account, request.params.ticketUuid),
    }),
  });

  route(supportRoutes.replyToTicket, {
    bodyLimit: SUPPORT_BODY_LIMIT,
    handler: async (request, reply) => {
      const { user, account, params, body } = request;
      reply.code(201);
      return { data: await replyToTicket(db, files, user, account, params.ticketUuid, body) };
    },
  });

  route(supportRoutes.reopenTicket, {
    handler: async (request) => ({
      data: await reopenTicket(db, request.user, request.account, request.params.ticketUuid),
    }),
  });

  route(supportRoutes.closeTicket, {
    handler: async (request) => ({
      data: await closeTicket(db, request.user, request.account, request.params.ticketUuid),
    }),
  });

  route(supportRoutes.setTicketConsent, {
    handler: async (request) => ({
      data: await setConsent(db, request.user, request.account, request.params.ticketUuid, request.body),
    }),
  });

  route(supportRoutes.getTicketAttachment, {
    handler: async (request, reply) => {
      const { user, account, params } = request;
      const found = await readAttachment(db, files, user, account, params.ticketUuid, params.fileUuid);
      return sendFile(request, reply, found, 'attachment');
    },
  });
}
