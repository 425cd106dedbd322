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
 * A payment reference as it is printed for people: a QR reference in groups of five from the right ("21 00000 …"),
 * a creditor reference (RF…) in groups of four.
 */
export function formatReference(reference: string): string {
  if (/^\d{27}$/.test(reference))
    return `${reference.slice(0, 2)} ${reference.slice(2).replace(/(\d{5})(?=\d)/g, '$1 ')}`;
  return reference.replace(/(.{4})(?=.)/g, '$1 ');
}
