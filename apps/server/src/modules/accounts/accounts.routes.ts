import { accountsRoutes } from '@portal/contract';
import type { ModuleDeps } from '../../http/route.ts';
import {
  beginMigration,
  createAccount,
  getAccount,
  scheduleDeletion,
  updateAccount,
} from './accounts.service.ts';

/**
 * Accounts the signed-in user works in: create, read, change, schedule deletion, migrate. The routes on one
 * account name it in their path; the contract gives each its role rule, checked before the handler runs.
 */
export function registerAccountsRoutes(deps: ModuleDeps) {
  const { db, route } = deps;

  route(accountsRoutes.createAccount, {
    idempotent: true,
    handler: async (request, reply) => {
      const account = await createAccount(db, request.user, request.body);
      reply.code(201).header('Location', `/api/accounts/v1/accounts/${account.uuid}`);
      return { data: account };
    },
  });

  route(accountsRoutes.getAccount, {
    handler: async (request) => ({ data: await getAccount(db, request.user, request.account) }),
  });

  route(accountsRoutes.updateAccount, {
    handler: async (request) => ({
      data: await updateAccount(db, request.user, request.account, request.body),
    }),
  });

  route(accountsRoutes.deleteAccount, {
    handler: async (request) => {
      const { account, message } = await scheduleDeletion(db, request.user, request.account);
      return { data: account, message };
    },
  });

  route(accountsRoutes.beginMigration, {
    handler: async (request, reply) => {
      reply.code(202);
      return { data: await beginMigration(db, request.user, request.account) };
    },
  });
}
