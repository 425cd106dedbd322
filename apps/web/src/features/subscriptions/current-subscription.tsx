import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Plan, Subscription } from '@portal/contract';
import { href } from '@/app/href.ts';
import { formatDay, formatDayRange, formatLastDay, formatMoney } from '@/i18n/format.ts';
import { DotChip } from '@/ui/dot-chip.tsx';
import { Fact, FactList } from '@/ui/fact.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { planName } from './labels.ts';
import type { Flow } from './action-dialog.tsx';

const STATUS_COLORS = {
  TRIALING: 'info',
  ACTIVE: 'success',
  PAST_DUE: 'error',
  CANCELLED: 'disabled',
} as const;

/** The subscription's state as a chip: its status, the trial's end, or the end of a cancelled one. */
function StatusChip({ subscription }: { subscription: Subscription }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage;
  const label =
    subscription.cancelAtPeriodEnd && subscription.status !== 'CANCELLED'
      ? t('subscriptions.status.endsOn', { date: formatLastDay(subscription.currentPeriodEnd, locale) })
      : t(`subscriptions.status.${subscription.status}`, {
          date: subscription.trialEndsOn ? formatLastDay(subscription.trialEndsOn, locale) : '',
        });
  const color = subscription.cancelAtPeriodEnd ? 'warning' : STATUS_COLORS[subscription.status];
  return <DotChip color={color} label={label} />;
}

/** The account's plan, period, seats, status and next invoice, with the actions on the subscription itself. */
export function CurrentSubscription({
  subscription,
  plans,
  onAction,
}: {
  subscription: Subscription;
  plans: readonly Plan[];
  /** Starts a change; absent where the caller may not change the subscription (staff in a customer's account). */
  onAction?: (flow: Flow) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage;
  const plan = plans.find((candidate) => candidate.code === subscription.planCode);
  const price = plan?.prices[subscription.currency];
  const free = !price || (price.monthlyMinor === 0 && price.yearlyMinor === 0);
  const pending = subscription.pendingChange;
  const period = t(`subscriptions.periods.${subscription.billingPeriod}`);
  const cancelled = subscription.status === 'CANCELLED';
  return (
    <SectionCard id="subscription-current" title={t('subscriptions.current.heading')}>
      <Stack spacing={2}>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
          <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
            {`${planName(plans, subscription.planCode)}, ${period}`}
          </Typography>
          <StatusChip subscription={subscription} />
        </Stack>
        <FactList columns={3}>
          <Fact label={t('subscriptions.current.period')}>
            {formatDayRange(subscription.currentPeriodStart, subscription.currentPeriodEnd, locale)}
          </Fact>
          <Fact label={t('subscriptions.current.seats')}>
            {t('subscriptions.current.seatsValue', {
              inUse: subscription.seatsInUse,
              seats: subscription.seats,
            })}
          </Fact>
          <Fact label={t('subscriptions.current.nextInvoice')}>
            {subscription.upcoming
              ? t('subscriptions.current.nextInvoiceValue', {
                  amount: formatMoney(
                    subscription.upcoming.totals.totalMinor,
                    subscription.upcoming.totals.currency,
                  ),
                  date: formatDay(subscription.upcoming.issuedOn, locale),
                })
              : t('subscriptions.current.noNextInvoice')}
          </Fact>
        </FactList>
        {subscription.status === 'PAST_DUE' && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" component={RouterLink} to={href('billing')}>
                {t('routes.billing')}
              </Button>
            }
          >
            {t('subscriptions.current.pastDue')}
          </Alert>
        )}
        {pending && (
          <Alert severity="info">
            {t('subscriptions.current.pendingChange', {
              date: formatDay(pending.effectiveOn, locale),
              plan: planName(plans, pending.planCode),
              period: t(`subscriptions.periods.${pending.billingPeriod}`),
              seats: pending.seats,
            })}
          </Alert>
        )}
        {subscription.cancelAtPeriodEnd && !cancelled && (
          <Alert
            severity="warning"
            action={
              onAction && (
                <Button color="inherit" onClick={() => onAction({ kind: 'resume' })}>
                  {t('subscriptions.actions.resume')}
                </Button>
              )
            }
          >
            {t('subscriptions.current.cancelAtPeriodEnd', {
              date: formatLastDay(subscription.currentPeriodEnd, locale),
            })}
            {subscription.cancelReason &&
              ` ${t('subscriptions.current.cancelReason', {
                reason: t(`subscriptions.reasons.${subscription.cancelReason}`),
              })}`}
          </Alert>
        )}
        {plan && !cancelled && onAction && (
          <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              onClick={() =>
                onAction({
                  kind: 'change',
                  plan,
                  period: subscription.billingPeriod,
                  seats: subscription.seats,
                  title: t('subscriptions.dialog.seatsTitle'),
                })
              }
            >
              {t('subscriptions.actions.changeSeats')}
            </Button>
            {!free && !subscription.cancelAtPeriodEnd && (
              <Button variant="outlined" color="error" onClick={() => onAction({ kind: 'cancel' })}>
                {t('subscriptions.actions.cancel')}
              </Button>
            )}
          </Stack>
        )}
      </Stack>
    </SectionCard>
  );
}
