import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { usersRoutes, type Language, type User } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';
import { queryKeys } from '@/api/session.ts';
import { toast } from '@/ui/toast-store.ts';
import { currentLanguage, i18n } from './i18n.ts';

/** `{ language, setLanguage }`: setLanguage applies the language at once and saves it on the user (PATCH me). */
export function useLanguage(): { language: Language; setLanguage: (language: Language) => Promise<void> } {
  useTranslation();
  const queryClient = useQueryClient();
  const setLanguage = useCallback(
    async (language: Language) => {
      await i18n.changeLanguage(language);
      queryClient.setQueryData<User>(queryKeys.me, (old) => (old ? { ...old, language } : old));
      try {
        const saved = await apiRequest(usersRoutes.updateMe, { body: { language } });
        queryClient.setQueryData<User>(queryKeys.me, saved.data);
      } catch (error) {
        toast.error(error instanceof Error ? error.message : String(error));
      }
    },
    [queryClient],
  );
  return { language: currentLanguage(), setLanguage };
}
