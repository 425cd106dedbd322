import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import {
  SHOP_API_KEY_MAX,
  SHOP_SYNC_INTERVALS,
  peppershopRoutes,
  SHOP_URL_MAX,
  isOtherShopHost,
  shopKeyProblem,
  shopUrlProblem,
  type SaveShopBody,
  type ShopState,
  type ShopTestResult,
} from '@portal/contract';
import { ApiError } from '@/api/client.ts';
import { useMayCall } from '@/api/session.ts';
import {
  FormCheckbox,
  FormSelect,
  FormTextField,
  RuleForm,
  serverFieldErrors,
  useRuleForm,
  type RuleFunction,
} from '@/forms/index.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';
import { useSaveShop, useTestShop } from './api.ts';

type Values = SaveShopBody;

function toValues(state: ShopState): Values {
  const connection = state.connection;
  return {
    url: connection?.url ?? '',
    apiKey: '',
    syncProducts: connection?.syncProducts ?? true,
    syncOrders: connection?.syncOrders ?? true,
    syncCustomers: connection?.syncCustomers ?? true,
    interval: connection?.interval ?? 'HOURS_1',
    enabled: connection?.enabled ?? true,
  };
}

/** A contract rule's problem (a message key of this area) as the field's message. */
const asMessage = (problem: string | null) => (problem ? later(problem as ParseKeys) : true);

/** The outcome of "Test connection", in words, beside the buttons. */
function TestOutcome({ outcome }: { outcome: ShopTestResult }) {
  const { t } = useTranslation();
  const ok = outcome.result === 'OK';
  return (
    <Alert severity={ok ? 'success' : 'error'} role="status" data-testid="shop-test-result">
      {ok
        ? t('peppershop.results.OK', { shop: outcome.shopName ?? '' })
        : t(`peppershop.results.${outcome.result}`)}
    </Alert>
  );
}

/**
 * Address, key and sync options of the shop, with the rules the server also checks. The key is never shown: a
 * stored one appears as its last four characters, and an empty field keeps it.
 */
