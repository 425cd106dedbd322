import { myDataRoutes } from '@portal/contract';
import { contentDisposition } from '../../files/files.ts';
import { zipStream } from '../../files/zip.ts';
import type { ModuleDeps } from '../deps.ts';
import { deleteOwnLogin, deletionPreview } from './erasure.ts';
import {
  defineExportJob,
  getExportStatus,
  readyEntries,
  requestExport,
  zipEntries,
} from './my-data.export.ts';

/** The person's own data: the export of it (decision 231) and the deletion of their login (decision 232). */
export function registerMyDataRoutes(deps: ModuleDeps) {
  const { db, config, route, files } = deps;
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
      return reply.send(zipStream(zipEntries(db, files, entries)));
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
