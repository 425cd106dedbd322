// The security area's data layer (settings/users, tab "Sicherheit"; see features/accounts/api.ts for the shape).
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import {
  type DataExport,
  type DataExportBody,
  type EmailChange,
  type LoginDeletionBody,
  myDataRoutes,
  type Passkey,
  type PasswordChange,
  type RegisterPasskeyBody,
  securityRoutes,
  type SignInSession,
} from '@portal/contract';
import { apiFile, apiRequest } from '@/api/client.ts';
import { useDownload } from '@/api/use-download.ts';
import { logout } from '@/auth/auth.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

/** The first key of every security query: a change to a second factor invalidates them all at once. */
export const SECURITY_KEY = 'security';

/** Who keeps the person's sign-in (embedded service or external Keycloak) and their second factors. */
export const securityOverviewQuery = queryOptions({
  queryKey: [SECURITY_KEY, 'overview'],
  queryFn: ({ signal }) =>
    apiRequest(securityRoutes.getSecurityOverview, { signal }).then(({ data }) => data),
});

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

/** The person's passkeys (at most PASSKEYS_MAX, so one list). */
export const passkeysQuery = queryOptions({
  queryKey: [SECURITY_KEY, 'passkeys'],
  queryFn: ({ signal }) => apiRequest(securityRoutes.listPasskeys, { signal }).then(({ data }) => data),
});

/**
 * Adds a passkey: the server's options, the browser's prompt (startRegistration), then the server checks the
 * answer and stores it with `name`. A prompt the person cancels rejects with the browser's NotAllowedError or
 * AbortError (the caller says so quietly); the API's refusals reject with an ApiError.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: async (name: string) => {
      const { data: optionsJSON } = await apiRequest(securityRoutes.passkeyRegistrationOptions, {});
      const response = await startRegistration({
        optionsJSON: optionsJSON as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      return apiRequest(securityRoutes.registerPasskey, {
        body: { name, response: response as unknown as RegisterPasskeyBody['response'] },
      });
    },
    meta: { silentError: true },
    onSuccess: async ({ data }) => {
      toast.success(later('security.passkeys.added', { name: data.name }));
      await queryClient.invalidateQueries({ queryKey: [SECURITY_KEY] });
    },
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      apiRequest(securityRoutes.renamePasskey, { params: { id }, body: { name } }),
    meta: { silentError: true },
    onSuccess: async ({ data }) => {
      toast.success(later('security.passkeys.renamed', { name: data.name }));
      await queryClient.invalidateQueries({ queryKey: [SECURITY_KEY] });
    },
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (passkey: Passkey) =>
      apiRequest(securityRoutes.removePasskey, { params: { id: passkey.id } }),
    onSuccess: async (_data, passkey) => {
      toast.success(later('security.passkeys.removed', { name: passkey.name }));
      await queryClient.invalidateQueries({ queryKey: [SECURITY_KEY] });
    },
  });
}

/**
 * The person's sign-in sessions. Always read afresh (staleTime 0): another browser signing in or out changes them.
 */
export const sessionsQuery = queryOptions({
  queryKey: [SECURITY_KEY, 'sessions'],
  queryFn: ({ signal }) => apiRequest(securityRoutes.listSignInSessions, { signal }),
  staleTime: 0,
});

/** Signs one session out; its browser is logged out at its next token refresh. */
export function useEndSession() {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (session: SignInSession) =>
      apiRequest(securityRoutes.endSignInSession, { params: { sessionId: session.id } }),
    onSuccess: async (_answer, session) => {
      // Signing out this very browser: nothing more to show here, the app logs out too.
      if (session.current) return logout();
      toast.success(later('security.sessions.ended'));
      await queryClient.invalidateQueries({ queryKey: [SECURITY_KEY, 'sessions'] });
    },
  });
}

/** Signs out every session but this one. */
export function useEndOtherSessions() {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(securityRoutes.endOtherSignInSessions, {}),
    onSuccess: async ({ data }) => {
      toast.success(later('security.sessions.endedOthers', { count: data.ended }));
      await queryClient.invalidateQueries({ queryKey: [SECURITY_KEY, 'sessions'] });
    },
  });
}

/**
 * The export of the person's own data (tab "Meine Daten", decision 231). While one is being prepared the card asks
 * again every few seconds, and only then: the job takes seconds, and the inbox entry says the same.
 */
export const dataExportQuery = queryOptions({
  queryKey: [SECURITY_KEY, 'data-export'],
  queryFn: ({ signal }) => apiRequest(myDataRoutes.getDataExport, { signal }).then(({ data }) => data),
  staleTime: 0,
  refetchInterval: (query) => (query.state.data?.latest?.state === 'preparing' ? 3000 : false),
});

/** Asks for an export; the password's errors are the form's to show. */
export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DataExportBody) => apiRequest(myDataRoutes.requestDataExport, { body }),
    meta: { silentError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dataExportQuery.queryKey }),
  });
}

/** Saves a ready export as the ZIP the server names. */
export function useDownloadDataExport() {
  return useDownload((item: DataExport) =>
    apiFile(myDataRoutes.downloadDataExport, { params: { id: item.uuid } }),
  );
}

/** What deleting the login would do (memberships, sole ownerships, an external Keycloak). */
export const loginDeletionQuery = queryOptions({
  queryKey: [SECURITY_KEY, 'deletion'],
  queryFn: ({ signal }) => apiRequest(myDataRoutes.getLoginDeletion, { signal }).then(({ data }) => data),
  staleTime: 0,
});

/** Deletes the login; then nothing is left to show: the app signs out. */
export function useDeleteLogin() {
  return useMutation({
    mutationFn: (body: LoginDeletionBody) => apiRequest(myDataRoutes.deleteLogin, { body }),
    meta: { silentError: true },
    onSuccess: () => logout(),
  });
}
