import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { subscriptionsRoutes } from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { useCurrentAccount, useMayCall } from '@/api/session.ts';
import { Page } from '@/ui/page.tsx';
import { ActionDialog, type Flow } from './action-dialog.tsx';
import { plansQuery, subscriptionQuery } from './api.ts';
import { CurrentSubscription } from './current-subscription.tsx';
import { PlanCards } from './plan-cards.tsx';

function Subscriptions({ accountUuid }: { accountUuid: string }) {
  const { t } = useTranslation();
  const plans = useQuery(plansQuery(accountUuid));
  const subscription = useQuery(subscriptionQuery(accountUuid));
  const [flow, setFlow] = useState<Flow | null>(null);
  // Each dialog starts afresh: a new key for every action the user starts.
  const [flowKey, setFlowKey] = useState(0);
  const start = (next: Flow) => {
    setFlowKey((key) => key + 1);
    setFlow(next);
  };
  // A change ends in its confirmation: who may not confirm one (staff) is offered none.
  const change = useMayCall(subscriptionsRoutes.confirmSubscription) ? start : undefined;

  const error = plans.error ?? subscription.error;
  if (error) {
    if (error instanceof ApiError && error.status === 403) {
      return <Alert severity="info">{t('subscriptions.dialog.denied')}</Alert>;
    }
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={() => void Promise.all([plans.refetch(), subscription.refetch()])}>
            {t('subscriptions.retry')}
          </Button>
        }
      >
        {t('subscriptions.loadFailed')}
      </Alert>
    );
  }
  if (!plans.data || !subscription.data) {
    return (
      <Stack spacing={3} aria-busy="true" aria-label={t('subscriptions.loading')}>
        <Skeleton variant="rounded" height={200} />
        <Skeleton variant="rounded" height={420} />
      </Stack>
    );
  }
  return (
    <Stack spacing={3}>
      <Typography sx={{ color: 'text.secondary' }}>{t('subscriptions.intro')}</Typography>
      <CurrentSubscription subscription={subscription.data} plans={plans.data} onAction={change} />
      <PlanCards
        key={subscription.data.billingPeriod}
        plans={plans.data}
        subscription={subscription.data}
        onAction={change}
      />
      {flow && (
        <ActionDialog
          key={flowKey}
          accountUuid={accountUuid}
          flow={flow}
          subscription={subscription.data}
          plans={plans.data}
          onClose={() => setFlow(null)}
        />
      )}
    </Stack>
  );
}

/** /subscriptions (ADMIN and above): the current subscription, the plans, and every change with its preview. */
export default function SubscriptionsPage() {
  const { t } = useTranslation();
  const account = useCurrentAccount();
  return (
    <Page title={t('routes.subscriptions')}>
      {account && <Subscriptions key={account.uuid} accountUuid={account.uuid} />}
    </Page>
  );
}
