// The profile area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows).
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { usersRoutes, type User } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { queryKeys } from '@/api/session.ts';
import { useToast } from '@/ui/toast.tsx';

/** Saves the signed-in user's name; the cached user is replaced by the answer. The form shows the errors. */
export function useSaveName() {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiRequest(usersRoutes.updateMe, { body: { name } }),
    meta: { silentError: true },
    onSuccess: ({ data }) => {
      queryClient.setQueryData<User>(queryKeys.me, data);
      toast.success(t('profile.saved'));
    },
  });
}
