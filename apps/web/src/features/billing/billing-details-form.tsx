import { useEffect, useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import {
  ADDRESS_BUILDING_NUMBER_MAX,
  ADDRESS_CITY_MAX,
  ADDRESS_POSTCODE_MAX,
  ADDRESS_STREET_MAX,
  EMAIL_MAX,
  INVOICE_RECIPIENTS_MAX,
  PURCHASE_ORDER_MAX,
  VAT_NUMBER_MAX,
  type BillingDetails,
  type PaymentMethod,
  type UpdateBillingDetailsBody,
} from '@portal/contract';
import { useCurrentAccount } from '@/api/session.ts';
import { countryOptions } from '@/forms/countries.ts';
import { FormSelect, FormTextField, RuleForm, useRuleForm, type RuleFormApi } from '@/forms/index.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { useUpdateBillingDetails } from './api.ts';
import './rules.ts';

export interface DetailsValues {
  address: { street: string; buildingNumber: string; postcode: string; city: string; country: string };
  vatNumber: string;
  recipients: string[];
  purchaseOrder: string;
  paymentMethod: PaymentMethod;
}

/**
 * The form's values from the details. Before an admin saved any, the server answers what invoices would be made
 * out to now (the company profile's address, UID or VAT number and billing email): the form starts from that.
 */
export function toValues(details: BillingDetails, country: string): DetailsValues {
  const address = details.address ?? {
    street: '',
    buildingNumber: null,
    postcode: '',
    city: '',
    country,
  };
  return {
    address: { ...address, buildingNumber: address.buildingNumber ?? '' },
    vatNumber: details.vatNumber ?? '',
    recipients: details.recipients.length ? details.recipients : [''],
    purchaseOrder: details.purchaseOrder ?? '',
    paymentMethod: details.paymentMethod,
  };
}

const orNull = (value: string) => (value.trim() ? value.trim() : null);

function toBody(values: DetailsValues): UpdateBillingDetailsBody {
  return {
    address: { ...values.address, buildingNumber: orNull(values.address.buildingNumber) },
    vatNumber: orNull(values.vatNumber),
    recipients: values.recipients.map((email) => email.trim()),
    purchaseOrder: orNull(values.purchaseOrder),
    paymentMethod: values.paymentMethod,
  };
}

/** The invoice recipients: one field per address, at least one and at most INVOICE_RECIPIENTS_MAX. */
function RecipientFields({ form }: { form: RuleFormApi<DetailsValues> }) {
  const { t } = useTranslation();
  const recipients = useWatch({ control: form.control, name: 'recipients' });
  const remove = (index: number) => {
    form.clearErrors('recipients');
    form.setValue(
      'recipients',
      recipients.filter((_, other) => other !== index),
      { shouldValidate: false },
    );
  };
  return (
    <Stack component="fieldset" spacing={1.5} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        {t('billing.details.recipients')}
      </Typography>
      {recipients.map((_, index) => (
        <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <FormTextField
            name={`recipients.${index}`}
            label={t('billing.details.recipient', { number: index + 1 })}
            rules={`required|email|distinctRecipient|max:${EMAIL_MAX}`}
            type="email"
            autoComplete="email"
            sx={{ flex: 1 }}
          />
          {recipients.length > 1 && (
            <IconButton
              aria-label={t('billing.details.removeRecipient', { number: index + 1 })}
              onClick={() => remove(index)}
              sx={{ mt: 1 }}
            >
              <DeleteOutline />
            </IconButton>
          )}
        </Stack>
      ))}
      {recipients.length < INVOICE_RECIPIENTS_MAX && (
        <Button
          startIcon={<Add />}
          onClick={() => form.setValue('recipients', [...recipients, ''], { shouldValidate: false })}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('billing.details.addRecipient')}
        </Button>
      )}
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('billing.details.recipientsHelp', { max: INVOICE_RECIPIENTS_MAX })}
      </Typography>
    </Stack>
  );
}

/**
 * The billing details with the rules the server also checks: a structured address (the QR-bill takes no combined
 * address lines), the UID or VAT number printed on invoices, who receives them, a purchase-order reference and
 * the payment method (card only where a card provider is set up and a card is saved).
 */
