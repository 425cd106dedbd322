import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import type { InvoiceLine, InvoiceStatus, InvoiceTotals, PostalAddress } from '@portal/contract';
import { useCurrentAccount } from '@/api/session.ts';
import { INTL_LOCALES, formatDate, formatMoney, formatNumber } from '@/i18n/format.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { plansQuery } from './api.ts';

// How the billing page writes amounts, days, periods and invoice lines. Every figure comes from the server; these
// helpers only format them in the reader's language.

/** A calendar day of the API (YYYY-MM-DD) as a local date, so no time zone moves it to the day before. */
function localDay(day: string, plusDays = 0): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date! + plusDays);
}

export function formatDay(day: string, locale?: string): string {
  return formatDate(localDay(day), locale);
}

/**
 * A period as the API gives it (from its first day up to, not including, its end) as people read it: from the
 * first to the last day, e.g. "1.–31. Jan. 2026".
 */
export function formatPeriod(start: string, end: string, locale?: string): string {
  const language = locale ?? currentLanguage();
  const format = new Intl.DateTimeFormat(INTL_LOCALES[language as keyof typeof INTL_LOCALES] ?? language, {
    dateStyle: 'medium',
  });
  const last = localDay(end, -1);
  const first = localDay(start);
  return last < first ? format.format(first) : format.formatRange(first, last);
}

/** A VAT rate in basis points (810) as a percentage ("8.1 %"). */
export function formatRate(rateBp: number, locale?: string): string {
  return formatNumber(rateBp / 10_000, locale, { style: 'percent', maximumFractionDigits: 2 });
}

/** Amounts of the current account: in its country's conventions (a Swiss account reads CHF 1'234.50). */
export function useMoney(): (minor: number, currency: string) => string {
  const { i18n } = useTranslation();
  const account = useCurrentAccount();
  return (minor, currency) => formatMoney(minor, currency, i18n.resolvedLanguage, account?.country);
}

/** Plan names by code, from the catalogue; a plan no longer offered keeps its code. */
export function usePlanName(): (code: string) => string {
  const account = useCurrentAccount()!.uuid;
  const { data: plans = [] } = useQuery({ ...plansQuery(account), meta: { silentError: true } });
  return (code) => plans.find((plan) => plan.code === code)?.name ?? code;
}

// Colours of the status dot; the chip's text keeps the theme's text colour, readable in both themes.
const STATUS_COLORS: Record<InvoiceStatus, 'info' | 'success' | 'error' | 'disabled'> = {
  OPEN: 'info',
  PAID: 'success',
  OVERDUE: 'error',
  VOID: 'disabled',
};

export function InvoiceStatusChip({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<FiberManualRecord color={STATUS_COLORS[status]} sx={{ fontSize: 12 }} />}
      label={t(`billing.status.${status}`)}
    />
  );
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
      <TableHead>
        <TableRow>
          <TableCell scope="col">{t('billing.lines.description')}</TableCell>
          <TableCell scope="col">{t('billing.lines.period')}</TableCell>
          <TableCell scope="col" align="right">
            {t('billing.lines.vatRate')}
          </TableCell>
          <TableCell scope="col" align="right">
            {t('billing.lines.amount')}
          </TableCell>
        </TableRow>
      </TableHead>
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
              {formatPeriod(line.periodStart, line.periodEnd, locale)}
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
export function AddressText({ name, address }: { name?: string; address: PostalAddress }) {
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
      {[address.street, address.buildingNumber].filter(Boolean).join(' ')}
      <br />
      {address.postcode} {address.city}
      <br />
      {country.of(address.country) ?? address.country}
    </Typography>
  );
}
