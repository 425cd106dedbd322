import { ownershipRoutes } from '@portal/contract';
import type { ModuleDeps } from '../../http/route.ts';
import { transferOfferMail } from './ownership.mails.ts';
import {
  acceptTransfer,
  closeTransfer,
  getMyPendingTransfer,
  getOwnership,
  listCandidates,
  startTransfer,
} from './ownership.service.ts';

/**
 * The ownership of an account: who owns it, and its transfer — the owner offers it to an admin, who accepts or
 * declines; the owner can cancel it until then. The contract gives each route its role rule; who answers a
 * transfer is checked in the service.
 */
export function registerOwnershipRoutes({ db, route, mailer }: ModuleDeps) {
  route(ownershipRoutes.getOwnership, {
    handler: async (request) => ({ data: await getOwnership(db, request.account) }),
  });

  route(ownershipRoutes.listTransferCandidates, {
    handler: async (request) => listCandidates(db, request.account, request.query),
  });

  route(ownershipRoutes.getMyPendingTransfer, {
    handler: async (request) => ({ data: await getMyPendingTransfer(db, request.user, request.account) }),
  });

  route(ownershipRoutes.startTransfer, {
    idempotent: true,
    handler: async (request, reply) => {
      const { transfer, recipientLanguage } = await startTransfer(
        db,
        request.user,
        request.account,
        request.body,
      );
      const { publicUrl, productName } = request.server.config;
      // The offer stands once recorded: the recipient also finds it on their dashboard if the mail is lost.
      try {
        await mailer.send(
          transferOfferMail({
            to: { email: transfer.to.email, name: transfer.to.name, language: recipientLanguage },
            ownerName: transfer.from.name,
            accountName: transfer.accountName,
            expiresAt: new Date(transfer.expiresAt),
            link: `${publicUrl}/?uuid=${transfer.accountUuid}`,
            product: productName,
          }),
        );
      } catch (error) {
        request.log.error({ err: error, transfer: transfer.uuid }, 'ownership transfer mail not sent');
      }
      reply.code(201);
      return { data: transfer };
    },
  });

  route(ownershipRoutes.cancelTransfer, {
    handler: async (request) => ({
      data: await closeTransfer(db, request.user, request.account, request.params.id, 'CANCELLED'),
    }),
  });

  route(ownershipRoutes.acceptTransfer, {
    handler: async (request) => ({
      data: await acceptTransfer(db, request.user, request.account, request.params.id),
    }),
  });

  route(ownershipRoutes.declineTransfer, {
    handler: async (request) => ({
      data: await closeTransfer(db, request.user, request.account, request.params.id, 'DECLINED'),
    }),
  });
}
