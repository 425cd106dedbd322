// The data layer of the password, email and sign-in history cards of the security tab (security-api.ts holds the
// overview every card shares).
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { securityRoutes, type EmailChange, type PasswordChange } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';
import { SECURITY_KEY } from './security-api.ts';

export const emailChangeQuery = queryOptions({
  queryKey: [SECURITY_KEY, 'email-change'],
  queryFn: ({ signal }) => apiRequest(securityRoutes.getEmailChange, { signal }).then(({ data }) => data),
});

/** The sign-in history, newest first; each further page continues after the last entry shown. */
export const signInsQuery = infiniteQueryOptions({
  queryKey: [SECURITY_KEY, 'sign-ins'],
  queryFn: ({ pageParam, signal }) =>
    apiRequest(securityRoutes.listSignIns, { query: { cursor: pageParam }, signal }),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page) => page.meta.nextCursor ?? undefined,
});

/** Errors are the form's to show (field errors, the lockout): no toast from the query client. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordChange) => apiRequest(securityRoutes.changePassword, { body }),
    meta: { silentError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [SECURITY_KEY] }),
  });
}

export function useRequestEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EmailChange) => apiRequest(securityRoutes.requestEmailChange, { body }),
    meta: { silentError: true },
    onSuccess: ({ data }) => queryClient.setQueryData(emailChangeQuery.queryKey, data),
  });
}

export function useCancelEmailChange() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: () => apiRequest(securityRoutes.cancelEmailChange),
    onSuccess: () => {
      queryClient.setQueryData(emailChangeQuery.queryKey, { pending: null });
      toast.success(later('security.email.cancelled'));
    },
  });
}
