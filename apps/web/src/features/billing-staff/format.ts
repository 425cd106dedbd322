import { formatCurrency, formatDate } from '@/i18n/format.ts';

/** Digits after the decimal point of a currency (2 for CHF and EUR), as Intl knows them. */
function minorDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** An amount in minor units (Rappen, cents) as money of the current language: "CHF 1'234.50". */
export function formatMinor(minor: number, currency: string): string {
  return formatCurrency(minor / 10 ** minorDigits(currency), currency);
}

/** A calendar day (YYYY-MM-DD) in the current language; read at noon so no time zone moves it to another day. */
export function formatDay(day: string): string {
  return formatDate(`${day}T12:00:00`);
}

/**
 * A status chip keeps the text colour: coloured chip text (blue, orange, or red on dark) falls below the contrast
 * minimum, while the coloured outline only repeats what the text says.
 */
export const READABLE = { '& .MuiChip-label': { color: 'text.primary' } } as const;
