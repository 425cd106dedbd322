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

/**
 * An amount of money given in minor units (Rappen, cents: integers from the server), e.g. 123450 CHF →
 * "CHF 1'234.50". With the account's country the amount follows that country's conventions in the reader's
 * language (a Swiss account reads CHF 1'234.50 in German and English alike); without one, the language's locale.
 */
export function formatMoney(minor: number, currency: string, locale?: string, country?: string): string {
  const language = locale && locale in INTL_LOCALES ? locale : currentLanguage();
  const regional = country ? Intl.NumberFormat.supportedLocalesOf(`${language}-${country}`)[0] : undefined;
  return new Intl.NumberFormat(regional ?? intlLocale(locale), { style: 'currency', currency }).format(
    minor / 100,
  );
}

/** Midnight UTC of a calendar day (YYYY-MM-DD), so that the day stays the same in every time zone. */
function dayOf(isoDate: string): Date {
  return new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
}

/** A calendar day (YYYY-MM-DD, e.g. an invoice's due day) in the reader's language. */
export function formatDay(isoDate: string, locale?: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'long', timeZone: 'UTC' }).format(
    dayOf(isoDate),
  );
}

/**
 * The days from `start` up to, not including, `end` (how periods are given), as a range of their first and last
 * day: "1.–30. November 2026" (a period of one day or less shows that day).
 */
export function formatDayRange(
  start: string,
  end: string,
  locale?: string,
  dateStyle: 'long' | 'medium' = 'long',
): string {
  const first = dayOf(start);
  const last = new Date(Math.max(dayOf(end).getTime() - 86_400_000, first.getTime()));
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle, timeZone: 'UTC' }).formatRange(first, last);
}
