// The account directory's data layer: one search across accounts for support staff (decision 229). The answer
// leaves out what the caller's role may not see; the page shows what came. Every visit reads it anew (accounts
// change while staff look).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { directoryRoutes, type DirectoryQuery } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';

export function directoryQuery(query: DirectoryQuery) {
  return queryOptions({
    queryKey: ['directory', query],
    queryFn: ({ signal }) => apiRequest(directoryRoutes.searchDirectory, { query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
