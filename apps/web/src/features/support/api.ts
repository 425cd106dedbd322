// The support area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows): how to
// reach support, the account's tickets with their conversation, and the hooks that open, answer, reopen, close
// and change a ticket's consent. Tickets are answered by support staff at any time: their reads are never
// cached as fresh (staleTime 0), so each visit reads them anew.
import { useRef } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  supportRoutes,
  type AttachmentUpload,
  type CreateTicketBody,
  type SupportTicketDetail,
  type TicketsQuery,
} from '@portal/contract';
import { apiFile, apiRequest } from '@/api/client.ts';
import { useDownload } from '@/api/use-download.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

const ticketsKey = (account: string) => ['support', account, 'tickets'] as const;
const ticketKey = (account: string, ticketUuid: string) =>
  ['support', account, 'ticket', ticketUuid] as const;

export function supportInfoQuery() {
  return queryOptions({
    queryKey: ['support', 'info'],
    queryFn: async ({ signal }) => (await apiRequest(supportRoutes.getSupportInfo, { signal })).data,
    staleTime: 60 * 60 * 1000,
  });
}

export function ticketsQuery(account: string, query: TicketsQuery) {
  return queryOptions({
    queryKey: [...ticketsKey(account), query] as const,
    queryFn: ({ signal }) => apiRequest(supportRoutes.listTickets, { accountUuid: account, query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function ticketQuery(account: string, ticketUuid: string) {
  return queryOptions({
    queryKey: ticketKey(account, ticketUuid),
    queryFn: async ({ signal }) =>
      (await apiRequest(supportRoutes.getTicket, { accountUuid: account, params: { ticketUuid }, signal }))
        .data,
    staleTime: 0,
  });
}

/** A chosen file as the upload sends it: its name and its bytes in base64. */
export function toUpload(file: File): Promise<AttachmentUpload> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve({ fileName: file.name, content: url.slice(url.indexOf(',') + 1) });
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** After a change: the answer is the ticket as it is now; every list may have changed. */
function useTicketChanged(account: string) {
  const queryClient = useQueryClient();
  return async (detail: SupportTicketDetail) => {
    queryClient.setQueryData(ticketKey(account, detail.ticket.uuid), detail);
    await queryClient.invalidateQueries({ queryKey: ticketsKey(account) });
  };
}

export type NewTicket = Omit<CreateTicketBody, 'attachments'> & { files: readonly File[] };

/**
 * Opens a ticket. A retry of the same values reuses its Idempotency-Key, so a double submit or a lost answer
 * never opens a second ticket. The form shows the errors (422 on the fields), so they are not toasted here.
 */
export function useCreateTicket(account: string) {
  const changed = useTicketChanged(account);
  const attempt = useRef<{ body: string; key: string } | null>(null);
  return useMutation({
    mutationFn: async ({ files, ...rest }: NewTicket) => {
      const body: CreateTicketBody = { ...rest, attachments: await Promise.all(files.map(toUpload)) };
      const text = JSON.stringify(body);
      if (attempt.current?.body !== text) attempt.current = { body: text, key: crypto.randomUUID() };
      return apiRequest(supportRoutes.createTicket, {
        accountUuid: account,
        body,
        headers: { 'Idempotency-Key': attempt.current.key },
      });
    },
    meta: { silentError: true },
    onSuccess: async ({ data }) => changed(data),
  });
}

/** Replies to a ticket; the form shows the errors (422 on the fields). */
export function useReplyToTicket(account: string, ticketUuid: string) {
  const toast = useToast();
  const changed = useTicketChanged(account);
  return useMutation({
    mutationFn: async ({ body, files }: { body: string; files: readonly File[] }) =>
      apiRequest(supportRoutes.replyToTicket, {
        accountUuid: account,
        params: { ticketUuid },
        body: { body, attachments: await Promise.all(files.map(toUpload)) },
      }),
    meta: { silentError: true },
    onSuccess: async ({ data }) => {
      await changed(data);
      toast.success(later('support.replySent'));
    },
  });
}

export function useReopenTicket(account: string, ticketUuid: string) {
  const toast = useToast();
  const changed = useTicketChanged(account);
  return useMutation({
    mutationFn: () =>
      apiRequest(supportRoutes.reopenTicket, { accountUuid: account, params: { ticketUuid } }),
    onSuccess: async ({ data }) => {
      await changed(data);
      toast.success(later('support.reopened'));
    },
  });
}

export function useCloseTicket(account: string, ticketUuid: string) {
  const toast = useToast();
  const changed = useTicketChanged(account);
  return useMutation({
    mutationFn: () => apiRequest(supportRoutes.closeTicket, { accountUuid: account, params: { ticketUuid } }),
    onSuccess: async ({ data }) => {
      await changed(data);
      toast.success(later('support.closed'));
    },
  });
}

export function useSetConsent(account: string, ticketUuid: string) {
  const toast = useToast();
  const changed = useTicketChanged(account);
  return useMutation({
    mutationFn: (staffAccessConsent: boolean) =>
      apiRequest(supportRoutes.setTicketConsent, {
        accountUuid: account,
        params: { ticketUuid },
        body: { staffAccessConsent },
      }),
    onSuccess: async ({ data }) => {
      await changed(data);
      toast.success(
        later(data.ticket.staffAccessConsent ? 'support.consentGiven' : 'support.consentWithdrawn'),
      );
    },
  });
}

/** Downloads an attachment under its name. */
export function useDownloadAttachment(account: string, ticketUuid: string) {
  return useDownload(
    (file: { uuid: string; fileName: string }) =>
      apiFile(supportRoutes.getTicketAttachment, {
        accountUuid: account,
        params: { ticketUuid, fileUuid: file.uuid },
      }),
    (file) => file.fileName,
  );
}
