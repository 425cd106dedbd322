import type { Plan, PostalAddress } from '@portal/contract';
import type { VatRate } from '../invoicing/money.ts';
import { DEFAULT_PLANS, loadPlansFile } from '../invoicing/plans.ts';
import { isValidIban } from '../invoicing/reference.ts';
import type { Brand } from './brand.ts';
import { ConfigError, days, type Env } from './parse.ts';

/** Who issues the invoices: printed on them and the creditor of their QR-bill. */
export interface Creditor {
  name: string;
  address: PostalAddress;
  /** A QR-IBAN (invoices carry a QR reference) or an IBAN (invoices carry a creditor reference, RF…). */
  iban: string;
  vatNumber: string | null;
  email: string;
  website: string | null;
}

export interface BillingConfig {
  plans: Plan[];
  /** VAT rates with the day each applies from; a rate applies to the days of a period on or after that day. */
  vatRates: VatRate[];
  creditor: Creditor;
  /** The product's brand on the invoice PDF: the same object as Config.brand (BRAND_COLOR, BRAND_LOGO). */
  brand: Brand;
  /** Days from issue to due date. */
  paymentTermDays: number;
  /** Reminder mails go out this many days after the due date of an unpaid invoice, one per entry. */
  reminderDays: number[];
  /** Admins see the past-due banner once an invoice is unpaid this many days after its due date. */
  pastDueBannerDays: number;
  /** Periods, issue and due dates are days in this time zone. */
  timeZone: string;
  /** Card payments through the configured provider (STRIPE_SECRET_KEY); null: invoices only. */
  card: {
    provider: 'stripe';
    secretKey: string;
    /** Another address of the provider's API (e.g. a local stand-in in tests); null: the provider's own. */
    apiUrl: string | null;
  } | null;
}

/** Billing settings; the provider's details default to a sample company so a local start issues complete invoices. */
export function billingConfig(env: Env, brand: Brand): BillingConfig {
  let plans = DEFAULT_PLANS;
  if (env.PLANS_FILE) {
    try {
      plans = loadPlansFile(env.PLANS_FILE);
    } catch (error) {
      throw new ConfigError('PLANS_FILE', (error as Error).message);
    }
  }
  const vatRates = (env.VAT_RATES || '7.7@2018-01-01,8.1@2024-01-01').split(',').map((entry) => {
    const match = /^\s*(\d{1,2}(?:\.\d{1,2})?)@(\d{4}-\d{2}-\d{2})\s*$/.exec(entry);
    if (!match) throw new ConfigError('VAT_RATES', `must be "<percent>@<YYYY-MM-DD>,…" (got "${entry}")`);
    return { rateBp: Math.round(Number(match[1]) * 100), validFrom: match[2]! };
  });
  const iban = (env.BILLING_IBAN || 'CH4431999123000889012').replace(/\s+/g, '');
  if (!isValidIban(iban)) {
    throw new ConfigError('BILLING_IBAN', 'is not a Swiss or Liechtenstein IBAN with valid check digits');
  }
  const country = env.BILLING_COUNTRY || 'CH';
  if (!/^[A-Z]{2}$/.test(country))
    throw new ConfigError('BILLING_COUNTRY', 'must be an ISO country code like CH');
  const reminderDays = (env.BILLING_REMINDER_DAYS || '10,30').split(',').map((entry) => {
    const value = Number(entry);
    if (!Number.isInteger(value) || value < 1)
      throw new ConfigError('BILLING_REMINDER_DAYS', 'must list days, e.g. 10,30');
    return value;
  });
  return {
    plans,
    vatRates,
    creditor: {
      name: env.BILLING_NAME || `${env.PRODUCT_NAME || 'Portal'} AG`,
      address: {
        street: env.BILLING_STREET || 'Bahnhofstrasse',
        buildingNumber: env.BILLING_BUILDING_NUMBER || '1',
        postcode: env.BILLING_POSTCODE || '8001',
        city: env.BILLING_CITY || 'Zürich',
        country,
      },
      iban,
      vatNumber: env.BILLING_VAT_NUMBER || 'CHE-123.456.789 MWST',
      email: env.BILLING_EMAIL || 'billing@example.com',
      website: env.BILLING_WEBSITE || null,
    },
    brand,
    paymentTermDays: days(env, 'BILLING_PAYMENT_TERM_DAYS', 30),
    reminderDays: reminderDays.sort((a, b) => a - b),
    pastDueBannerDays: days(env, 'BILLING_PAST_DUE_BANNER_DAYS', 14),
    timeZone: env.BILLING_TIME_ZONE || 'Europe/Zurich',
    card: env.STRIPE_SECRET_KEY
      ? { provider: 'stripe', secretKey: env.STRIPE_SECRET_KEY, apiUrl: env.STRIPE_API_URL || null }
      : null,
  };
}