export function BillingDetailsForm({
  account,
  details,
  onDone,
}: {
  account: string;
  details: BillingDetails;
  onDone?: () => void;
}) {
  const { t, i18n } = useTranslation();
  // Without an address yet, the country is the account's own.
  const accountCountry = useCurrentAccount()?.country ?? 'CH';
  const language = i18n.resolvedLanguage ?? currentLanguage();
  const countries = useMemo(() => countryOptions(language), [language]);
  const form = useRuleForm<DetailsValues>({
    defaultValues: toValues(details, accountCountry),
  });
  const save = useUpdateBillingDetails(account);
  const country = useWatch({ control: form.control, name: 'address.country' });

  // The postcode's and the tax number's rules depend on the country: a field already checked is checked again.
  const { getFieldState, trigger } = form;
  useEffect(() => {
    for (const name of ['address.postcode', 'vatNumber'] as const) {
      const state = getFieldState(name);
      if (state.isTouched || state.error) void trigger(name);
    }
  }, [country, getFieldState, trigger]);

  // The payment method follows the saved card (saved or removed on the payment method card while this form is
  // open), so saving the form never switches paying by card on or off by accident.
  const { setValue } = form;
  useEffect(() => {
    setValue('paymentMethod', details.paymentMethod);
  }, [details.paymentMethod, setValue]);

  const onSubmit = async (values: DetailsValues) => {
    const { data } = await save.mutateAsync(toBody(values));
    form.reset(toValues(data, accountCountry));
    onDone?.();
  };

  // Paying by card can be chosen once a card is saved (on the payment method card, through the card provider).
  const methods: PaymentMethod[] = details.cardAvailable && details.card ? ['INVOICE', 'CARD'] : ['INVOICE'];
  return (
    <RuleForm form={form} onSubmit={onSubmit} aria-label={t('billing.details.formLabel')}>
      <Stack spacing={2.5} sx={{ maxWidth: 640 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('forms.requiredHint')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField
            name="address.street"
            label={t('billing.details.street')}
            rules={`required|max:${ADDRESS_STREET_MAX}`}
            autoComplete="address-line1"
            sx={{ flex: 1 }}
          />
          <FormTextField
            name="address.buildingNumber"
            label={t('billing.details.buildingNumber')}
            rules={`max:${ADDRESS_BUILDING_NUMBER_MAX}`}
            sx={{ width: { sm: 140 } }}
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField
            name="address.postcode"
            label={t('billing.details.postcode')}
            rules={`required|billingPostcode|max:${ADDRESS_POSTCODE_MAX}`}
            autoComplete="postal-code"
            sx={{ width: { sm: 160 } }}
          />
          <FormTextField
            name="address.city"
            label={t('billing.details.city')}
            rules={`required|max:${ADDRESS_CITY_MAX}`}
            autoComplete="address-level2"
            sx={{ flex: 1 }}
          />
        </Stack>
        <FormSelect
          name="address.country"
          label={t('billing.details.country')}
          rules="required"
          options={countries}
        />
        <FormTextField
          name="vatNumber"
          label={t('billing.details.vatNumber')}
          rules={`billingUid|billingUidCheckDigit|billingVatNumber|max:${VAT_NUMBER_MAX}`}
          helperText={t(country === 'CH' ? 'billing.details.uidHelp' : 'billing.details.vatNumberHelp')}
        />
        <RecipientFields form={form} />
        <FormTextField
          name="purchaseOrder"
          label={t('billing.details.purchaseOrder')}
          rules={`max:${PURCHASE_ORDER_MAX}`}
          helperText={t('billing.details.purchaseOrderHelp')}
        />
        <FormSelect
          name="paymentMethod"
          label={t('billing.details.paymentMethod')}
          rules="required"
          options={methods.map((method) => ({ value: method, label: t(`billing.methods.${method}`) }))}
        />
        <Stack direction="row" spacing={2}>
          <Button
            type="submit"
            variant="contained"
            disabled={save.isPending || (!form.formState.isDirty && details.updatedAt !== null)}
          >
            {save.isPending ? t('forms.saving') : t('forms.save')}
          </Button>
          {onDone && (
            <Button color="inherit" onClick={onDone} disabled={save.isPending}>
              {t('common.cancel')}
            </Button>
          )}
        </Stack>
      </Stack>
    </RuleForm>
  );
}
