// The company area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows): the
// company profile, its logo, and the hooks that change them.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  companyRoutes,
  type CompanyProfile,
  type UpdateCompanyBody,
  type UpdateTwoFactorPolicyBody,
  type UploadLogoBody,
} from '@portal/contract';
import { apiFile, apiRequest } from '@/api/client.ts';
import { useInvalidateSession } from '@/api/session.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

export { useCancelDeletion, useScheduleDeletion } from '@/api/account-deletion.ts';

const profileKey = (account: string) => ['company', account, 'profile'] as const;

export function companyProfileQuery(account: string) {
  return queryOptions({
    queryKey: profileKey(account),
    queryFn: async ({ signal }) =>
      (await apiRequest(companyRoutes.getCompanyProfile, { accountUuid: account, signal })).data,
  });
}

/** A Blob as a data: URL (the app's content policy shows images from itself and data: URLs only). */
function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The logo could not be read'));
    reader.readAsDataURL(blob);
  });
}

/** The logo as an image source; the key changes with each upload, so a new logo is fetched once. */
export function companyLogoQuery(account: string, logo: CompanyProfile['logo']) {
  return queryOptions({
    queryKey: ['company', account, 'logo', logo?.updatedAt ?? null] as const,
    queryFn: async ({ signal }) =>
      dataUrl((await apiFile(companyRoutes.getCompanyLogo, { accountUuid: account, signal })).blob),
    enabled: Boolean(logo),
    staleTime: Infinity,
  });
}

/** After a change: the answer is the profile; the account's name and country may have changed too. */
function useProfileChanged(account: string) {
  const queryClient = useQueryClient();
  const invalidateSession = useInvalidateSession();
  return async (profile: CompanyProfile, renamed: boolean) => {
    queryClient.setQueryData(profileKey(account), profile);
    if (renamed) await invalidateSession();
  };
}

/** Saves the profile; the form shows the errors (422 on the fields, 409 on the legal name). */
export function useSaveCompanyProfile(account: string) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const changed = useProfileChanged(account);
  return useMutation({
    mutationFn: (body: UpdateCompanyBody) =>
      apiRequest(companyRoutes.updateCompanyProfile, { accountUuid: account, body }),
    meta: { silentError: true },
    onSuccess: async ({ data }) => {
      const before = queryClient.getQueryData<CompanyProfile>(profileKey(account));
      await changed(data, before?.legalName !== data.legalName || before?.country !== data.country);
      toast.success(later('company.saved'));
    },
  });
}

/** The file's bytes in base64, as the upload sends them. */
function base64Of(file: File): Promise<string> {
  return dataUrl(file).then((url) => url.slice(url.indexOf(',') + 1));
}

/** Uploads or replaces the logo; the section shows the error under the logo (422), so it is not toasted. */
export function useUploadLogo(account: string) {
  const toast = useToast();
  const changed = useProfileChanged(account);
  return useMutation({
    mutationFn: async (file: File) => {
      const body: UploadLogoBody = { fileName: file.name, content: await base64Of(file) };
      return apiRequest(companyRoutes.uploadCompanyLogo, { accountUuid: account, body });
    },
    meta: { silentError: true },
    onSuccess: async ({ data }) => {
      await changed(data, false);
      toast.success(later('company.logoSaved'));
    },
  });
}

export function useRemoveLogo(account: string) {
  const toast = useToast();
  const changed = useProfileChanged(account);
  return useMutation({
    mutationFn: () => apiRequest(companyRoutes.deleteCompanyLogo, { accountUuid: account }),
    onSuccess: async ({ data }) => {
      await changed(data, false);
      toast.success(later('company.logoRemoved'));
    },
  });
}

const twoFactorKey = (account: string) => ['company', account, 'two-factor'] as const;

/** The account's two-factor rule; others (the owner, in another tab) change it, so each visit reads it anew. */
export function twoFactorPolicyQuery(account: string) {
  return queryOptions({
    queryKey: twoFactorKey(account),
    queryFn: async ({ signal }) =>
      (await apiRequest(companyRoutes.getTwoFactorPolicy, { accountUuid: account, signal })).data,
    staleTime: 0,
  });
}

/** The first members without a second factor (the confirmation lists them; the total says how many more). */
export function twoFactorPreviewQuery(account: string, enabled: boolean) {
  return queryOptions({
    queryKey: [...twoFactorKey(account), 'preview'] as const,
    queryFn: async ({ signal }) =>
      apiRequest(companyRoutes.previewTwoFactorPolicy, {
        accountUuid: account,
        query: { pageSize: 10 },
        signal,
      }),
    enabled,
    staleTime: 0,
  });
}

/** Switches the rule on or off (owner); the account list carries the rule for the guard, so it reloads too. */
export function useUpdateTwoFactorPolicy(account: string) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const invalidateSession = useInvalidateSession();
  return useMutation({
    mutationFn: (body: UpdateTwoFactorPolicyBody) =>
      apiRequest(companyRoutes.updateTwoFactorPolicy, { accountUuid: account, body }),
    onSuccess: async ({ data }) => {
      queryClient.setQueryData(twoFactorKey(account), data);
      await queryClient.invalidateQueries({ queryKey: [...twoFactorKey(account), 'preview'] });
      await invalidateSession();
      toast.success(later('company.twoFactor.saved'));
    },
  });
}
