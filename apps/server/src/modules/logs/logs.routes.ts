import { isLanguage, logsRoutes, type Language } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import { logsCsv } from './logs.csv.ts';
import { checkRange, exportFileName, listLogActors, listLogs, readLogBatches } from './logs.service.ts';

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
      const { lang, ...filters } = request.query;
      // Refused input must answer 422 before the first byte of the file is sent.
      checkRange(filters);
      const language: Language = lang ?? (isLanguage(request.user.language) ? request.user.language : 'de');
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
