// The accounts area's data layer: the changes to accounts and memberships its pages make (answering one's own
// invitations is shared with the dashboard and the shell: api/invitations.ts).
// Each hook is a useMutation whose mutationFn returns the API's answer as it is. Errors are toasted by the query
// client (api/query-client.ts); only a hook whose caller is a form sets meta.silentError, and the form calls
// `await mutateAsync(…)` in its submit so that useRuleForm puts 422 field errors on the fields. Success toasts
// and cache updates happen in the hook's onSuccess, so every caller gets the same; a caller's own follow-up
// (navigation) comes after `mutateAsync`. Busy state is the mutation's `isPending`.
// Other areas' routes are account-scoped: each of their query options and hooks takes the account it works on as
// its first argument and puts that same value into its key (`['<area>', account, …]`) and into apiRequest's
// `accountUuid` (the client refuses such a route without it and never reads the tab's stored account).
import { useRef } from 'react';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  accountsRoutes,
  membersRoutes,
  type Account,
  type CreateAccountBody,
  type InvitationLink,
} from '@portal/contract';
import { href } from '@/app/href.ts';
import { storeAccountUuid } from '@/api/account-storage.ts';
import { apiRequest } from '@/api/client.ts';
import { ApiError } from '@/api/errors.ts';
import { accountQuery, useInvalidateSession } from '@/api/session.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';
import { useNavigate } from '@/routing/navigation-view.tsx';

/**
 * Creates an account; the creator becomes its owner and it becomes the stored account. A retry of the same
 * values reuses its Idempotency-Key, so a lost answer never creates a second account. The form shows the errors
 * (422 on the fields, 409 on the name), so they are not toasted here.
 */
export function useCreateAccount() {
  const toast = useToast();
  const invalidateSession = useInvalidateSession();
  const attempt = useRef<{ body: string; key: string } | null>(null);
  return useMutation({
    mutationFn: (body: CreateAccountBody) => {
      const text = JSON.stringify(body);
      if (attempt.current?.body !== text) attempt.current = { body: text, key: crypto.randomUUID() };
      return apiRequest(accountsRoutes.createAccount, {
        body,
        headers: { 'Idempotency-Key': attempt.current.key },
      });
    },
    meta: { silentError: true },
    onSuccess: async ({ data: account }) => {
      storeAccountUuid(account.uuid);
      await invalidateSession();
      toast.success(later('createAccount.created', { name: account.name }));
    },
  });
}

/**
 * Staff look an account up by its ID before opening it: the account (cached for the guard, which opens it next),
 * or null when there is none (404). Any other failure is thrown for the caller's form to show.
 */
export function useLookUpAccount(): (id: string) => Promise<Account | null> {
  const queryClient = useQueryClient();
  return async (id) => {
    try {
      return await queryClient.fetchQuery(accountQuery(id));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  };
}

/** The invitation behind a mail's link (`/invite/verify?token=…`): account, role, who invited, whether it is open. */
export function invitationLinkQuery(token: string) {
  return queryOptions({
    queryKey: ['invitation-link', token],
    queryFn: async ({ signal }) =>
      (await apiRequest(membersRoutes.readInvitationLink, { params: { token }, signal })).data,
    meta: { silentError: true },
    retry: false,
  });
}

/**
 * Answers the invitation behind a mail's link, as the invited address. Accepting makes the account the stored one
 * and opens it; declining leads to the accounts list. The page explains refusals (expired, withdrawn, used).
 */
export function useAnswerInvitationLink(token: string, link: InvitationLink | undefined) {
  const toast = useToast();
  const navigate = useNavigate();
  const invalidateSession = useInvalidateSession();
  const queryClient = useQueryClient();
  const name = link?.accountName ?? '';
  const accept = useMutation({
    mutationFn: () => apiRequest(membersRoutes.acceptInvitationLink, { params: { token } }),
    meta: { silentError: true },
    onSuccess: async ({ data }) => {
      storeAccountUuid(data.uuid);
      await invalidateSession();
      toast.success(later('invite.accepted', { name }));
      await navigate(href('dashboard', undefined, { uuid: data.uuid }));
    },
    onError: () => queryClient.invalidateQueries({ queryKey: ['invitation-link', token] }),
  });
  const decline = useMutation({
    mutationFn: () => apiRequest(membersRoutes.declineInvitationLink, { params: { token } }),
    meta: { silentError: true },
    onSuccess: async () => {
      await invalidateSession();
      toast.success(later('invite.declined', { name }));
      await navigate(href('accounts'));
    },
    onError: () => queryClient.invalidateQueries({ queryKey: ['invitation-link', token] }),
  });
  return { accept, decline };
}
