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
 * Locale for an account's amounts: the reader's language with the account's country, so a Swiss account reads
 * "CHF 1'234.50" in every language and a German one "1.234,50 €"; without a country, the language's own locale.
 */
function moneyLocale(locale: string | undefined, country: string | undefined): string {
  const base = intlLocale(locale);
  if (!country) return base;
  const language = base.split('-')[0] ?? base;
  const [supported] = Intl.NumberFormat.supportedLocalesOf(`${language}-${country}`);
  return supported ?? base;
}

/**
 * An amount the server computed, given in minor units (Rappen, cents) of its currency. Only formatting happens
 * here: the minor units become the currency's decimals.
 */
export function formatMoney(
  minor: number,
  currency: string,
  { locale, country }: { locale?: string; country?: string } = {},
): string {
  const format = new Intl.NumberFormat(moneyLocale(locale, country), { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
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
 * day: "1.–30. November 2026".
 */
export function formatDayRange(start: string, end: string, locale?: string): string {
  const last = new Date(dayOf(end).getTime() - 86_400_000);
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'long', timeZone: 'UTC' }).formatRange(
    dayOf(start),
    last,
  );
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** How long ago (or from now) `value` is, in the largest fitting unit: "vor 5 Minuten", "gerade eben" (< 1 min). */
export function formatRelativeTime(value: DateInput, locale?: string, now: number = Date.now()): string {
  const format = new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'auto' });
  let amount = (toDate(value).getTime() - now) / 1000;
  if (Math.abs(amount) < 60) return format.format(0, 'second');
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), 'year');
}
