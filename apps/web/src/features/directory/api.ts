// The account directory's data layer: one search across accounts for support staff (decision 229). The answer
// leaves out what the caller's role may not see; the page shows what came. Pages follow the server's keyset cursor
// and are appended as staff ask for more, as the log's (decision 252). Every visit reads it anew (accounts change
// while staff look).
import { infiniteQueryOptions, keepPreviousData } from '@tanstack/react-query';
import { directoryRoutes, type DirectoryQuery } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';

export type DirectoryFilters = Omit<DirectoryQuery, 'cursor' | 'pageSize'>;

/** The directory's pages for one search (or every account), by name; the next page continues after the last. */
export function directoryQuery(filters: DirectoryFilters) {
  return infiniteQueryOptions({
    queryKey: ['directory', filters],
    queryFn: ({ pageParam, signal }) =>
      apiRequest(directoryRoutes.searchDirectory, { query: { ...filters, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.meta.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
