import Stripe from 'stripe';
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
  /** Where the provider sends the admin back after saving (or abandoning) the card. */
  returnUrl: string;
}

export interface CardChargeInput {
  customerId: string;
  paymentMethodId: string;
  amountMinor: number;
  currency: Currency;
  invoiceUuid: string;
  invoiceNumber: string;
}

export interface CardPayments {
  /** A page of the provider where an admin saves a card for later charges; with the customer it belongs to. */
  createSetupUrl(input: CardSetupInput): Promise<{ url: string; customerId: string }>;
  /**
   * Charges a saved card for an invoice, once per invoice (the invoice is the idempotency key at the provider):
   * `succeeded` false when the card was declined or needs the customer.
   */
  charge(input: CardChargeInput): Promise<{ succeeded: boolean; paymentId: string }>;
}

/** The adapter for Stripe, through Stripe's own Node library (setup by Checkout, charges off session). */
export function stripeCardPayments(secretKey: string, client?: Stripe): CardPayments {
  const stripe = client ?? new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000 });
  return {
    async createSetupUrl(input) {
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
        cancel_url: input.returnUrl,
        metadata: { accountUuid: input.accountUuid },
      });
      if (!session.url) throw new Error('Stripe returned a setup session without a URL');
      return { url: session.url, customerId };
    },
    async charge(input) {
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
      return { succeeded: intent.status === 'succeeded', paymentId: intent.id };
    },
  };
}

/** The card port of the configuration: null unless a provider is configured with its keys. */
export function cardPaymentsFor(config: Pick<BillingConfig, 'card'>): CardPayments | null {
  if (!config.card) return null;
  return stripeCardPayments(config.card.secretKey);
}
