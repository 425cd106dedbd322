import { myDataRoutes } from '@portal/contract';
import { accountExportRoutes } from '@portal/contract/account-export';
import { contentDisposition } from '../../files/files.ts';
import { zipStream } from '../../files/zip.ts';
import type { ModuleDeps } from '../deps.ts';
import { deleteOwnLogin, deletionPreview } from './erasure.ts';
import {
  accountExportFileName,
  defineExportJob,
  getExportStatus,
  readyEntries,
  requestExport,
  zipEntries,
} from './my-data.export.ts';

/**
 * The person's own data: the export of it (decision 231) and the deletion of their login (decision 232); and the
 * export of an account's data for its owner, the same way (decision 240).
 */
export function registerMyDataRoutes(deps: ModuleDeps) {
  const { db, config, route, files, exportSources } = deps;
  defineExportJob(deps);

  route(myDataRoutes.getDataExport, {
    handler: async ({ user }) => ({ data: await getExportStatus(deps, user) }),
  });

  route(myDataRoutes.requestDataExport, {
    handler: async (request, reply) => {
      const data = await requestExport(deps, request.user, request.body);
      reply.code(202);
      return { data };
    },
  });

  route(myDataRoutes.downloadDataExport, {
    handler: async ({ user, params }, reply) => {
      const entries = await readyEntries(db, user, params.id);
      const day = new Date().toISOString().slice(0, 10);
      reply
        .header('Content-Type', 'application/zip')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', contentDisposition('attachment', `portal-data-${day}.zip`))
        .header('Cache-Control', 'private, no-store');
      const context = { db, files, sources: exportSources, reader: user, scope: { accountUuid: null } };
      return reply.send(zipStream(zipEntries(context, entries)));
    },
  });

  route(accountExportRoutes.getAccountExport, {
    handler: async ({ user, account }) => ({
      data: await getExportStatus(deps, user, { accountUuid: account.accountUuid }),
    }),
  });

  route(accountExportRoutes.requestAccountExport, {
    handler: async (request, reply) => {
      const data = await requestExport(deps, request.user, request.body, {
        accountUuid: request.account.accountUuid,
      });
      reply.code(202);
      return { data };
    },
  });

  route(accountExportRoutes.downloadAccountExport, {
    handler: async ({ user, account, params }, reply) => {
      const scope = { accountUuid: account.accountUuid };
      const entries = await readyEntries(db, user, params.id, scope);
      const name = await accountExportFileName(db, account.accountUuid);
      reply
        .header('Content-Type', 'application/zip')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', contentDisposition('attachment', name))
        .header('Cache-Control', 'private, no-store');
      // Streamed: each file is read from the store only when the client has taken what came before (decision 240).
      return reply.send(
        zipStream(zipEntries({ db, files, sources: exportSources, reader: user, scope }, entries)),
      );
    },
  });

  route(myDataRoutes.getLoginDeletion, {
    handler: async ({ user }) => ({ data: await deletionPreview(config, db, user) }),
  });

  route(myDataRoutes.deleteLogin, {
    handler: async (request, reply) => {
      await deleteOwnLogin(deps, request.user, request.body);
      reply.code(204);
      return null;
    },
  });
}
