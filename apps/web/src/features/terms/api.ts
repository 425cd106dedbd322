// The terms area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows).
import { useMutation } from '@tanstack/react-query';
import type { Account } from '@portal/contract';
import { updateAccount, useAccountChanged } from '@/api/session.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

/**
 * The owner accepts the terms and the privacy policy for an account. The cached account is updated at once, so
 * the guard does not send the owner back to the terms before the refetch has finished. The form shows the errors.
 */
export function useAcceptTerms() {
  const toast = useToast();
  const accountChanged = useAccountChanged();
  return useMutation({
    mutationFn: (account: Account) =>
      updateAccount(account.uuid, { acceptedAgb: true, acceptedPrivacyPolicy: true }),
    meta: { silentError: true },
    onSuccess: async ({ data }) => {
      await accountChanged(data);
      toast.success(later('terms.accepted'));
    },
  });
}
