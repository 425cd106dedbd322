import * as format from '@portal/contract';
import { isLanguage, type Language } from '@portal/contract';
import { currentLanguage } from './i18n.ts';

// The web's side of the one set of formatters in the contract (decision 201): the same functions the server's mails
// and the invoice PDF use, with the interface language as the default. Money takes the API's minor units.

export { formatMoney, formatReference, INTL_LOCALES } from '@portal/contract';

type DateInput = string | number | Date;

/** The given interface language, or the current one. */
function languageOf(locale?: string): Language {
  return isLanguage(locale) ? locale : currentLanguage();
}

/** The date of an instant in Swiss time: "1. November 2027". */
export const formatDate = (value: DateInput, locale?: string) => format.formatDate(value, languageOf(locale));

/** Date and time of an instant in Swiss time: "01.11.2027, 11:05". */
export const formatDateTime = (value: DateInput, locale?: string) =>
  format.formatDateTime(value, languageOf(locale));

/** A calendar day (YYYY-MM-DD, e.g. an invoice's due day), long: "1. November 2027". */
export const formatDay = (isoDate: string, locale?: string) => format.formatDay(isoDate, languageOf(locale));

/** The last day of a period given as the day after it (a subscription's period end): "31. Oktober 2027". */
export const formatLastDay = (end: string, locale?: string) => format.formatLastDay(end, languageOf(locale));

/** A calendar day in figures, as tables show it: "01.11.2027". */
export const formatShortDay = (isoDate: string, locale?: string) =>
  format.formatShortDay(isoDate, languageOf(locale));

/** The days from `start` up to, not including, `end` (how periods are given): "1.–30. November 2026". */
export const formatDayRange = (start: string, end: string, locale?: string) =>
  format.formatPeriod(start, end, languageOf(locale));

/** A period in figures: "01.11.2026 – 30.11.2026". */
export const formatShortPeriod = (start: string, end: string, locale?: string) =>
  format.formatShortPeriod(start, end, languageOf(locale));

/** A VAT rate in basis points (810) as a percentage: "8.1 %". */
export const formatRate = (rateBp: number, locale?: string) => format.formatRate(rateBp, languageOf(locale));

/** A count or other plain number in the reader's language (not money: that is formatMoney). */
export function formatNumber(value: number, locale?: string, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(format.INTL_LOCALES[languageOf(locale)], options).format(value);
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
  const relative = new Intl.RelativeTimeFormat(format.INTL_LOCALES[languageOf(locale)], { numeric: 'auto' });
  let amount = ((value instanceof Date ? value : new Date(value)).getTime() - now) / 1000;
  if (Math.abs(amount) < 60) return relative.format(0, 'second');
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return relative.format(Math.round(amount), 'year');
}
