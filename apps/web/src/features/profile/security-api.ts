// The security area's data layer (settings/users, tab "Sicherheit"; see features/accounts/api.ts for the shape).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { securityRoutes } from '@portal/contract';
import { apiRequest } from '@/api/client.ts';

/** The first key of every security query: a change to a second factor invalidates them all at once. */
export const SECURITY_KEY = 'security';

/** Who keeps the person's sign-in (embedded service or external Keycloak) and their second factors. */
export const securityOverviewQuery = queryOptions({
  queryKey: [SECURITY_KEY, 'overview'],
  queryFn: ({ signal }) =>
    apiRequest(securityRoutes.getSecurityOverview, { signal }).then(({ data }) => data),
});

/** After a change to a second factor: the overview (and every other security query) is read again. */
function useSecurityChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [SECURITY_KEY] });
}

// The dialogs show these mutations' errors at their fields (wrong code, wrong password), not as a toast.
const inline = { meta: { silentError: true } } as const;

/** Starts setting up the authenticator app: a new secret as QR code and text (the app is not on yet). */
export function useStartTotp() {
  return useMutation({
    ...inline,
    mutationFn: async () => (await apiRequest(securityRoutes.startTotp, {})).data,
  });
}

/** Turns the app on with its first code; resolves to the recovery codes (shown once). */
export function useConfirmTotp() {
  const changed = useSecurityChanged();
  return useMutation({
    ...inline,
    mutationFn: async (code: string) =>
      (await apiRequest(securityRoutes.confirmTotp, { body: { code } })).data.codes,
    onSuccess: changed,
  });
}

/** Turns the app off (current password); its recovery codes go with it. */
export function useDisableTotp() {
  const changed = useSecurityChanged();
  return useMutation({
    ...inline,
    mutationFn: async (password: string) => {
      await apiRequest(securityRoutes.disableTotp, { body: { password } });
    },
    onSuccess: changed,
  });
}

/** Ten new recovery codes replace the old ones (current password); resolves to them (shown once). */
export function useRegenerateRecoveryCodes() {
  const changed = useSecurityChanged();
  return useMutation({
    ...inline,
    mutationFn: async (password: string) =>
      (await apiRequest(securityRoutes.regenerateRecoveryCodes, { body: { password } })).data.codes,
    onSuccess: changed,
  });
}
