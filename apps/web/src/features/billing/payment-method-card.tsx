import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/routing/navigation-view.tsx';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { billingRoutes, type BillingDetails } from '@portal/contract';
import { useMayCall } from '@/api/session.ts';
import { SectionCard } from '@/ui/section-card.tsx';
import { useCompleteCardSetup, useRemoveCard, useStartCardSetup } from './api.ts';
import { Loading } from './loading.tsx';

/** The address parameter the card provider's page sends the admin back with: its setup session. */
export const CARD_SESSION_PARAM = 'cardSession';

/** "visa" → "Visa", as the provider names brands in lower case. */
const brandName = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);

/**
 * Back from the card provider's page with a setup session in the address: the card is kept, once (the parameter
 * is removed at once, so reloading or going back does not send it again).
 */
function useCardReturn(account: string) {
  const [params, setParams] = useSearchParams();
  const complete = useCompleteCardSetup(account);
  // The provider sends the admin back to the account the setup was started for (named in the address).
  const forAccount = !params.get('uuid') || params.get('uuid') === account;
  const sessionId = forAccount ? params.get(CARD_SESSION_PARAM) : null;
  const sent = useRef<string | null>(null);
  const { mutate } = complete;
  useEffect(() => {
    if (!sessionId || sent.current === sessionId) return;
    sent.current = sessionId;
    mutate(sessionId);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CARD_SESSION_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [sessionId, mutate, setParams]);
  return complete;
}

/**
 * How the account pays: by invoice with a QR-bill, or by the saved card where a card provider is set up. With a
 * provider, the admin saves a card on its page (and comes back here) or removes it; without one, nothing here is
 * about cards.
 */
export function PaymentMethodCard({
  account,
  details,
}: {
  account: string;
  details: BillingDetails | undefined;
}) {
  const { t } = useTranslation();
  const returned = useCardReturn(account);
  const start = useStartCardSetup(account);
  const remove = useRemoveCard(account);
  const card = details?.cardAvailable ? details.card : null;
  const mayChange = useMayCall(billingRoutes.startCardSetup);
  return (
    <SectionCard id="billing-method" title={t('billing.method.title')}>
      {!details ? (
        <Loading />
      ) : (
        <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          {returned.isPending && (
            <Typography role="status" sx={{ color: 'text.secondary' }}>
              {t('billing.method.completing')}
            </Typography>
          )}
          {returned.isSuccess && <Alert severity="success">{t('billing.method.cardSaved')}</Alert>}
          {returned.isError && <Alert severity="error">{t('billing.method.cardFailed')}</Alert>}
          <Typography sx={{ fontWeight: 600 }}>{t(`billing.methods.${details.paymentMethod}`)}</Typography>
          {card && (
            <Typography>
              {brandName(card.brand)} <span aria-hidden="true">••••</span> {card.last4}
            </Typography>
          )}
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t(details.paymentMethod === 'CARD' ? 'billing.method.cardHelp' : 'billing.method.invoiceHelp')}
          </Typography>
          {details.recipients.length > 0 && (
            <Typography sx={{ wordBreak: 'break-word' }}>
              {t('billing.method.sentTo', { emails: details.recipients.join(', ') })}
            </Typography>
          )}
          {details.cardAvailable && !card && mayChange && (
            <>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('billing.method.addCardHelp')}
              </Typography>
              <Button
                variant="outlined"
                onClick={() => start.mutate()}
                disabled={start.isPending || start.isSuccess}
              >
                {start.isPending || start.isSuccess
                  ? t('billing.method.opening')
                  : t('billing.method.addCard')}
              </Button>
            </>
          )}
          {card && mayChange && (
            <Button
              color="error"
              variant="outlined"
              onClick={() => remove.mutate()}
              disabled={remove.isPending}
            >
              {remove.isPending ? t('billing.method.removing') : t('billing.method.removeCard')}
            </Button>
          )}
        </Stack>
      )}
    </SectionCard>
  );
}
