// The notifications area's data layer: the inbox pages, one notification, and the changes to their state (read,
// unread, all read, archived, restored). Every key starts with ['notifications'] (`notificationKeys`, shared with the shell's
// badge and the profile's preferences in api/notifications.ts). After each change the whole prefix is
// invalidated, so the list, the item, the badge and the title are read anew from the server, never counted here.
// Errors are toasted by the query client.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { announcementsRoutes, notificationsRoutes, type NotificationsQuery } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { notificationKeys } from '@/api/notifications.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

export { unreadCountQuery } from '@/api/notifications.ts';

/** A page of the inbox (unread first, then newest); the previous page stays on screen while the next loads. */
export function notificationsQuery(accountUuid: string, query: NotificationsQuery) {
  return queryOptions({
    queryKey: notificationKeys.list(accountUuid, query),
    queryFn: ({ signal }) =>
      apiRequest(notificationsRoutes.listNotifications, { accountUuid, query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** One notification (an archived one too); a 404 (another user's, another account's) is shown by the page, not toasted. */
export function notificationQuery(accountUuid: string, uuid: string) {
  return queryOptions({
    queryKey: notificationKeys.item(accountUuid, uuid),
    queryFn: async ({ signal }) =>
      (await apiRequest(notificationsRoutes.getNotification, { accountUuid, params: { id: uuid }, signal }))
        .data,
    meta: { silentError: true },
    retry: false,
    staleTime: 0,
  });
}

function useInvalidateNotifications() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
}

/** Marks one notification read or unread. `quiet` for the automatic read on opening it (no toast). */
/** The whole text of an announcement that reached the reader (its notification's page shows it). */
export function announcementReadingQuery(announcementUuid: string) {
  return queryOptions({
    queryKey: ['notifications', 'announcement', announcementUuid],
    queryFn: async ({ signal }) =>
      (await apiRequest(announcementsRoutes.readAnnouncement, { params: { announcementUuid }, signal })).data,
  });
}

export function useSetNotificationRead(accountUuid: string) {
  const invalidate = useInvalidateNotifications();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ uuid, read }: { uuid: string; read: boolean; quiet?: boolean }) =>
      apiRequest(notificationsRoutes.updateNotification, {
        accountUuid,
        params: { id: uuid },
        body: { read },
      }),
    onSuccess: async (_answer, { read, quiet }) => {
      await invalidate();
      if (!quiet) toast.success(later(read ? 'notifications.markedRead' : 'notifications.markedUnread'));
    },
  });
}

/** Archives one notification (it leaves the inbox) or, with `restore`, moves an archived one back to it. */
function useArchiveChange(accountUuid: string, restore: boolean) {
  const invalidate = useInvalidateNotifications();
  const toast = useToast();
  const route = restore ? notificationsRoutes.restoreNotification : notificationsRoutes.archiveNotification;
  return useMutation({
    mutationFn: (uuid: string) => apiRequest(route, { accountUuid, params: { id: uuid } }),
    onSuccess: async () => {
      await invalidate();
      toast.success(later(restore ? 'notifications.restored' : 'notifications.archived'));
    },
  });
}

export const useArchiveNotification = (accountUuid: string) => useArchiveChange(accountUuid, false);
export const useRestoreNotification = (accountUuid: string) => useArchiveChange(accountUuid, true);

export function useMarkAllNotificationsRead(accountUuid: string) {
  const invalidate = useInvalidateNotifications();
  const toast = useToast();
  return useMutation({
    mutationFn: () => apiRequest(notificationsRoutes.markAllNotificationsRead, { accountUuid }),
    onSuccess: async ({ data }) => {
      await invalidate();
      toast.success(later('notifications.allMarkedRead', { count: data.changed }));
    },
  });
}
