// The profile area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows).
import { useTranslation } from 'react-i18next';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  notificationsRoutes,
  usersRoutes,
  type Account,
  type Language,
  type NotificationPreference,
  type User,
} from '@portal/contract';
import { clearStoredAccountUuid } from '@/api/account-storage.ts';
import { apiRequest } from '@/api/client.ts';
import { notificationKeys } from '@/api/notifications.ts';
import { ApiError } from '@/api/errors.ts';
import { queryKeys, useInvalidateSession } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { currentLanguage, i18n } from '@/i18n/i18n.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';
import { useNavigate } from '@/routing/navigation-view.tsx';

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

/**
 * The user leaves an account (the page has asked first). Afterwards the account is forgotten and the user goes on
 * to another account of theirs (the dashboard selects one) or, with none left, to the accounts list.
 */
export function useLeaveAccount() {
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invalidateSession = useInvalidateSession();
  return useMutation({
    mutationFn: (account: Account) => apiRequest(usersRoutes.leaveAccount, { params: { id: account.uuid } }),
    meta: { silentError: true },
    onError: (error) => {
      // 409: the owner (who must transfer first) or an open invitation; the server's sentence is English.
      toast.error(
        error instanceof ApiError && error.status < 500 ? later('profile.leaveRefused') : error.message,
      );
    },
    onSuccess: async (_answer, account) => {
      clearStoredAccountUuid();
      await invalidateSession();
      toast.success(later('profile.left', { account: account.name }));
      const left = queryClient.getQueryData<Account[]>(queryKeys.myAccounts) ?? [];
      const others = left.filter(
        (other) => other.uuid !== account.uuid && other.invitationStatus === 'ACCEPTED',
      );
      await navigate(others.length ? href('dashboard') : href('accounts'));
    },
  });
}

/** The person's email per notification type (the profile's preferences, under the notifications' key prefix). */
export const notificationPreferencesQuery = queryOptions({
  queryKey: notificationKeys.preferences,
  queryFn: async ({ signal }) =>
    (await apiRequest(notificationsRoutes.getNotificationPreferences, { signal })).data.preferences,
});

/** Switches the email of one or more types; the answer (every type's setting) replaces the cached list. */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (preferences: NotificationPreference[]) =>
      apiRequest(notificationsRoutes.updateNotificationPreferences, { body: { preferences } }),
    onSuccess: ({ data }) => {
      queryClient.setQueryData(notificationKeys.preferences, data.preferences);
      toast.success(later('notifications.preferences.saved'));
    },
  });
}
