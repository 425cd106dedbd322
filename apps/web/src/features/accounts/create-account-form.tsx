import { useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMutation } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  ACCOUNT_NAME_MAX,
  LANGUAGES,
  accountsRoutes,
  type CreateAccountBody,
  type Language,
} from '@portal/contract';
import { storeAccountUuid } from '@/api/account-storage.ts';
import { apiRequest, ApiError } from '@/api/client.ts';
import { useInvalidateSession } from '@/api/session.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { useToast } from '@/ui/toast.tsx';
import { FormSelect, FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { countryOptions, defaultCountry } from './countries.ts';

/** The language's name in the interface language ("Französisch"), for the account's preferred language. */
export function languageOptions(uiLanguage: string) {
  const names = new Intl.DisplayNames([uiLanguage], { type: 'language' });
  return LANGUAGES.map((code) => {
    const name = names.of(code) ?? code;
    return { value: code, label: name.charAt(0).toLocaleUpperCase(uiLanguage) + name.slice(1) };
  });
}

/**
 * Company name, country and preferred language → POST /accounts/v1/accounts (SPEC §5 rules). Shared by the
 * create-account page and onboarding. A retry of the same values reuses its Idempotency-Key, so a lost answer
 * never creates a second account; a 409 (the user already has an account with that name) lands on the name.
 * The new account becomes the stored one and the user goes to it (the guard then asks the owner for the terms).
 */
export function CreateAccountForm() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const invalidateSession = useInvalidateSession();
  const toast = useToast();
  const language = i18n.resolvedLanguage ?? currentLanguage();
  const countries = useMemo(() => countryOptions(language), [language]);
  const languages = useMemo(() => languageOptions(language), [language]);
  const form = useRuleForm<CreateAccountBody>({
    defaultValues: { name: '', country: defaultCountry(), preferredLanguage: currentLanguage() as Language },
  });
  const attempt = useRef<{ body: string; key: string } | null>(null);

  const create = useMutation({
    mutationFn: (body: CreateAccountBody) => {
      const text = JSON.stringify(body);
      if (attempt.current?.body !== text) attempt.current = { body: text, key: crypto.randomUUID() };
      return apiRequest(accountsRoutes.createAccount, {
        body,
        headers: { 'Idempotency-Key': attempt.current.key },
      });
    },
    // Errors are shown on the fields or as a toast by the form (useRuleForm).
    meta: { silentError: true },
  });

  const onSubmit = async (values: CreateAccountBody) => {
    const body = { ...values, name: values.name.trim() };
    try {
      const { data: account } = await create.mutateAsync(body);
      storeAccountUuid(account.uuid);
      await invalidateSession();
      toast.success(t('createAccount.created', { name: account.name }));
      await navigate(`/?uuid=${encodeURIComponent(account.uuid)}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        form.setError(
          'name',
          { type: 'server', message: t('createAccount.nameTaken') },
          { shouldFocus: true },
        );
        return;
      }
      throw error;
    }
  };

  const busy = form.formState.isSubmitting;
  return (
    <RuleForm form={form} onSubmit={onSubmit} aria-label={t('createAccount.title')}>
      <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('forms.requiredHint')}
        </Typography>
        <FormTextField
          name="name"
          label={t('createAccount.name')}
          rules={`required|max:${ACCOUNT_NAME_MAX}`}
          helperText={t('createAccount.nameHelp')}
          autoComplete="organization"
          autoFocus
        />
        <FormSelect name="country" label={t('createAccount.country')} rules="required" options={countries} />
        <FormSelect
          name="preferredLanguage"
          label={t('createAccount.language')}
          rules="required"
          options={languages}
          helperText={t('createAccount.languageHelp')}
        />
        <div>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? t('createAccount.submitting') : t('createAccount.submit')}
          </Button>
        </div>
      </Stack>
    </RuleForm>
  );
}
