// Payments, staff side, its data layer: bank file imports, the credits from them (the ones to handle first),
// invoices across accounts, and what staff do with them. The dialogs and the upload show their own errors
// (meta.silentError); every change reads the lists anew, since one booking changes credits, imports and invoices.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  billingStaffRoutes,
  type AssignPaymentBody,
  type MarkPaidBody,
  type PaymentsQuery,
  type StaffInvoicesQuery,
} from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { ApiError } from '@/api/errors.ts';

const ROOT = 'billing-staff';

/** A chosen file as the upload body carries it: its name and its bytes in base64. */
async function toUpload(file: File): Promise<{ fileName: string; content: string }> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  // In slices: one call with every byte as an argument overflows the stack on large files.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return { fileName: file.name, content: btoa(binary) };
}

export function paymentsQuery(query: PaymentsQuery) {
  return queryOptions({
    queryKey: [ROOT, 'payments', query],
    queryFn: ({ signal }) => apiRequest(billingStaffRoutes.listPayments, { query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function importsQuery(query: PaymentsQuery) {
  return queryOptions({
    queryKey: [ROOT, 'imports', query],
    queryFn: ({ signal }) => apiRequest(billingStaffRoutes.listPaymentImports, { query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function staffInvoicesQuery(query: StaffInvoicesQuery) {
  return queryOptions({
    queryKey: [ROOT, 'invoices', query],
    queryFn: ({ signal }) => apiRequest(billingStaffRoutes.listStaffInvoices, { query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

function useChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [ROOT] });
}

/** Uploads a camt.054 file; the answer counts how its credits were booked. */
export function useImportPayments() {
  const changed = useChanged();
  return useMutation({
    mutationFn: async (file: File) =>
      (await apiRequest(billingStaffRoutes.importPayments, { body: { file: await toUpload(file) } })).data,
    onSuccess: changed,
    meta: { silentError: true },
  });
}

export function useAssignPayment() {
  const changed = useChanged();
  return useMutation({
    mutationFn: async ({ paymentUuid, ...body }: AssignPaymentBody & { paymentUuid: string }) =>
      (await apiRequest(billingStaffRoutes.assignPayment, { params: { paymentUuid }, body })).data,
    onSuccess: changed,
    meta: { silentError: true },
  });
}

export function useMarkPaid() {
  const changed = useChanged();
  return useMutation({
    mutationFn: async ({ invoiceUuid, ...body }: MarkPaidBody & { invoiceUuid: string }) =>
      (await apiRequest(billingStaffRoutes.markInvoicePaid, { params: { invoiceUuid }, body })).data,
    onSuccess: changed,
    meta: { silentError: true },
  });
}

export function useVoidInvoice() {
  const changed = useChanged();
  return useMutation({
    mutationFn: async ({ invoiceUuid, reason }: { invoiceUuid: string; reason: string }) =>
      (await apiRequest(billingStaffRoutes.voidInvoice, { params: { invoiceUuid }, body: { reason } })).data,
    onSuccess: changed,
    meta: { silentError: true },
  });
}

/**
 * The message key (of the billingStaff.errors section) for a refused change: the field's problem, or the answer's
 * code; null for an error without one of them (the server's message is shown then).
 */
export function errorKey(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const field = error.fields && Object.values(error.fields)[0];
  return field ?? (error.code && error.code !== 'VALIDATION_FAILED' ? error.code : null);
}
