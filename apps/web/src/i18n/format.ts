import type { Language } from '@portal/contract';
import { currentLanguage } from './i18n.ts';

/**
 * Intl locales per interface language. The portal serves Swiss customers (CHF, de/fr/it/en), so formats follow
 * the Swiss conventions of each language; weeks start on Monday in every locale.
 */
export const INTL_LOCALES: Record<Language, string> = { de: 'de-CH', fr: 'fr-CH', it: 'it-CH', en: 'en-GB' };
export const WEEK_STARTS_ON = 1;

type DateInput = string | number | Date;

function intlLocale(locale?: string): string {
  if (!locale) return INTL_LOCALES[currentLanguage()];
  return locale in INTL_LOCALES ? INTL_LOCALES[locale as Language] : locale;
}

function toDate(value: DateInput): Date {
  return value instanceof Date ? value : new Date(value);
}

export function formatDate(value: DateInput, locale?: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'long' }).format(toDate(value));
}

export function formatDateTime(value: DateInput, locale?: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(
    toDate(value),
  );
}

export function formatNumber(value: number, locale?: string, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(intlLocale(locale), options).format(value);
}

export function formatCurrency(amount: number, currency = 'CHF', locale?: string): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency }).format(amount);
}
