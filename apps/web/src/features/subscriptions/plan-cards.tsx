import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import CheckOutlined from '@mui/icons-material/CheckOutlined';
import {
  BILLING_PERIODS,
  proposedSeats,
  type BillingPeriod,
  type Plan,
  type Subscription,
} from '@portal/contract';
import { formatDay, formatMoney } from '@/i18n/format.ts';
import { SectionCard } from '@/ui/section-card.tsx';
import type { Flow } from './action-dialog.tsx';

function PlanCard({
  plans,
  plan,
  current,
  period,
  subscription,
  onAction,
}: {
  plans: readonly Plan[];
  plan: Plan;
  current: Plan | undefined;
  period: BillingPeriod;
  subscription: Subscription;
  /** Starts a change; absent where the caller may not change the subscription (staff in a customer's account). */
  onAction?: (flow: Flow) => void;
}) {
  const { t, i18n } = useTranslation();
  const nameId = useId();
  const currency = subscription.currency;
  const price = plan.prices[currency];
  const per = t(`subscriptions.per.${period}`);
  const isCurrent = plan.code === subscription.planCode && subscription.status !== 'CANCELLED';
  // "Aktueller Plan" only on the tab of the period the subscription runs on: a yearly plan is not current monthly.
  const isCurrentHere = isCurrent && period === subscription.billingPeriod;
  const pending = subscription.pendingChange;
  const scheduled = pending?.planCode === plan.code && pending.billingPeriod === period ? pending : null;
  const tooSmall = plan.maxSeats !== null && plan.maxSeats < subscription.seatsInUse;
  const upgrade = !isCurrent && !(current && plan.rank < current.rank);
  const label = isCurrent
    ? t(`subscriptions.plans.switchPeriod.${period}`)
    : upgrade
      ? t('subscriptions.plans.upgrade', { plan: plan.name })
      : t('subscriptions.plans.downgrade', { plan: plan.name });
  const choose = () =>
    onAction?.({
      kind: 'change',
      plan,
      period,
      seats: isCurrent ? subscription.seats : proposedSeats(plans, subscription, plan),
      title:
        isCurrent && period === subscription.billingPeriod
          ? t('subscriptions.plans.keep', { plan: plan.name })
          : t('subscriptions.dialog.changeTitle', {
              plan: plan.name,
              period: t(`subscriptions.periods.${period}`),
            }),
    });
  return (
    <Paper
      variant="outlined"
      component="article"
      aria-labelledby={nameId}
      sx={{
        p: 2.5,
        display: 'flex',
        flexDirection: 'column',
        gap: 1.5,
        ...(isCurrentHere && { borderColor: 'primary.main', borderWidth: 2 }),
      }}
    >
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}
      >
        <Typography id={nameId} component="h3" variant="h6" sx={{ fontWeight: 600 }}>
          {plan.name}
        </Typography>
        {isCurrentHere && <Chip size="small" color="primary" label={t('subscriptions.plans.currentPlan')} />}
      </Stack>
      <div>
        <Typography component="p" variant="h5" sx={{ fontWeight: 600 }}>
          {formatMoney(period === 'MONTHLY' ? price.monthlyMinor : price.yearlyMinor, currency)}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {`${per}, ${t('subscriptions.plans.exclVat')}`}
        </Typography>
      </div>
      <Stack spacing={0.5}>
        <Typography variant="body2">
          {t('subscriptions.plans.includedSeats', { count: plan.includedSeats })}
        </Typography>
        {plan.maxSeats !== plan.includedSeats && (
          <Typography variant="body2">
            {t('subscriptions.plans.extraSeat', {
              price: formatMoney(
                period === 'MONTHLY' ? price.seatMonthlyMinor : price.seatYearlyMinor,
                currency,
              ),
              per,
            })}
          </Typography>
        )}
        {plan.maxSeats !== null && (
          <Typography variant="body2">
            {t('subscriptions.plans.maxSeats', { count: plan.maxSeats })}
          </Typography>
        )}
      </Stack>
      <List dense disablePadding aria-label={t('subscriptions.plans.features', { plan: plan.name })}>
        {plan.features.map((feature) => (
          <ListItem key={feature} disableGutters>
            <ListItemIcon sx={{ minWidth: 32 }}>
              <CheckOutlined fontSize="small" color="success" aria-hidden />
            </ListItemIcon>
            <ListItemText primary={t(`subscriptions.features.${feature}`)} />
          </ListItem>
        ))}
      </List>
      <Box sx={{ mt: 'auto' }}>
        {scheduled ? (
          <Chip
            variant="outlined"
            label={t('subscriptions.plans.scheduled', {
              date: formatDay(scheduled.effectiveOn, i18n.resolvedLanguage),
            })}
          />
        ) : !onAction ? null : isCurrent && period === subscription.billingPeriod ? (
          pending && (
            <Button variant="outlined" onClick={choose} fullWidth>
              {t('subscriptions.plans.keep', { plan: plan.name })}
            </Button>
          )
        ) : tooSmall ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('subscriptions.plans.tooSmall', { inUse: subscription.seatsInUse, max: plan.maxSeats })}
          </Typography>
        ) : (
          <Button variant={upgrade ? 'contained' : 'outlined'} onClick={choose} fullWidth>
            {label}
          </Button>
        )}
      </Box>
    </Paper>
  );
}

/** The catalogue side by side, priced for the chosen billing period in the account's currency. */
export function PlanCards({
  plans,
  subscription,
  onAction,
}: {
  plans: readonly Plan[];
  subscription: Subscription;
  /** Starts a change; absent where the caller may not change the subscription (staff in a customer's account). */
  onAction?: (flow: Flow) => void;
}) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<BillingPeriod>(subscription.billingPeriod);
  const current = plans.find((plan) => plan.code === subscription.planCode);
  const sorted = [...plans].sort((a, b) => a.rank - b.rank);
  return (
    <SectionCard id="subscription-plans" title={t('subscriptions.plans.heading')}>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={period}
        onChange={(_event, value: BillingPeriod | null) => value && setPeriod(value)}
        aria-label={t('subscriptions.plans.periodLabel')}
        sx={{ mb: 2 }}
      >
        {BILLING_PERIODS.map((value) => (
          <ToggleButton key={value} value={value}>
            {t(`subscriptions.plans.${value}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: `repeat(${Math.min(sorted.length, 3)}, minmax(0, 1fr))` },
        }}
      >
        {sorted.map((plan) => (
          <PlanCard
            key={plan.code}
            plans={plans}
            plan={plan}
            current={current}
            period={period}
            subscription={subscription}
            onAction={onAction}
          />
        ))}
      </Box>
    </SectionCard>
  );
}
