import { useEffect, useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  ACCOUNT_NAME_MAX,
  CITY_MAX,
  EMAIL_MAX,
  PHONE_MAX,
  STREET_MAX,
  TAX_NUMBER_MAX,
  WEBSITE_MAX,
  companyRoutes,
  type CompanyProfile,
  type UpdateCompanyBody,
} from '@portal/contract';
import { ApiError } from '@/api/client.ts';
import { useMayCall } from '@/api/session.ts';
import { countryOptions } from '@/forms/countries.ts';
import { FormSelect, FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { useSaveCompanyProfile } from './api.ts';
import './rules.ts';

type Values = { [K in keyof UpdateCompanyBody]-?: string };

function toValues(profile: CompanyProfile): Values {
  return {
    legalName: profile.legalName,
    street: profile.street ?? '',
    postcode: profile.postcode ?? '',
    city: profile.city ?? '',
    country: profile.country,
    uid: profile.uid ?? '',
    vatNumber: profile.vatNumber ?? '',
    billingEmail: profile.billingEmail ?? '',
    phone: profile.phone ?? '',
    website: profile.website ?? '',
  };
}

/**
 * Legal name, address, tax number and contact data, with the rules the server also checks. Swiss companies give a
 * UID, others a VAT number: the field follows the country, and only the one shown is sent.
 */
export function CompanyDetailsForm({ account, profile }: { account: string; profile: CompanyProfile }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? currentLanguage();
  const countries = useMemo(() => countryOptions(language), [language]);
  const form = useRuleForm<Values>({ defaultValues: toValues(profile) });
  const save = useSaveCompanyProfile(account);
  const mayEdit = useMayCall(companyRoutes.updateCompanyProfile);
  const country = useWatch({ control: form.control, name: 'country' });
  const swiss = country === 'CH';

  // The postcode's rule depends on the country: a postcode already checked is checked again for the new one.
  const { getFieldState, trigger } = form;
  useEffect(() => {
    const state = getFieldState('postcode');
    if (state.isTouched || state.error) void trigger('postcode');
  }, [country, getFieldState, trigger]);

  const onSubmit = async (values: Values) => {
    const body: UpdateCompanyBody = {
      ...values,
      uid: swiss ? values.uid : null,
      vatNumber: swiss ? null : values.vatNumber,
    };
    try {
      const { data } = await save.mutateAsync(body);
      form.reset(toValues(data));
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        form.setError(
          'legalName',
          { type: 'server', message: t('company.nameTaken') },
          { shouldFocus: true },
        );
        return;
      }
      throw error;
    }
  };

  return (
    <RuleForm form={form} onSubmit={onSubmit} aria-label={t('company.details')} readOnly={!mayEdit}>
      <Stack spacing={2.5} sx={{ maxWidth: 640 }}>
        <FormTextField
          name="legalName"
          label={t('company.legalName')}
          rules={`required|max:${ACCOUNT_NAME_MAX}`}
          autoComplete="organization"
        />
        <FormTextField
          name="street"
          label={t('company.street')}
          rules={`required|max:${STREET_MAX}`}
          autoComplete="street-address"
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField
            name="postcode"
            label={t('company.postcode')}
            rules="required|postcode"
            autoComplete="postal-code"
            sx={{ width: { sm: 160 } }}
          />
          <FormTextField
            name="city"
            label={t('company.city')}
            rules={`required|max:${CITY_MAX}`}
            autoComplete="address-level2"
            sx={{ flex: 1 }}
          />
        </Stack>
        <FormSelect name="country" label={t('company.country')} rules="required" options={countries} />
        {swiss ? (
          <FormTextField
            key="uid"
            name="uid"
            label={t('company.uid')}
            rules={`uid|uidCheckDigit|max:${TAX_NUMBER_MAX}`}
            helperText={t('company.uidHelp')}
            placeholder="CHE-123.456.789"
          />
        ) : (
          <FormTextField
            key="vatNumber"
            name="vatNumber"
            label={t('company.vatNumber')}
            rules={`vatNumber|max:${TAX_NUMBER_MAX}`}
            helperText={t('company.vatNumberHelp')}
          />
        )}
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, pt: 1 }}>
          {t('company.contact')}
        </Typography>
        <FormTextField
          name="billingEmail"
          label={t('company.billingEmail')}
          rules={`email|max:${EMAIL_MAX}`}
          type="email"
          autoComplete="email"
        />
        <FormTextField
          name="phone"
          label={t('company.phone')}
          rules={`phone|max:${PHONE_MAX}`}
          type="tel"
          autoComplete="tel"
          placeholder="+41 44 123 45 67"
        />
        <FormTextField
          name="website"
          label={t('company.website')}
          rules={`url|max:${WEBSITE_MAX}`}
          helperText={t('company.websiteHelp')}
          type="url"
          autoComplete="url"
        />
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {mayEdit && (
            <Button type="submit" variant="contained" disabled={save.isPending || !form.formState.isDirty}>
              {save.isPending ? t('forms.saving') : t('forms.save')}
            </Button>
          )}
          {profile.updatedAt && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('company.lastChanged', { date: formatDateTime(profile.updatedAt, language) })}
            </Typography>
          )}
        </Stack>
      </Stack>
    </RuleForm>
  );
}
