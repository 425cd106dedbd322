import type Stripe from 'stripe';
import type { Currency } from '@portal/contract';
import type { BillingConfig } from '../../config.ts';

// Paying by card goes through a payment provider behind this port. It exists only when the provider is configured
// with its keys; without one, accounts pay by invoice with the QR-bill and nothing pretends to take a card.

export interface CardSetupInput {
  /** The provider's customer of the account, when one was created before. */
  customerId: string | null;
  accountUuid: string;
  accountName: string;
  email: string;
  /** Where the provider sends the admin back after saving the card; `{CHECKOUT_SESSION_ID}` names the session. */
  returnUrl: string;
  /** Where the provider sends the admin back when the card was not saved. */
  cancelUrl: string;
}

export interface CardChargeInput {
  customerId: string;
  paymentMethodId: string;
  amountMinor: number;
  currency: Currency;
  invoiceUuid: string;
  invoiceNumber: string;
}

/** A card saved through the provider's setup page: its customer, the payment method and what to show of it. */
export interface SavedCard {
  customerId: string;
  paymentMethodId: string;
  brand: string;
  last4: string;
}

export interface CardCharge {
  succeeded: boolean;
  /** The provider's payment (null when it refused before creating one). */
  paymentId: string | null;
  /** The provider's reason when the card was declined (e.g. card_declined). */
  declineCode: string | null;
}

export interface CardPayments {
  /** A page of the provider where an admin saves a card for later charges; with the customer it belongs to. */
  createSetupUrl(input: CardSetupInput): Promise<{ url: string; customerId: string }>;
  /**
   * The card saved in a finished setup session; null when the provider knows no such session or it has not
   * saved a card (abandoned, still open).
   */
  completeSetup(sessionId: string): Promise<SavedCard | null>;
  /**
   * Charges a saved card for an invoice, once per invoice (the invoice is the idempotency key at the provider):
   * `succeeded` false when the card was declined or needs the customer.
   */
  charge(input: CardChargeInput): Promise<CardCharge>;
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** Stripe's library loads with the first card payment, not at the server's start (decision 253). */
const loadStripe = async () => (await import('stripe')).default;

/**
 * The adapter for Stripe, through Stripe's own Node library (setup by Checkout, charges off session); the client is
 * made on first use with `options` (defaults: two retries, 20 s timeout).
 */
export function stripeCardPayments(secretKey: string, options?: Stripe.StripeConfig): CardPayments {
  let client: Promise<Stripe> | undefined;
  const api = () =>
    (client ??= loadStripe().then(
      (StripeClient) => new StripeClient(secretKey, options ?? { maxNetworkRetries: 2, timeout: 20_000 }),
    ));
  return {
    async createSetupUrl(input) {
      const stripe = await api();
      const customerId =
        input.customerId ??
        (
          await stripe.customers.create(
            { name: input.accountName, email: input.email, metadata: { accountUuid: input.accountUuid } },
            { idempotencyKey: `customer:${input.accountUuid}` },
          )
        ).id;
      const session = await stripe.checkout.sessions.create({
        mode: 'setup',
        customer: customerId,
        currency: 'chf',
        success_url: input.returnUrl,
        cancel_url: input.cancelUrl,
        metadata: { accountUuid: input.accountUuid },
      });
      if (!session.url) throw new Error('Stripe returned a setup session without a URL');
      return { url: session.url, customerId };
    },
    async completeSetup(sessionId) {
      const stripe = await api();
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(sessionId, {
          expand: ['setup_intent.payment_method'],
        });
      } catch (error) {
        if (
          error instanceof (await loadStripe()).errors.StripeInvalidRequestError &&
          error.statusCode === 404
        )
          return null;
        throw error;
      }
      const customerId = idOf(session.customer);
      const intent = session.setup_intent;
      if (session.status !== 'complete' || !customerId || !intent || typeof intent === 'string') return null;
      if (intent.status !== 'succeeded') return null;
      const method = intent.payment_method;
      if (!method || typeof method === 'string' || !method.card) return null;
      return { customerId, paymentMethodId: method.id, brand: method.card.brand, last4: method.card.last4 };
    },
    async charge(input) {
      const stripe = await api();
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: input.amountMinor,
            currency: input.currency.toLowerCase(),
            customer: input.customerId,
            payment_method: input.paymentMethodId,
            off_session: true,
            confirm: true,
            description: input.invoiceNumber,
            metadata: { invoiceUuid: input.invoiceUuid },
          },
          { idempotencyKey: `invoice:${input.invoiceUuid}` },
        );
        const succeeded = intent.status === 'succeeded';
        return { succeeded, paymentId: intent.id, declineCode: succeeded ? null : intent.status };
      } catch (error) {
        // A declined card (or one that needs its holder) is an answer, not a failure: the invoice is paid by bank.
        if (error instanceof (await loadStripe()).errors.StripeCardError) {
          return {
            succeeded: false,
            paymentId: error.payment_intent?.id ?? null,
            declineCode: error.decline_code ?? error.code ?? 'card_error',
          };
        }
        throw error;
      }
    },
  };
}

/** The card port of the configuration: null unless a provider is configured with its keys. */
export function cardPaymentsFor(config: Pick<BillingConfig, 'card'>): CardPayments | null {
  if (!config.card) return null;
  const api = config.card.apiUrl ? new URL(config.card.apiUrl) : null;
  return stripeCardPayments(
    config.card.secretKey,
    api
      ? {
          host: api.hostname,
          port: Number(api.port) || (api.protocol === 'http:' ? 80 : 443),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
          maxNetworkRetries: 0,
          timeout: 20_000,
        }
      : undefined,
  );
}
