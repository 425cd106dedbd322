// The profile area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows).
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { usersRoutes, type Language, type User } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { queryKeys } from '@/api/session.ts';
import { currentLanguage, i18n } from '@/i18n/i18n.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

/** Each language named in itself, as language pickers do, so users find theirs in any interface language. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  de: 'Deutsch',
  en: 'English',
  fr: 'Français',
  it: 'Italiano',
};

/** Saves the signed-in user's name; the cached user is replaced by the answer. The form shows the errors. */
export function useSaveName() {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiRequest(usersRoutes.updateMe, { body: { name } }),
    meta: { silentError: true },
    onSuccess: ({ data }) => {
      queryClient.setQueryData<User>(queryKeys.me, data);
      toast.success(later('profile.saved'));
    },
  });
}

/**
 * The interface language: `setLanguage` applies it at once and saves it on the user (PATCH me), whose cached copy
 * follows. A failed save is toasted by the query client; the language stays applied in this tab.
 */
export function useLanguage(): { language: Language; setLanguage: (language: Language) => void } {
  useTranslation();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (language: Language) => apiRequest(usersRoutes.updateMe, { body: { language } }),
    onMutate: async (language) => {
      await i18n.changeLanguage(language);
      queryClient.setQueryData<User>(queryKeys.me, (old) => (old ? { ...old, language } : old));
    },
    onSuccess: ({ data }) => queryClient.setQueryData<User>(queryKeys.me, data),
  });
  return { language: currentLanguage(), setLanguage: save.mutate };
}
