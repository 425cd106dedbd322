import type { FastifyReply } from 'fastify';
import { membersRoutes } from '@portal/contract';
import { listAccountsOf } from '../../access/accounts.ts';
import { answerInvitation } from '../../access/invitations.ts';
import type { Config } from '../../config.ts';
import { wholeList } from '../../db/paging.ts';
import { notFound } from '../../http/errors.ts';
import type { ModuleDeps } from '../deps.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { invitationMail } from './invitation-mail.ts';
import {
  invite,
  readInvitationLink,
  resendInvitation,
  revokeInvitation,
  type PendingMail,
} from './invitations.service.ts';
import { getMember, listMembers, removeMember, updateMember } from './members.service.ts';

/** The link of an invitation mail: the invitation page with the one-time token and the invited address. */
export function invitationLink(config: Pick<Config, 'publicUrl'>, mail: Pick<PendingMail, 'token' | 'to'>) {
  const query = new URLSearchParams({ token: mail.token, email: mail.to });
  return `${config.publicUrl}/invite/verify?${query.toString()}`;
}

/** A change that answers 204 with no body once it is done. */
async function noContent(reply: FastifyReply, change: Promise<unknown>): Promise<null> {
  await change;
  reply.code(204);
  return null;
}

/** Sends the mails of invitations whose transaction has committed. */
async function sendMails(mailer: Mailer, config: Config, mails: PendingMail[]) {
  for (const mail of mails) {
    await mailer.send(
      invitationMail({ ...mail, link: invitationLink(config, mail), product: config.productName }),
    );
  }
}

/**
 * The people of an account: members and invitations (ADMIN and above, checked by the contract's role rule), and
 * the invitation link a mail carries, answered by the invited person.
 */
export function registerMembersRoutes(deps: ModuleDeps) {
  const { db, route, mailer, notifier } = deps;

  route(membersRoutes.listMembers, {
    handler: async (request) =>
      listMembers(db, request.user, request.account, request.query, deps.config.oidc.embedded),
  });

  route(membersRoutes.getMember, {
    handler: async (request) => ({
      data: await getMember(db, request.user, request.account, request.params.id),
    }),
  });

  route(membersRoutes.updateMember, {
    handler: async (request) => ({
      data: await updateMember(db, notifier, request.user, request.account, request.params.id, request.body),
    }),
  });

  route(membersRoutes.removeMember, {
    handler: async (request, reply) =>
      noContent(reply, removeMember(db, notifier, request.user, request.account, request.params.id)),
  });

  route(membersRoutes.invite, {
    idempotent: true,
    handler: async (request, reply) => {
      const { members, mails } = await invite(db, notifier, request.user, request.account, request.body);
      await sendMails(mailer, request.server.config, mails);
      reply.code(201);
      return wholeList(members);
    },
  });

  route(membersRoutes.resendInvitation, {
    handler: async (request) => {
      const { member, mail } = await resendInvitation(db, request.user, request.account, request.params.id);
      await sendMails(mailer, request.server.config, [mail]);
      return { data: member };
    },
  });

  route(membersRoutes.revokeInvitation, {
    handler: async (request, reply) =>
      noContent(reply, revokeInvitation(db, request.user, request.account, request.params.id)),
  });

  route(membersRoutes.readInvitationLink, {
    handler: async (request) => ({ data: await readInvitationLink(db, request.user, request.params.token) }),
  });

  route(membersRoutes.acceptInvitationLink, {
    handler: async (request) => {
      const account = await db.transaction(async (tx) => {
        const accountUuid = await answerInvitation(
          tx,
          request.user,
          { token: request.params.token },
          'ACCEPTED',
          notifier,
        );
        return (await listAccountsOf(tx, request.user)).find((a) => a.uuid === accountUuid);
      });
      if (!account) throw notFound();
      return { data: account };
    },
  });

  route(membersRoutes.declineInvitationLink, {
    handler: async (request, reply) => {
      await db.transaction((tx) =>
        answerInvitation(tx, request.user, { token: request.params.token }, 'DECLINED', notifier),
      );
      reply.code(204);
      return null;
    },
  });
}
