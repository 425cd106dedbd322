import { useTranslation } from 'react-i18next';
import { membersRoutes, type Member } from '@portal/contract';
import { useMayCall } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { RowMenu, type RowMenuItem } from '@/ui/row-menu.tsx';
import { useRemoveMember, useResendInvitation, useRevokeInvitation } from './api.ts';
import { useNavigate } from '@/routing/navigation-view.tsx';

/**
 * A row's actions menu: resend or revoke an invitation; change a member's role or remove the member (never the
 * owner, never oneself). Only what the caller may do shows; without any, no menu.
 */
export function RowActions({ member, account, label }: { member: Member; account: string; label: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const remove = useRemoveMember(account);
  const resend = useResendInvitation(account);
  const revoke = useRevokeInvitation(account);
  const may = {
    resend: useMayCall(membersRoutes.resendInvitation),
    revoke: useMayCall(membersRoutes.revokeInvitation),
    role: useMayCall(membersRoutes.updateMember),
    remove: useMayCall(membersRoutes.removeMember),
  };
  const who = member.name || member.email;
  const items: (RowMenuItem & { key: keyof typeof may })[] = [];

  if (member.kind === 'INVITATION') {
    items.push({ key: 'resend', label: t('members.actions.resend'), run: () => resend.mutate(member) });
    items.push({
      key: 'revoke',
      label: t('members.actions.revoke'),
      run: async () => {
        const ok = await confirm({
          title: t('members.revokeTitle'),
          message: t('members.revokeMessage', { email: member.email }),
          confirmLabel: t('members.actions.revoke'),
          destructive: true,
        });
        if (ok) revoke.mutate(member);
      },
    });
  } else if (member.role !== 'OWNER' && !member.isSelf) {
    if (member.role !== 'DC') {
      items.push({
        key: 'role',
        label: t('members.actions.changeRole'),
        run: () => navigate(href('settings-user-management-form', { uuid: member.id })),
      });
    }
    items.push({
      key: 'remove',
      label: t('members.actions.remove'),
      run: async () => {
        const ok = await confirm({
          title: t('members.removeTitle'),
          message: t('members.removeMessage', { name: who }),
          confirmLabel: t('members.actions.remove'),
          destructive: true,
        });
        if (ok) remove.mutate(member);
      },
    });
  }
  // Only what the caller may do (staff in a customer's account change nothing here).
  const allowed = items.filter((item) => may[item.key]);
  if (!allowed.length) return null;
  return (
    <RowMenu
      label={t('members.actions.label', { name: label })}
      items={allowed}
      busy={remove.isPending || resend.isPending || revoke.isPending}
    />
  );
}
