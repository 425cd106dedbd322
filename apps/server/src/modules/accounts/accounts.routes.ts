import { accountsRoutes } from '@portal/contract';
import type { Db } from '../../db/client.ts';
import type { Route } from '../../http/route.ts';
import type { PortalUser } from '../../http/types.ts';
import {
  beginMigration,
  createAccount,
  getAccount,
  scheduleDeletion,
  updateAccount,
} from './accounts.service.ts';

/** Accounts the signed-in user works in: create, read, change, schedule deletion, migrate. */
export function registerAccountsRoutes(deps: { db: Db; route: Route }) {
  const { db, route } = deps;
  const me = (user: PortalUser | null) => user!;

  route(accountsRoutes.createAccount, {
    idempotent: true,
    handler: async (request, reply) => {
      const account = await createAccount(db, me(request.user), request.body);
      reply.code(201).header('Location', `/api/accounts/v1/accounts/${account.uuid}`);
      return { data: account };
    },
  });

  route(accountsRoutes.getAccount, {
    handler: async (request) => ({ data: await getAccount(db, me(request.user), request.params.id) }),
  });

  route(accountsRoutes.updateAccount, {
    handler: async (request) => ({
      data: await updateAccount(db, me(request.user), request.params.id, request.body),
    }),
  });

  route(accountsRoutes.deleteAccount, {
    handler: async (request) => {
      const { account, message } = await scheduleDeletion(db, me(request.user), request.params.id);
      return { data: account, message };
    },
  });

  route(accountsRoutes.beginMigration, {
    handler: async (request, reply) => {
      reply.code(202);
      return { data: await beginMigration(db, me(request.user), request.params.accountUuid) };
    },
  });
}
