// The members area's data layer: the members list (paginated on the server), one member, and every change —
// invitations, role changes, removals. Errors are toasted by the query client; hooks used by a form set
// meta.silentError, and the form awaits mutateAsync so 422 and 409 field errors land on its fields. Success toasts
// and cache updates live in each hook's onSuccess.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  membersRoutes,
  type InviteBody,
  type Member,
  type MemberRole,
  type MembersQuery,
} from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

const keys = {
  all: (account: string) => ['members', account] as const,
  list: (account: string, query: MembersQuery) => ['members', account, 'list', query] as const,
  member: (account: string, id: string) => ['members', account, 'member', id] as const,
};

/** One page of members and invitations of the current account; the previous page stays while the next loads. */
export function membersQuery(account: string, query: MembersQuery) {
  return queryOptions({
    queryKey: keys.list(account, query),
    queryFn: ({ signal }) => apiRequest(membersRoutes.listMembers, { accountUuid: account, query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function memberQuery(account: string, id: string) {
  return queryOptions({
    queryKey: keys.member(account, id),
    queryFn: async ({ signal }) =>
      (await apiRequest(membersRoutes.getMember, { accountUuid: account, params: { id }, signal })).data,
  });
}

/** Refetches every members list of the account after a change. */
function useMembersChanged(account: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys.all(account) });
}

/** Invites addresses with a role (the form shows errors per address, so they are not toasted here). */
export function useInvite(account: string) {
  const toast = useToast();
  const changed = useMembersChanged(account);
  return useMutation({
    mutationFn: (body: InviteBody) => apiRequest(membersRoutes.invite, { accountUuid: account, body }),
    meta: { silentError: true },
    onSuccess: async ({ data }) => {
      await changed();
      toast.success(later('members.invited', { count: data.length }));
    },
  });
}

export function useChangeRole(account: string) {
  const toast = useToast();
  const changed = useMembersChanged(account);
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: MemberRole }) =>
      apiRequest(membersRoutes.updateMember, { accountUuid: account, params: { id }, body: { role } }),
    meta: { silentError: true },
    onSuccess: async ({ data }) => {
      await changed();
      toast.success(later('members.roleChanged', { name: data.name || data.email }));
    },
  });
}

/** A change to one row of the list (remove, resend, revoke): the lists refetch, a toast names the person. */
function useRowAction(
  account: string,
  run: (member: Member) => Promise<unknown>,
  message: (member: Member) => string,
) {
  const toast = useToast();
  const changed = useMembersChanged(account);
  return useMutation({
    mutationFn: run,
    onSuccess: async (_answer, member) => {
      await changed();
      toast.success(message(member));
    },
  });
}

export function useRemoveMember(account: string) {
  return useRowAction(
    account,
    (member) => apiRequest(membersRoutes.removeMember, { accountUuid: account, params: { id: member.id } }),
    (member) => later('members.removed', { name: member.name || member.email }),
  );
}

export function useResendInvitation(account: string) {
  return useRowAction(
    account,
    (member) =>
      apiRequest(membersRoutes.resendInvitation, { accountUuid: account, params: { id: member.id } }),
    (member) => later('members.resent', { email: member.email }),
  );
}

export function useRevokeInvitation(account: string) {
  return useRowAction(
    account,
    (member) =>
      apiRequest(membersRoutes.revokeInvitation, { accountUuid: account, params: { id: member.id } }),
    (member) => later('members.revoked', { email: member.email }),
  );
}
