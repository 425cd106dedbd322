import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ACCOUNT_NAME_MAX, LANGUAGES, type CreateAccountBody, type Language } from '@portal/contract';
import { ApiError } from '@/api/client.ts';
import { href } from '@/app/href.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { FormSelect, FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { useCreateAccount } from './api.ts';
import { countryOptions, defaultCountry } from '@/forms/countries.ts';
import { useNavigate } from '@/routing/navigation-view.tsx';

/** The language's name in the interface language ("Französisch"), for the account's preferred language. */
export function languageOptions(uiLanguage: string) {
  const names = new Intl.DisplayNames([uiLanguage], { type: 'language' });
  return LANGUAGES.map((code) => {
    const name = names.of(code) ?? code;
    return { value: code, label: name.charAt(0).toLocaleUpperCase(uiLanguage) + name.slice(1) };
  });
}

/**
 * Company name, country and preferred language, with the form's rules, for a new account (useCreateAccount).
 * Used by the create-account page and onboarding. A 409 (the user already has an account with that name) lands
 * on the name; the new account is stored and the user goes to it (the guard then asks the owner for the terms).
 */
export function CreateAccountForm() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const language = i18n.resolvedLanguage ?? currentLanguage();
  const countries = useMemo(() => countryOptions(language), [language]);
  const languages = useMemo(() => languageOptions(language), [language]);
  const form = useRuleForm<CreateAccountBody>({
    defaultValues: { name: '', country: defaultCountry(), preferredLanguage: currentLanguage() as Language },
  });
  const create = useCreateAccount();

  const onSubmit = async (values: CreateAccountBody) => {
    try {
      const { data: account } = await create.mutateAsync({ ...values, name: values.name.trim() });
      await navigate(href('dashboard', undefined, { uuid: account.uuid }));
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

  const busy = create.isPending;
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
