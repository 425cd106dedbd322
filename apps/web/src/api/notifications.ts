// The notifications' shared data: the query keys of the whole area, the unread count (the shell's badge and the
// document title) and the email preferences (the profile page). Every key starts with ['notifications'], so one
// invalidation of that prefix (a live event, a change in another tab) refreshes the inbox, the item, the badge
// and the title together; nothing is counted locally.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationsRoutes, type NotificationPreference, type NotificationsQuery } from '@portal/contract';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';
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

export const notificationPreferencesQuery = queryOptions({
  queryKey: notificationKeys.preferences,
  queryFn: async ({ signal }) =>
    (await apiRequest(notificationsRoutes.getNotificationPreferences, { signal })).data.preferences,
});

/** Switches the email of one or more types; the answer (every type's setting) replaces the cached list. */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (preferences: NotificationPreference[]) =>
      apiRequest(notificationsRoutes.updateNotificationPreferences, { body: { preferences } }),
    onSuccess: ({ data }) => {
      queryClient.setQueryData(notificationKeys.preferences, data.preferences);
      toast.success(later('notifications.preferences.saved'));
    },
  });
}
