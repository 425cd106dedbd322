import { usersRoutes } from '@portal/contract';
import { wholeList } from '../../db/paging.ts';
import { notFound } from '../../http/errors.ts';
import type { ModuleDeps } from '../deps.ts';
import { answerInvitation, leaveAccount, listMyAccounts, toUser, updateMe } from './users.service.ts';

/** The signed-in user: the me resource, their accounts and their invitations. */
export function registerUsersRoutes(deps: ModuleDeps) {
  const { db, route, notifier } = deps;

  route(usersRoutes.getMe, {
    handler: async (request) => ({ data: toUser(request.user) }),
  });

  route(usersRoutes.updateMe, {
    handler: async (request) => ({
      data: await updateMe(db, request.user, request.body, {
        embeddedSignIn: request.server.config.oidc.embedded,
      }),
    }),
  });

  route(usersRoutes.listMyAccounts, {
    handler: async (request) => {
      return wholeList(await listMyAccounts(db, request.user));
    },
  });

  route(usersRoutes.acceptInvitation, {
    handler: async (request) => {
      const account = await answerInvitation(db, request.user, request.params.id, 'ACCEPTED', notifier);
      if (!account) throw notFound();
      return { data: account };
    },
  });

  route(usersRoutes.declineInvitation, {
    handler: async (request, reply) => {
      await answerInvitation(db, request.user, request.params.id, 'DECLINED', notifier);
      reply.code(204);
      return null;
    },
  });

  route(usersRoutes.leaveAccount, {
    handler: async (request, reply) => {
      await leaveAccount(db, request.user, request.params.id);
      reply.code(204);
      return null;
    },
  });
}