export function ShopConfigForm({ account, state }: { account: string; state: ShopState }) {
  const { t } = useTranslation();
  const toast = useToast();
  const form = useRuleForm<Values>({ defaultValues: toValues(state) });
  const save = useSaveShop(account);
  const test = useTestShop(account);
  const [outcome, setOutcome] = useState<ShopTestResult | null>(null);
  const stored = state.connection;
  // "Manually only" has no schedule to switch on or off: the switch is not shown (its value is kept).
  const manual = useWatch({ control: form.control, name: 'interval' }) === 'MANUAL';

  const urlRule: RuleFunction = (value) =>
    asMessage(shopUrlProblem(String(value ?? ''), state.allowsLocalShops));
  const keyRule: RuleFunction = (value, ctx) => {
    const text = String(value ?? '');
    if (!stored && text.trim() === '') return later('peppershop.errors.keyRequired');
    if (stored && text.trim() === '' && isOtherShopHost(String(ctx.values?.url ?? ''), stored.url)) {
      return later('peppershop.errors.keyNewAddress');
    }
    return asMessage(shopKeyProblem(text));
  };

  /** Field errors the server found (422) land on their fields, in words of this area. */
  const showServerErrors = (error: unknown) => {
    const fields = Object.entries(serverFieldErrors(error)).filter(
      ([name]) => name === 'url' || name === 'apiKey',
    );
    if (!(error instanceof ApiError) || error.status !== 422 || fields.length === 0) throw error;
    fields.forEach(([name, key], index) =>
      form.setError(
        name as 'url' | 'apiKey',
        { type: 'server', message: later(key as ParseKeys) },
        { shouldFocus: index === 0 },
      ),
    );
    toast.error(later('fieldIsNotCorrect', { count: fields.length }, 'validation'));
  };

  const onSubmit = async (values: Values) => {
    try {
      const { data } = await save.mutateAsync(values);
      form.reset(toValues(data));
    } catch (error) {
      showServerErrors(error);
    }
  };

  const runTest = async () => {
    setOutcome(null);
    if (!(await form.trigger(['url', 'apiKey']))) return;
    const { url, apiKey } = form.getValues();
    try {
      setOutcome(await test.mutateAsync({ url, apiKey }));
    } catch (error) {
      showServerErrors(error);
    }
  };

  // Staff in a customer's account see the configuration and may only test the stored connection.
  const maySave = useMayCall(peppershopRoutes.saveShopConnection);
  const mayTest = useMayCall(peppershopRoutes.testShopConnection);
  const testStored = async () => {
    setOutcome(null);
    setOutcome(await test.mutateAsync({ url: '', apiKey: '' }));
  };

  const intervals = SHOP_SYNC_INTERVALS.map((value) => ({
    value,
    label: t(`peppershop.intervals.${value}`),
  }));
  return (
    <>
      <RuleForm form={form} onSubmit={onSubmit} aria-label={t('peppershop.connection')} readOnly={!maySave}>
        <Stack spacing={2.5} sx={{ maxWidth: 640 }}>
          <FormTextField
            name="url"
            label={t('peppershop.url')}
            rules={[urlRule, `max:${SHOP_URL_MAX}`]}
            required
            type="url"
            placeholder="https://shop.example.ch"
            helperText={t(state.allowsLocalShops ? 'peppershop.urlHelpDemo' : 'peppershop.urlHelp')}
          />
          <FormTextField
            name="apiKey"
            label={t('peppershop.apiKey')}
            rules={[keyRule, `max:${SHOP_API_KEY_MAX}`]}
            required={!stored}
            type="password"
            autoComplete="off"
            helperText={
              stored
                ? t('peppershop.keyStored', { lastFour: stored.apiKeyLastFour })
                : t('peppershop.keyHelp')
            }
          />
          <FormControl component="fieldset">
            <FormLabel component="legend" sx={{ mb: 0.5 }}>
              {t('peppershop.syncWhat')}
            </FormLabel>
            <FormCheckbox
              name="syncProducts"
              label={t('peppershop.kinds.products')}
              fieldLabel={t('peppershop.kinds.products')}
            />
            <FormCheckbox
              name="syncOrders"
              label={t('peppershop.kinds.orders')}
              fieldLabel={t('peppershop.kinds.orders')}
            />
            <FormCheckbox
              name="syncCustomers"
              label={t('peppershop.kinds.customers')}
              fieldLabel={t('peppershop.kinds.customers')}
            />
          </FormControl>
          <FormSelect
            name="interval"
            label={t('peppershop.interval')}
            options={intervals}
            sx={{ maxWidth: 320 }}
          />
          {!manual && (
            <FormCheckbox
              name="enabled"
              label={t('peppershop.enabled')}
              fieldLabel={t('peppershop.enabled')}
              helperText={t('peppershop.enabledHelp')}
            />
          )}
          {maySave && outcome && <TestOutcome outcome={outcome} />}
          {maySave && (
            <Stack direction="row" spacing={1.5} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
              <Button type="submit" variant="contained" loading={save.isPending}>
                {t('peppershop.save')}
              </Button>
              <Button
                type="button"
                variant="outlined"
                onClick={() => void runTest()}
                loading={test.isPending}
              >
                {t('peppershop.test')}
              </Button>
            </Stack>
          )}
        </Stack>
      </RuleForm>
      {!maySave && mayTest && stored && (
        <Stack spacing={2.5} sx={{ mt: 2.5, maxWidth: 640, alignItems: 'flex-start' }}>
          {outcome && <TestOutcome outcome={outcome} />}
          <Button variant="outlined" onClick={() => void testStored()} loading={test.isPending}>
            {t('peppershop.test')}
          </Button>
        </Stack>
      )}
    </>
  );
}
