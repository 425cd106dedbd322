import { usersRoutes } from '@portal/contract';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import type { Route } from '../../http/route.ts';
import type { PortalUser } from '../../http/types.ts';
import { answerInvitation, listMyAccounts, toUser, updateMe } from './users.service.ts';

/** The signed-in user: the me resource, their accounts and their invitations. */
export function registerUsersRoutes(deps: { db: Db; route: Route }) {
  const { db, route } = deps;
  const me = (user: PortalUser | null) => user!;

  route(usersRoutes.getMe, {
    handler: async (request) => ({ data: toUser(me(request.user)) }),
  });

  route(usersRoutes.updateMe, {
    handler: async (request) => ({ data: await updateMe(db, me(request.user), request.body) }),
  });

  route(usersRoutes.listMyAccounts, {
    handler: async (request) => {
      const accounts = await listMyAccounts(db, me(request.user));
      return { data: accounts, meta: { total: accounts.length, page: 1, pageSize: accounts.length } };
    },
  });

  route(usersRoutes.acceptInvitation, {
    handler: async (request) => {
      const account = await answerInvitation(db, me(request.user), request.params.id, 'ACCEPTED');
      if (!account) throw notFound();
      return { data: account };
    },
  });

  route(usersRoutes.declineInvitation, {
    handler: async (request, reply) => {
      await answerInvitation(db, me(request.user), request.params.id, 'DECLINED');
      reply.code(204);
      return null;
    },
  });
}
