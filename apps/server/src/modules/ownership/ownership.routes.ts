import type { FastifyRequest } from 'fastify';
import { ownershipRoutes, type OwnershipTransfer } from '@portal/contract';
import type { MailMessage } from '../../mail/mailer.ts';
import type { ModuleDeps } from '../deps.ts';
import { transferAnswerMail, transferOfferMail } from './ownership.mails.ts';
import {
  acceptTransfer,
  closeTransfer,
  getMyPendingTransfer,
  getOwnership,
  languageOfUser,
  listCandidates,
  startTransfer,
} from './ownership.service.ts';

/**
 * The ownership of an account: who owns it, and its transfer — the owner offers it to an admin, who accepts or
 * declines; the owner can cancel it until then. The contract gives each route its role rule; who answers a
 * transfer is checked in the service.
 */
export function registerOwnershipRoutes({ db, route, mailer, notifier }: ModuleDeps) {
  /**
   * Mails go out after the change has committed. One that fails is logged, not undone: the offer and its answer
   * stand, and both show in the portal (the recipient's dashboard, the owner's ownership page).
   */
  async function mail(
    request: FastifyRequest,
    transfer: OwnershipTransfer,
    build: () => Promise<MailMessage>,
  ) {
    try {
      await mailer.send(await build());
    } catch (error) {
      request.log.error({ err: error, transfer: transfer.uuid }, 'ownership transfer mail not sent');
    }
  }

  /** The owner who made the offer learns the admin's answer. */
  async function mailAnswer(request: FastifyRequest, transfer: OwnershipTransfer) {
    const answer = transfer.status === 'ACCEPTED' ? 'ACCEPTED' : 'DECLINED';
    const { publicUrl, productName } = request.server.config;
    await mail(request, transfer, async () =>
      transferAnswerMail({
        answer,
        to: { ...transfer.from, language: await languageOfUser(db, transfer.from.uuid) },
        adminName: transfer.to.name,
        accountName: transfer.accountName,
        link:
          answer === 'ACCEPTED'
            ? `${publicUrl}/?uuid=${transfer.accountUuid}`
            : `${publicUrl}/settings/ownership?uuid=${transfer.accountUuid}`,
        product: productName,
      }),
    );
  }

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
        notifier,
        request.user,
        request.account,
        request.body,
      );
      const { publicUrl, productName } = request.server.config;
      await mail(request, transfer, async () =>
        transferOfferMail({
          to: { email: transfer.to.email, name: transfer.to.name, language: recipientLanguage },
          ownerName: transfer.from.name,
          accountName: transfer.accountName,
          expiresAt: new Date(transfer.expiresAt),
          link: `${publicUrl}/?uuid=${transfer.accountUuid}`,
          product: productName,
        }),
      );
      reply.code(201);
      return { data: transfer };
    },
  });

  route(ownershipRoutes.cancelTransfer, {
    handler: async (request) => ({
      data: await closeTransfer(db, notifier, request.user, request.account, request.params.id, 'CANCELLED'),
    }),
  });

  route(ownershipRoutes.acceptTransfer, {
    handler: async (request) => {
      const transfer = await acceptTransfer(db, notifier, request.user, request.account, request.params.id);
      await mailAnswer(request, transfer);
      return { data: transfer };
    },
  });

  route(ownershipRoutes.declineTransfer, {
    handler: async (request) => {
      const transfer = await closeTransfer(
        db,
        notifier,
        request.user,
        request.account,
        request.params.id,
        'DECLINED',
      );
      await mailAnswer(request, transfer);
      return { data: transfer };
    },
  });
}
