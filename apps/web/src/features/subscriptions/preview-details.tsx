import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { InvoiceLine, InvoiceTotals, Plan, SubscriptionPreview } from '@portal/contract';
import { formatDay, formatDayRange } from '@/i18n/format.ts';
import { formatVatRate, planName, useLineText, useMoney } from './labels.ts';

/** The lines of a charge and its totals: net, VAT per rate, the rounding and the payable total. */
export function ChargeTable({
  lines,
  totals,
  plans,
  label,
}: {
  lines: readonly InvoiceLine[];
  totals: InvoiceTotals;
  plans: readonly Plan[];
  label: string;
}) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const lineText = useLineText(plans);
  const amount = (minor: number) => money(minor, totals.currency);
  const sumRow = { '& th, & td': { borderBottom: 'none', py: 0.5 } };
  const sum = (text: string, minor: number, strong = false) => (
    <TableRow sx={strong ? { ...sumRow, '& th, & td': { borderBottom: 'none', fontWeight: 700 } } : sumRow}>
      <TableCell component="th" scope="row" colSpan={2}>
        {text}
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {amount(minor)}
      </TableCell>
    </TableRow>
  );
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          <TableCell scope="col">{t('subscriptions.preview.description')}</TableCell>
          <TableCell scope="col">{t('subscriptions.preview.days')}</TableCell>
          <TableCell scope="col" align="right">
            {t('subscriptions.preview.amount')}
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {lines.map((line, index) => (
          <TableRow key={index}>
            <TableCell component="th" scope="row">
              {lineText(line)}
            </TableCell>
            <TableCell>{formatDayRange(line.periodStart, line.periodEnd, i18n.resolvedLanguage)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {amount(line.netMinor)}
            </TableCell>
          </TableRow>
        ))}
        {sum(t('subscriptions.preview.net'), totals.netMinor)}
        {totals.vat.map((vat) => (
          <Fragment key={vat.rateBp}>
            {sum(
              t('subscriptions.preview.vat', {
                rate: formatVatRate(vat.rateBp, i18n.resolvedLanguage),
                net: amount(vat.netMinor),
              }),
              vat.vatMinor,
            )}
          </Fragment>
        ))}
        {totals.roundingMinor !== 0 && sum(t('subscriptions.preview.rounding'), totals.roundingMinor)}
        {sum(t('subscriptions.preview.total'), totals.totalMinor, true)}
      </TableBody>
    </Table>
  );
}

/**
 * The server's preview of an action as the confirmation dialog shows it: when it applies, what the subscription
 * is afterwards, what is charged now, and what recurs afterwards. Every amount is the server's.
 */
export function PreviewDetails({
  preview,
  plans,
  cancelling,
}: {
  preview: SubscriptionPreview;
  plans: readonly Plan[];
  cancelling: boolean;
}) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const locale = i18n.resolvedLanguage;
  const after = preview.subscription.pendingChange ?? preview.subscription;
  const effectiveOn = formatDay(preview.effectiveOn, locale);
  return (
    <Stack spacing={2}>
      <Typography>
        {preview.effective === 'NOW'
          ? t('subscriptions.preview.effectiveNow', { date: effectiveOn })
          : t('subscriptions.preview.effectivePeriodEnd', { date: effectiveOn })}
      </Typography>
      <Typography sx={{ fontWeight: 600 }}>
        {cancelling
          ? t('subscriptions.preview.afterCancel', { date: effectiveOn })
          : t('subscriptions.preview.after', {
              plan: planName(plans, after.planCode),
              period: t(`subscriptions.periods.${after.billingPeriod}`),
              seats: after.seats,
            })}
      </Typography>
      {preview.charge ? (
        <div>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('subscriptions.preview.chargedNow')}
          </Typography>
          <ChargeTable
            lines={preview.charge.lines}
            totals={preview.charge.totals}
            plans={plans}
            label={t('subscriptions.preview.chargedNow')}
          />
          <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
            {t('subscriptions.preview.invoiceNote')}
          </Typography>
        </div>
      ) : (
        <Typography>{t('subscriptions.preview.nothingNow')}</Typography>
      )}
      <Typography>
        {preview.recurring
          ? t('subscriptions.preview.recurring', {
              amount: money(preview.recurring.totals.totalMinor, preview.recurring.totals.currency),
              per: t(`subscriptions.per.${after.billingPeriod}`),
              date: formatDay(preview.recurring.from, locale),
            })
          : t('subscriptions.preview.noRecurring')}
      </Typography>
    </Stack>
  );
}
