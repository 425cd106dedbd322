import { useTranslation } from 'react-i18next';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { InvoiceLine, InvoiceTotals } from '@portal/contract';
import { formatDayRange, formatMoney, formatRate } from '@/i18n/format.ts';
import { RowActionsCell } from './row-actions-cell.tsx';

// Invoice lines and totals as the billing page's invoices and the subscriptions page's previews show them: the
// same words for the same line, so a preview reads like the invoice that follows it. Every figure is the server's;
// these helpers only format it. The texts are the billing section's.

/** What one line charges, in words: the plan and its period, extra seats, or a credit for unused time. */
export function useLineText(planName: (code: string) => string): (line: InvoiceLine) => string {
  const { t } = useTranslation();
  return (line) =>
    t(`billing.lineKinds.${line.kind}`, {
      plan: planName(line.planCode),
      period: t(`billing.periods.${line.billingPeriod}`),
      count: line.quantity,
    });
}

/** A table's head row: one column heading each, numbers aligned right, the row actions' column kept in view. */
export function ColumnHeads({
  columns,
}: {
  columns: { label: string; numeric?: boolean; actions?: boolean }[];
}) {
  return (
    <TableHead>
      <TableRow>
        {columns.map((column) =>
          column.actions ? (
            <RowActionsCell key={column.label} scope="col">
              {column.label}
            </RowActionsCell>
          ) : (
            <TableCell key={column.label} scope="col" align={column.numeric ? 'right' : undefined}>
              {column.label}
            </TableCell>
          ),
        )}
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
  planName,
}: {
  lines: readonly InvoiceLine[];
  totals: InvoiceTotals;
  label: string;
  planName: (code: string) => string;
}) {
  const { t, i18n } = useTranslation();
  const lineText = useLineText(planName);
  const locale = i18n.resolvedLanguage;
  const amount = (minor: number) => formatMoney(minor, totals.currency);
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
            <TableCell>{formatDayRange(line.periodStart, line.periodEnd, locale)}</TableCell>
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
