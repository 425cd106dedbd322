// The agents' side of support, its data layer: the queue across accounts (paginated on the server), one ticket
// with its whole conversation, the staff who can own tickets, and the changes agents make. Errors are toasted by
// the query client; the composer's hooks set meta.silentError and await mutateAsync, so 422 errors land on its
// field. Every change answers with the ticket as it is now: it replaces the cached ticket, and the queue is
// refetched. Tickets change under other agents' and customers' hands, so they are read anew on each visit.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  supportAgentRoutes,
  type AgentTicketDetail,
  type QueueQuery,
  type TicketStatus,
} from '@portal/contract';
import { apiFile, apiRequest } from '@/api/client.ts';
import { useDownload } from '@/api/use-download.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';
import { toUpload } from '../api.ts';

const keys = {
  all: ['support-agent'] as const,
  queue: (query: QueueQuery) => ['support-agent', 'queue', query] as const,
  ticket: (uuid: string) => ['support-agent', 'ticket', uuid] as const,
  agents: ['support-agent', 'agents'] as const,
};

/** One page of the queue; the previous page stays while the next loads. */
export function queueQuery(query: QueueQuery) {
  return queryOptions({
    queryKey: keys.queue(query),
    queryFn: ({ signal }) => apiRequest(supportAgentRoutes.agentQueue, { query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function agentTicketQuery(ticketUuid: string) {
  return queryOptions({
    queryKey: keys.ticket(ticketUuid),
    queryFn: async ({ signal }) =>
      (await apiRequest(supportAgentRoutes.agentTicket, { params: { ticketUuid }, signal })).data,
    staleTime: 0,
    retry: false,
  });
}

/** The staff users who can own tickets, for the assign control. */
export const supportAgentsQuery = queryOptions({
  queryKey: keys.agents,
  queryFn: async ({ signal }) => (await apiRequest(supportAgentRoutes.agentList, { signal })).data,
});

/** Downloads an attachment under its name (fetched with the session's token, then saved by the browser). */
export function useDownloadAttachment(ticketUuid: string) {
  return useDownload(
    (file: { uuid: string; fileName: string }) =>
      apiFile(supportAgentRoutes.agentAttachment, { params: { ticketUuid, fileUuid: file.uuid } }),
    (file) => file.fileName,
  );
}

/** After a change: the answer is the ticket as it is now; every queue page is read anew. */
function useTicketChanged() {
  const queryClient = useQueryClient();
  return async ({ data }: { data: AgentTicketDetail }) => {
    queryClient.setQueryData(keys.ticket(data.ticket.uuid), data);
    await queryClient.invalidateQueries({ queryKey: ['support-agent', 'queue'] });
  };
}

/** Answers the customer with the chosen files, optionally setting the status in the same step. */
export function useAgentReply(ticketUuid: string) {
  const toast = useToast();
  const changed = useTicketChanged();
  return useMutation({
    mutationFn: async ({ files, ...rest }: { body: string; status?: TicketStatus; files: readonly File[] }) =>
      apiRequest(supportAgentRoutes.agentReply, {
        params: { ticketUuid },
        body: { ...rest, attachments: await Promise.all(files.map(toUpload)) },
      }),
    meta: { silentError: true },
    onSuccess: async (answer) => {
      await changed(answer);
      toast.success(later('supportAgent.replied'));
    },
  });
}

/** Writes an internal note with the chosen files, which only agents read. */
export function useAgentNote(ticketUuid: string) {
  const toast = useToast();
  const changed = useTicketChanged();
  return useMutation({
    mutationFn: async ({ body, files }: { body: string; files: readonly File[] }) =>
      apiRequest(supportAgentRoutes.agentNote, {
        params: { ticketUuid },
        body: { body, attachments: await Promise.all(files.map(toUpload)) },
      }),
    meta: { silentError: true },
    onSuccess: async (answer) => {
      await changed(answer);
      toast.success(later('supportAgent.noted'));
    },
  });
}

export function useAgentStatus(ticketUuid: string) {
  const toast = useToast();
  const changed = useTicketChanged();
  return useMutation({
    mutationFn: (status: TicketStatus) =>
      apiRequest(supportAgentRoutes.agentStatus, { params: { ticketUuid }, body: { status } }),
    onSuccess: async (answer) => {
      await changed(answer);
      toast.success(later('supportAgent.statusChanged'));
    },
  });
}

export function useAgentAssign(ticketUuid: string) {
  const toast = useToast();
  const changed = useTicketChanged();
  return useMutation({
    mutationFn: (assigneeUuid: string | null) =>
      apiRequest(supportAgentRoutes.agentAssign, { params: { ticketUuid }, body: { assigneeUuid } }),
    onSuccess: async (answer) => {
      await changed(answer);
      toast.success(later('supportAgent.assigned'));
    },
  });
}
