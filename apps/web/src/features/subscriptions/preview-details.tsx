import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Plan, SubscriptionPreview } from '@portal/contract';
import { formatDay, formatLastDay, formatMoney } from '@/i18n/format.ts';
import { LinesTable } from '@/ui/invoice-lines.tsx';
import { planName } from './labels.ts';

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
  const locale = i18n.resolvedLanguage;
  const after = preview.subscription.pendingChange ?? preview.subscription;
  const effectiveOn = formatDay(preview.effectiveOn, locale);
  const dearer = preview.costsMoreThanStaying;
  const currency = preview.subscription.currency;
  return (
    <Stack spacing={2}>
      {dearer && (
        <Alert severity="warning">
          {t('subscriptions.preview.costsMore', {
            new: formatMoney(dearer.newYearlyNetMinor, currency),
            current: formatMoney(dearer.currentYearlyNetMinor, currency),
          })}
        </Alert>
      )}
      {/* A cancellation says its last day below; "from 1 December" beside "ends on 30 November" would confuse. */}
      {!cancelling && (
        <Typography>
          {preview.effective === 'NOW'
            ? t('subscriptions.preview.effectiveNow', { date: effectiveOn })
            : t('subscriptions.preview.effectivePeriodEnd', { date: effectiveOn })}
        </Typography>
      )}
      <Typography sx={{ fontWeight: 600 }}>
        {cancelling
          ? t('subscriptions.preview.afterCancel', { date: formatLastDay(preview.effectiveOn, locale) })
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
          <LinesTable
            lines={preview.charge.lines}
            totals={preview.charge.totals}
            planName={(code) => planName(plans, code)}
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
              amount: formatMoney(preview.recurring.totals.totalMinor, preview.recurring.totals.currency),
              per: t(`subscriptions.per.${after.billingPeriod}`),
              date: formatDay(preview.recurring.from, locale),
            })
          : t('subscriptions.preview.noRecurring')}
      </Typography>
    </Stack>
  );
}
