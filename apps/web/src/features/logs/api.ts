// The logs area's data layer: pages of the account log (keyset, one query per filter set, pages appended as the
// user asks for more), the people the actor filter offers, and the CSV export. The log is read-only: there is
// no mutation of an entry. Errors are toasted by the query client (api/query-client.ts).
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { logsRoutes, type LogsExportQuery, type LogsQuery } from '@portal/contract';
import { apiFile, apiRequest } from '@/api/client.ts';
import { useDownload } from '@/api/use-download.ts';

export type LogFilters = Omit<LogsQuery, 'cursor' | 'pageSize'>;

/** The log's pages for one account and filter set, newest first; the next page continues after the last. */
export function logsQuery(accountUuid: string, filters: LogFilters) {
  return infiniteQueryOptions({
    queryKey: ['logs', accountUuid, 'entries', filters],
    queryFn: ({ pageParam, signal }) =>
      apiRequest(logsRoutes.listLogs, { accountUuid, query: { ...filters, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.meta.nextCursor ?? undefined,
  });
}

export function logActorsQuery(accountUuid: string) {
  return queryOptions({
    queryKey: ['logs', accountUuid, 'actors'],
    queryFn: ({ signal }) => apiRequest(logsRoutes.listLogActors, { accountUuid, signal }),
    staleTime: 60_000,
  });
}

/** Downloads the filtered log as CSV: the server streams it; the browser saves it under the server's name. */
export function useExportLogs(accountUuid: string) {
  return useDownload(async (query: LogsExportQuery) => {
    const file = await apiFile(logsRoutes.exportLogs, { accountUuid, query });
    return { ...file, fileName: file.fileName ?? 'log.csv' };
  });
}
