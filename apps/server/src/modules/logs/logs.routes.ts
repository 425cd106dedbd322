import { logsRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import { logsCsv } from './logs.csv.ts';
import {
  checkRange,
  exportFileName,
  listLogActors,
  listLogs,
  readLogBatches,
  readerLanguage,
} from './logs.service.ts';

/**
 * The account's audit log: pages, the actor filter's choices and the CSV export. Reading only: the log has no
 * route that changes or deletes an entry.
 */
export function registerLogsRoutes({ db, route }: ModuleDeps) {
  route(logsRoutes.listLogs, {
    handler: async (request) => listLogs(db, request.user, request.account, request.query),
  });

  route(logsRoutes.listLogActors, {
    handler: async (request) => ({ data: await listLogActors(db, request.user, request.account) }),
  });

  route(logsRoutes.exportLogs, {
    handler: async (request, reply) => {
      // Refused input must answer 422 before the first byte of the file is sent.
      checkRange(request.query);
      const language = readerLanguage(request.user, request.query.lang);
      const filters = { ...request.query, lang: language };
      const name = await exportFileName(db, request.account);
      reply
        .type('text/csv; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="${name.ascii}"; filename*=UTF-8''${encodeURIComponent(name.utf8)}`,
        )
        .header('Cache-Control', 'no-store');
      const batches = readLogBatches(db, request.user, request.account, filters);
      // A stream is sent as it is read, not serialised; the schema's string type documents it.
      return reply.send(logsCsv(batches, language)) as never;
    },
  });
}
