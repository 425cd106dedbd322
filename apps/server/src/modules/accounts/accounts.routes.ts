import { accountsRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import {
  beginMigration,
  createAccount,
  getAccount,
  purgeDeletedAccounts,
  scheduleDeletion,
  updateAccount,
} from './accounts.service.ts';

declare module '../../jobs/runner.ts' {
  interface JobKinds {
    'accounts.purge-deleted': Record<string, never>;
  }
}

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Accounts the signed-in user works in: create, read, change, schedule deletion, migrate. The routes on one
 * account name it in their path; the contract gives each its role rule, checked before the handler runs.
 */
export function registerAccountsRoutes(deps: ModuleDeps) {
  const { db, route, jobs, notifier, invoicing, files } = deps;

  // Scheduled account deletions fall due while the server runs: one instance deletes them every hour, invoices kept
  // without the account's name (decision 243; deleting is idempotent).
  jobs.define('accounts.purge-deleted', {
    every: PURGE_INTERVAL_MS,
    handler: async ({ log }) => {
      const deleted = await purgeDeletedAccounts(db, files);
      if (deleted.length) log.info({ accounts: deleted }, 'deleted accounts past their deletion date');
    },
  });

  route(accountsRoutes.createAccount, {
    idempotent: true,
    handler: async (request, reply) => {
      const account = await createAccount(db, request.user, request.body, invoicing.config);
      reply.code(201).header('Location', `/api/accounts/v1/accounts/${account.uuid}`);
      return { data: account };
    },
  });

  route(accountsRoutes.getAccount, {
    handler: async (request) => ({ data: await getAccount(db, request.user, request.account) }),
  });

  route(accountsRoutes.updateAccount, {
    handler: async (request) => ({
      data: await updateAccount(db, notifier, request.user, request.account, request.body),
    }),
  });

  route(accountsRoutes.deleteAccount, {
    handler: async (request) => {
      const { account, message } = await scheduleDeletion(db, notifier, request.user, request.account);
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
