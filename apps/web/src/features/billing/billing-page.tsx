import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { billingRoutes, type BillingDetails, type Subscription } from '@portal/contract';
import { useCurrentAccountUuid, useMayCall } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { Page } from '@/ui/page.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { TableBox } from '@/ui/table-box.tsx';
import { billingDetailsQuery, subscriptionQuery } from './api.ts';
import { AddressText, LinesTable, formatDay, formatLastDay, formatMoney, usePlanName } from './amounts.tsx';
import { BillingDetailsForm } from './billing-details-form.tsx';
import { InvoiceDialog } from './invoice-dialog.tsx';
import { Loading } from './loading.tsx';
import { PaymentMethodCard } from './payment-method-card.tsx';
import { INVOICE_PARAM, InvoicesTable } from './invoices-table.tsx';

/** The plan, its period and seats, what the next invoice will charge and when; changes happen on subscriptions. */
// Two cards side by side on wide screens, stacked below. `minmax(0, …)`: a column never grows to fit a wide table
// inside it (the next invoice's lines scroll in their own box instead of widening the page).
const cardColumns = {
  display: 'grid',
  gap: 3,
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 2fr)' },
} as const;

function PlanCard({ subscription }: { subscription: Subscription | undefined }) {
  const { t, i18n } = useTranslation();
  const planName = usePlanName();
  const locale = i18n.resolvedLanguage;
  return (
    <SectionCard id="billing-plan" title={t('billing.plan.title')}>
      {!subscription ? (
        <Loading />
      ) : (
        <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography component="p" variant="h5" sx={{ fontWeight: 600 }}>
              {planName(subscription.planCode)}
            </Typography>
            <Chip size="small" label={t(`billing.periods.${subscription.billingPeriod}`)} />
            {subscription.status !== 'ACTIVE' && (
              <Chip
                size="small"
                variant="outlined"
                color={subscription.status === 'PAST_DUE' ? 'error' : 'default'}
                label={t(`billing.plan.statuses.${subscription.status}`)}
              />
            )}
          </Stack>
          <Typography>{t('billing.plan.seats', { count: subscription.seats })}</Typography>
          {subscription.trialEndsOn && subscription.status === 'TRIALING' && (
            <Typography>
              {t('billing.plan.trialEnds', { date: formatLastDay(subscription.trialEndsOn, locale) })}
            </Typography>
          )}
          {subscription.cancelAtPeriodEnd && (
            <Alert severity="warning" sx={{ width: '100%' }}>
              {t('billing.plan.endsOn', { date: formatLastDay(subscription.currentPeriodEnd, locale) })}
            </Alert>
          )}
          {subscription.upcoming ? (
            <Typography>
              {t('billing.plan.nextInvoice', {
                date: formatDay(subscription.upcoming.issuedOn, locale),
                amount: formatMoney(
                  subscription.upcoming.totals.totalMinor,
                  subscription.upcoming.totals.currency,
                ),
              })}
            </Typography>
          ) : (
            <Typography sx={{ color: 'text.secondary' }}>{t('billing.plan.noNextInvoice')}</Typography>
          )}
          <Button component={RouterLink} to={href('subscriptions')} variant="outlined">
            {t('billing.plan.manage')}
          </Button>
        </Stack>
      )}
    </SectionCard>
  );
}

/** The next invoice as it stands today, line by line, as the server computes it. */
function NextInvoiceCard({ subscription }: { subscription: Subscription | undefined }) {
  const { t, i18n } = useTranslation();
  const upcoming = subscription?.upcoming;
  return (
    <SectionCard id="billing-next" title={t('billing.next.title')}>
      {!subscription ? (
        <Loading />
      ) : !upcoming ? (
        <Typography sx={{ color: 'text.secondary' }}>{t('billing.plan.noNextInvoice')}</Typography>
      ) : (
        <>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
            {t('billing.next.intro', { date: formatDay(upcoming.issuedOn, i18n.resolvedLanguage) })}
          </Typography>
          <TableBox label={t('billing.next.title')}>
            <LinesTable lines={upcoming.lines} totals={upcoming.totals} label={t('billing.next.title')} />
          </TableBox>
        </>
      )}
    </SectionCard>
  );
}

/**
 * The billing address and what goes with it; an edit form in place. Until an admin saved the details the form is
 * open at once, starting from what the server proposes (the company profile's address).
 */
function BillingAddressCard({ account, details }: { account: string; details: BillingDetails | undefined }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const mayEdit = useMayCall(billingRoutes.updateBillingDetails);
  const proposing = Boolean(details && (details.updatedAt === null || !details.address));
  return (
    <SectionCard id="billing-address" title={t('billing.details.title')}>
      {!details ? (
        <Loading />
      ) : !mayEdit && !details.address ? (
        <Typography sx={{ color: 'text.secondary' }}>{t('billing.details.missing')}</Typography>
      ) : editing || (proposing && mayEdit) ? (
        <>
          {proposing && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {t(details.address ? 'billing.details.proposed' : 'billing.details.missing')}
            </Alert>
          )}
          <BillingDetailsForm
            account={account}
            details={details}
            onDone={editing ? () => setEditing(false) : undefined}
          />
        </>
      ) : (
        <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <AddressText name={details.name} address={details.address!} />
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2 }}>
            <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
              {t('billing.details.vatNumber')}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {details.vatNumber ?? '—'}
            </Typography>
            <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
              {t('billing.details.purchaseOrder')}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {details.purchaseOrder ?? '—'}
            </Typography>
          </Box>
          {mayEdit && (
            <Button variant="outlined" onClick={() => setEditing(true)}>
              {t('billing.details.edit')}
            </Button>
          )}
        </Stack>
      )}
    </SectionCard>
  );
}

/**
 * /billing: the account's plan and its price, the next invoice, the invoices with their PDFs, the payment method
 * and the billing address. Admins and above; every amount comes from the server.
 */
export default function BillingPage() {
  const { t } = useTranslation();
  const account = useCurrentAccountUuid();
  const [params, setParams] = useSearchParams();
  const subscription = useQuery(subscriptionQuery(account));
  const details = useQuery(billingDetailsQuery(account));
  const invoiceUuid = params.get(INVOICE_PARAM);
  const closeInvoice = () => {
    const next = new URLSearchParams(params);
    next.delete(INVOICE_PARAM);
    setParams(next);
  };

  return (
    <Page title={t('routes.billing')}>
      <Typography sx={{ mb: 3, color: 'text.secondary' }}>{t('billing.intro')}</Typography>
      <Stack spacing={3}>
        <Box sx={cardColumns}>
          <PlanCard subscription={subscription.data} />
          <NextInvoiceCard subscription={subscription.data} />
        </Box>
        <SectionCard id="billing-invoices" title={t('billing.invoices.title')}>
          <InvoicesTable titleId="billing-invoices" />
        </SectionCard>
        <Box sx={cardColumns}>
          <PaymentMethodCard account={account} details={details.data} />
          <BillingAddressCard account={account} details={details.data} />
        </Box>
      </Stack>
      {invoiceUuid && <InvoiceDialog key={invoiceUuid} invoiceUuid={invoiceUuid} onClose={closeInvoice} />}
    </Page>
  );
}
