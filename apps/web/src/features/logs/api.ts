// The logs area's data layer: pages of the account log (keyset, one query per filter set, pages appended as the
// user asks for more), the people the actor filter offers, and the CSV export. The log is read-only: there is
// no mutation of an entry. Errors are toasted by the query client (api/query-client.ts).
import { infiniteQueryOptions, queryOptions, useMutation } from '@tanstack/react-query';
import { logsRoutes, type LogsExportQuery, type LogsQuery } from '@portal/contract';
import { apiRequest, buildHeaders, buildUrl } from '@/api/client.ts';
import { ApiError } from '@/api/errors.ts';
import { saveFile } from '@/api/save-file.ts';

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

/** The file name the server gives (RFC 6266 `filename*` first), or a fallback. */
function fileNameOf(disposition: string | null): string {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  if (utf8) return decodeURIComponent(utf8[1]!);
  return /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? 'log.csv';
}

/** Downloads the filtered log as CSV: the server streams it; the browser saves it under the server's name. */
export function useExportLogs(accountUuid: string) {
  return useMutation({
    mutationFn: async (query: LogsExportQuery) => {
      const response = await fetch(buildUrl(logsRoutes.exportLogs, { accountUuid, query }), {
        headers: buildHeaders(false, { Accept: 'text/csv' }),
        credentials: 'same-origin',
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { message?: string; code?: string };
        throw new ApiError(
          response.status,
          body.message ?? response.statusText,
          body.code ?? `HTTP_${response.status}`,
        );
      }
      saveFile(await response.blob(), fileNameOf(response.headers.get('Content-Disposition')));
    },
  });
}
