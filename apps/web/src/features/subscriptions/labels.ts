import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Currency, InvoiceLine, Plan } from '@portal/contract';
import { useCurrentAccount } from '@/api/session.ts';
import { formatMoney, formatNumber } from '@/i18n/format.ts';

/**
 * Amounts of the current account as the server gave them (minor units), in the reader's language and the
 * conventions of the account's country: a Swiss account reads "CHF 1'234.50".
 */
export function useMoney(): (minor: number, currency: Currency) => string {
  const { i18n } = useTranslation();
  const country = useCurrentAccount()?.country;
  const locale = i18n.resolvedLanguage;
  return useCallback(
    (minor: number, currency: Currency) => formatMoney(minor, currency, locale, country),
    [locale, country],
  );
}

/** A VAT rate given in basis points (810) as a percentage: "8.1 %". */
export function formatVatRate(rateBp: number, locale?: string): string {
  return formatNumber(rateBp / 10_000, locale, { style: 'percent', maximumFractionDigits: 2 });
}

/** A plan's name by its code; a code the catalogue no longer has is shown as it is. */
export function planName(plans: readonly Plan[], code: string): string {
  return plans.find((plan) => plan.code === code)?.name ?? code;
}

/** What an invoice line charges or credits, in the reader's language: "Professional, jährlich". */
export function useLineText(plans: readonly Plan[]): (line: InvoiceLine) => string {
  const { t } = useTranslation();
  return (line) => {
    const values = {
      plan: planName(plans, line.planCode),
      period: t(`subscriptions.periods.${line.billingPeriod}`),
      count: line.quantity,
    };
    const text = t(`subscriptions.lines.${line.kind}`, values);
    return line.prorated ? `${text} (${t('subscriptions.lines.prorated')})` : text;
  };
}
