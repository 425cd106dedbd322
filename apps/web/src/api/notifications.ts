// The notifications' shared data: the query keys of the whole area and the unread count (the shell's badge and the
// document title). Every key starts with ['notifications'], so one invalidation of that prefix (a live event, a
// change in another tab) refreshes the inbox, the item, the badge and the title together; nothing is counted
// locally. The email preferences are the profile's (features/profile/api.ts): the shell loads this file, and their
// update, a mutation, need not come with it (decision 255).
import { queryOptions } from '@tanstack/react-query';
import { notificationsRoutes, type NotificationsQuery } from '@portal/contract';
import { apiRequest } from './client.ts';

export const notificationKeys = {
  all: ['notifications'] as const,
  account: (accountUuid: string) => ['notifications', accountUuid] as const,
  list: (accountUuid: string, query: NotificationsQuery) =>
    ['notifications', accountUuid, 'list', query] as const,
  item: (accountUuid: string, uuid: string) => ['notifications', accountUuid, 'item', uuid] as const,
  unreadCount: (accountUuid: string) => ['notifications', accountUuid, 'unread-count'] as const,
  preferences: ['notifications', 'preferences'] as const,
  /** The shell's announcement bars: under the same prefix, so the live event of a new announcement shows them. */
  currentAnnouncements: ['notifications', 'current-announcements'] as const,
};

/** The caller's unread notifications in the account, as the server counts them. */
export function unreadCountQuery(accountUuid: string) {
  return queryOptions({
    queryKey: notificationKeys.unreadCount(accountUuid),
    queryFn: async ({ signal }) =>
      (await apiRequest(notificationsRoutes.getUnreadCount, { accountUuid, signal })).data.count,
    staleTime: 0,
    meta: { silentError: true },
  });
}
