import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { InvoiceLine, InvoiceStatus, InvoiceTotals, PostalAddress } from '@portal/contract';
import { useCurrentAccount } from '@/api/session.ts';
import { INTL_LOCALES, formatDayRange, formatMoney, formatNumber } from '@/i18n/format.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { DotChip } from '@/ui/dot-chip.tsx';
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

/** A VAT rate in basis points (810) as a percentage ("8.1 %"). */
export function formatRate(rateBp: number, locale?: string): string {
  return formatNumber(rateBp / 10_000, locale, { style: 'percent', maximumFractionDigits: 2 });
}

/** Amounts of the current account: in its country's conventions (a Swiss account reads CHF 1'234.50). */
export function useMoney(): (minor: number, currency: string) => string {
  const { i18n } = useTranslation();
  const account = useCurrentAccount();
  return (minor, currency) =>
    formatMoney(minor, currency, { locale: i18n.resolvedLanguage, country: account?.country });
}

/** Plan names by code, from the catalogue; a plan no longer offered keeps its code. */
export function usePlanName(): (code: string) => string {
  const account = useCurrentAccount()!.uuid;
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

/** What one line charges, in words: the plan and its period, extra seats, or a credit for unused time. */
export function useLineText(): (line: InvoiceLine) => string {
  const { t } = useTranslation();
  const planName = usePlanName();
  return (line) =>
    t(`billing.lineKinds.${line.kind}`, {
      plan: planName(line.planCode),
      period: t(`billing.periods.${line.billingPeriod}`),
      count: line.quantity,
    });
}

/** A table's head row: one column heading each, numbers aligned right. */
export function ColumnHeads({ columns }: { columns: { label: string; numeric?: boolean }[] }) {
  return (
    <TableHead>
      <TableRow>
        {columns.map((column) => (
          <TableCell key={column.label} scope="col" align={column.numeric ? 'right' : undefined}>
            {column.label}
          </TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}

/**
 * The lines of an invoice or preview with their net amounts, then net total, VAT per rate, the rounding and the
 * payable total. `label` names the table for screen readers.
 */
export function LinesTable({
  lines,
  totals,
  label,
}: {
  lines: readonly InvoiceLine[];
  totals: InvoiceTotals;
  label: string;
}) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const lineText = useLineText();
  const locale = i18n.resolvedLanguage;
  const amount = (minor: number) => money(minor, totals.currency);
  const sum = { '& th, & td': { borderBottom: 'none', py: 0.5 } };
  return (
    <Table size="small" aria-label={label}>
      <ColumnHeads
        columns={[
          { label: t('billing.lines.description') },
          { label: t('billing.lines.period') },
          { label: t('billing.lines.vatRate'), numeric: true },
          { label: t('billing.lines.amount'), numeric: true },
        ]}
      />
      <TableBody>
        {lines.map((line, index) => (
          <TableRow key={index}>
            <TableCell component="th" scope="row">
              {lineText(line)}
              {line.quantity > 1 && (
                <>
                  {' · '}
                  {t('billing.lines.quantity', {
                    count: line.quantity,
                    unit: amount(line.unitMinor),
                  })}
                </>
              )}
              {line.prorated && <> · {t('billing.lines.prorated')}</>}
            </TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {formatDayRange(line.periodStart, line.periodEnd, locale)}
            </TableCell>
            <TableCell align="right">{formatRate(line.vatRateBp, locale)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {amount(line.netMinor)}
            </TableCell>
          </TableRow>
        ))}
        <TableRow sx={sum}>
          <TableCell component="th" scope="row" colSpan={3} sx={{ pt: 1.5 }}>
            {t('billing.totals.net')}
          </TableCell>
          <TableCell align="right" sx={{ pt: 1.5 }}>
            {amount(totals.netMinor)}
          </TableCell>
        </TableRow>
        {totals.vat.map((vat) => (
          <TableRow key={vat.rateBp} sx={sum}>
            <TableCell component="th" scope="row" colSpan={3}>
              {t('billing.totals.vat', {
                rate: formatRate(vat.rateBp, locale),
                net: amount(vat.netMinor),
              })}
            </TableCell>
            <TableCell align="right">{amount(vat.vatMinor)}</TableCell>
          </TableRow>
        ))}
        {totals.roundingMinor !== 0 && (
          <TableRow sx={sum}>
            <TableCell component="th" scope="row" colSpan={3}>
              {t('billing.totals.rounding')}
            </TableCell>
            <TableCell align="right">{amount(totals.roundingMinor)}</TableCell>
          </TableRow>
        )}
        <TableRow sx={{ '& th, & td': { fontWeight: 700, borderBottom: 'none' } }}>
          <TableCell component="th" scope="row" colSpan={3}>
            {t('billing.totals.total', { currency: totals.currency })}
          </TableCell>
          <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
            {amount(totals.totalMinor)}
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
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
