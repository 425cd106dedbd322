// The shell's announcement bars: their own module, loaded with the bars after the first paint (decision 236), so
// neither the request nor its mutation weighs on the first load. The key lives with the notifications' keys, under
// their prefix, so the live event of a new announcement reads the bars again.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { announcementsRoutes } from '@portal/contract';
import { apiRequest } from './client.ts';
import { notificationKeys } from './notifications.ts';

/**
 * The maintenance and incident announcements in their window that reached the person and that they have not
 * closed: the shell's bars. A small request of its own after the first paint; a live event reads it again.
 */
export const currentAnnouncementsQuery = queryOptions({
  queryKey: notificationKeys.currentAnnouncements,
  queryFn: async ({ signal }) =>
    (await apiRequest(announcementsRoutes.listCurrentAnnouncements, { signal })).data,
  staleTime: 60_000,
  meta: { silentError: true },
});

/** Closes an announcement's bar for the person, on every device. */
export function useDismissAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) =>
      apiRequest(announcementsRoutes.dismissAnnouncement, { params: { announcementUuid: uuid } }),
    onMutate: (uuid) => {
      queryClient.setQueryData(currentAnnouncementsQuery.queryKey, (list) =>
        list?.filter((a) => a.uuid !== uuid),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.currentAnnouncements }),
  });
}
