// Announcements, staff side, its data layer: the list with reach and read counts, one announcement, and what
// staff do with it (draft, change, publish, withdraw, delete). Every change reads the list anew; the editor's
// save shows its field errors itself (meta.silentError).
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { announcementsRoutes, type AnnouncementInput, type AnnouncementsQuery } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

const ROOT = 'announcements';

export function announcementsQuery(query: AnnouncementsQuery) {
  return queryOptions({
    queryKey: [ROOT, 'list', query],
    queryFn: ({ signal }) => apiRequest(announcementsRoutes.listAnnouncements, { query, signal }),
    placeholderData: keepPreviousData,
    // Reach and read counts change while the fan-out runs and people read.
    staleTime: 0,
  });
}

export function announcementQuery(uuid: string) {
  return queryOptions({
    queryKey: [ROOT, 'item', uuid],
    queryFn: async ({ signal }) =>
      (
        await apiRequest(announcementsRoutes.getAnnouncement, {
          params: { announcementUuid: uuid },
          signal,
        })
      ).data,
    staleTime: 0,
  });
}

/** Saves a new draft (no uuid) or changes one; the answer is the announcement as stored. */
export function useSaveAnnouncement() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: async ({ uuid, body }: { uuid: string | null; body: AnnouncementInput }) =>
      (uuid
        ? await apiRequest(announcementsRoutes.updateAnnouncement, {
            params: { announcementUuid: uuid },
            body,
          })
        : await apiRequest(announcementsRoutes.createAnnouncement, { body })
      ).data,
    meta: { silentError: true },
    onSuccess: (data) => {
      queryClient.setQueryData([ROOT, 'item', data.uuid], data);
      void queryClient.invalidateQueries({ queryKey: [ROOT, 'list'] });
      toast.success(later('announcements.saved'));
    },
  });
}

function useAction(
  route: typeof announcementsRoutes.publishAnnouncement | typeof announcementsRoutes.withdrawAnnouncement,
  done: 'announcements.published' | 'announcements.withdrawn',
) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: async (uuid: string) =>
      (await apiRequest(route, { params: { announcementUuid: uuid } })).data,
    onSuccess: (data) => {
      queryClient.setQueryData([ROOT, 'item', data.uuid], data);
      void queryClient.invalidateQueries({ queryKey: [ROOT, 'list'] });
      toast.success(later(done));
    },
  });
}

export const usePublishAnnouncement = () =>
  useAction(announcementsRoutes.publishAnnouncement, 'announcements.published');
export const useWithdrawAnnouncement = () =>
  useAction(announcementsRoutes.withdrawAnnouncement, 'announcements.withdrawn');

export function useDeleteAnnouncement() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (uuid: string) =>
      apiRequest(announcementsRoutes.deleteAnnouncement, { params: { announcementUuid: uuid } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [ROOT] });
      toast.success(later('announcements.deleted'));
    },
  });
}
