import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Typography from '@mui/material/Typography';
import type { InvoiceStatus, PostalAddress } from '@portal/contract';
import { useCurrentAccountUuid } from '@/api/session.ts';
import { INTL_LOCALES } from '@/i18n/format.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { DotChip } from '@/ui/dot-chip.tsx';
import { LinesTable as SharedLinesTable } from '@/ui/invoice-lines.tsx';
import { plansQuery } from './api.ts';

export { formatDay, formatDayRange } from '@/i18n/format.ts';

// How the billing page writes amounts, days, periods and invoice lines. Every figure comes from the server; these
// helpers only format them in the reader's language.

/** Calendar days in a table's short form ("19.11.2026"), read as UTC days so no time zone moves them. */
function shortDays(locale?: string): Intl.DateTimeFormat {
  const language = (locale ?? currentLanguage()) as keyof typeof INTL_LOCALES;
  return new Intl.DateTimeFormat(INTL_LOCALES[language] ?? language, {
    dateStyle: 'medium',
    timeZone: 'UTC',
  });
}
const utcDay = (day: string) => new Date(`${day}T00:00:00Z`);

export function formatShortDay(day: string, locale?: string): string {
  return shortDays(locale).format(utcDay(day));
}

/** A period (its end not included) as its first and last day, in the short form. */
export function formatShortPeriod(start: string, end: string, locale?: string): string {
  const last = new Date(utcDay(end).getTime() - 86_400_000);
  return shortDays(locale).formatRange(utcDay(start), last);
}

/**
 * A payment reference in the groups people type it in: a 27-digit QR reference as 2 + 5 × 5 digits, a creditor
 * reference (RF…) in groups of four.
 */
export function formatReference(reference: string): string {
  if (/^\d{27}$/.test(reference))
    return reference.replace(/^(\d{2})(\d{5})(\d{5})(\d{5})(\d{5})(\d{5})$/, '$1 $2 $3 $4 $5 $6');
  return reference.replace(/(.{4})(?=.)/g, '$1 ');
}

export { ColumnHeads, formatRate, useMoney } from '@/ui/invoice-lines.tsx';

/** The lines and totals of an invoice or preview, with plan names from the catalogue. */
export function LinesTable(props: Omit<Parameters<typeof SharedLinesTable>[0], 'planName'>) {
  return <SharedLinesTable {...props} planName={usePlanName()} />;
}

/** Plan names by code, from the catalogue; a plan no longer offered keeps its code. */
export function usePlanName(): (code: string) => string {
  const account = useCurrentAccountUuid();
  const { data: plans = [] } = useQuery({ ...plansQuery(account), meta: { silentError: true } });
  return (code) => plans.find((plan) => plan.code === code)?.name ?? code;
}

// Colours of the status dot.
const STATUS_COLORS: Record<InvoiceStatus, 'info' | 'success' | 'error' | 'disabled'> = {
  OPEN: 'info',
  PAID: 'success',
  OVERDUE: 'error',
  VOID: 'disabled',
};

export function InvoiceStatusChip({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  return <DotChip color={STATUS_COLORS[status]} label={t(`billing.status.${status}`)} />;
}

/** A postal address as it is written on a letter: street and number, postcode and city, country. */
export function AddressText({ name, address }: { name?: string; address: PostalAddress | null }) {
  const { i18n } = useTranslation();
  const country = new Intl.DisplayNames([i18n.resolvedLanguage ?? currentLanguage()], { type: 'region' });
  return (
    <Typography component="address" sx={{ fontStyle: 'normal' }}>
      {name && (
        <>
          {name}
          <br />
        </>
      )}
      {address && (
        <>
          {[address.street, address.buildingNumber].filter(Boolean).join(' ')}
          <br />
          {address.postcode} {address.city}
          <br />
          {country.of(address.country) ?? address.country}
        </>
      )}
    </Typography>
  );
}
