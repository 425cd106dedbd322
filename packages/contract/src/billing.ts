import Type from 'typebox';
import { DateTime, EMAIL_MAX, Entity, ErrorBody, Uuid, PageNumber } from './common.ts';
import { FileBytes } from './company.ts';
import { defineRoute } from './route.ts';

// Billing, customer side: the invoices of an account, its billing details, card payment and past-due status. What
// staff do with payments across accounts (bank files, credits, invoices marked paid or voided) is billing-staff.ts.
// Money is always an integer number of minor units (Rappen, cents) with its currency beside it, never a float.
// Every amount is computed on the server; the web only formats what it receives.

export const CURRENCIES = ['CHF', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const CurrencySchema = Type.Enum(CURRENCIES);

export const BILLING_PERIODS = ['MONTHLY', 'YEARLY'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];
export const BillingPeriodSchema = Type.Enum(BILLING_PERIODS);

/** A calendar day, YYYY-MM-DD (periods, issue and due dates are days in the provider's time zone). */
export const IsoDate = Type.String({ format: 'date' });

/** What an invoice line charges: the plan, extra seats, or a credit for the unused part of what was paid before. */
export const INVOICE_LINE_KINDS = ['PLAN', 'SEATS', 'PLAN_CREDIT', 'SEATS_CREDIT'] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];

/**
 * One line of an invoice (or of a preview): structured, so the web, the PDF and the mails each say it in the
 * reader's language. `netMinor` is quantity × unit price, prorated when `prorated` (negative for credits); VAT is
 * computed per line and rounded to the minor unit.
 */
export const InvoiceLine = Type.Object({
  kind: Type.Enum(INVOICE_LINE_KINDS),
  planCode: Type.String(),
  billingPeriod: BillingPeriodSchema,
  quantity: Type.Integer(),
  unitMinor: Type.Integer(),
  netMinor: Type.Integer(),
  /** VAT rate in basis points (8.1 % = 810). */
  vatRateBp: Type.Integer(),
  vatMinor: Type.Integer(),
  /** The days this line pays for: from `periodStart` up to, not including, `periodEnd`. */
  periodStart: IsoDate,
  periodEnd: IsoDate,
  prorated: Type.Boolean(),
});
export type InvoiceLine = Type.Static<typeof InvoiceLine>;

/** VAT shown per rate: the net amount taxed at that rate and the tax. */
export const VatAmount = Type.Object({
  rateBp: Type.Integer(),
  netMinor: Type.Integer(),
  vatMinor: Type.Integer(),
});
export type VatAmount = Type.Static<typeof VatAmount>;

/**
 * Totals of an invoice or preview: net, VAT per rate, the rounding difference and the payable total (CHF to 0.05,
 * EUR to 0.01).
 */
export const InvoiceTotals = Type.Object({
  currency: CurrencySchema,
  netMinor: Type.Integer(),
  vat: Type.Array(VatAmount),
  vatMinor: Type.Integer(),
  roundingMinor: Type.Integer(),
  totalMinor: Type.Integer(),
});
export type InvoiceTotals = Type.Static<typeof InvoiceTotals>;

export const INVOICE_STATUSES = ['OPEN', 'PAID', 'OVERDUE', 'VOID'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const InvoiceStatusSchema = Type.Enum(INVOICE_STATUSES);

/** A voided invoice gets a credit note, a document of its own with its own number. */
export const INVOICE_KINDS = ['INVOICE', 'CREDIT_NOTE'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** Why an invoice was issued: a new period, a change inside one, or the credit for a voided invoice. */
export const INVOICE_REASONS = ['PERIOD', 'CHANGE', 'VOID'] as const;
export type InvoiceReason = (typeof INVOICE_REASONS)[number];

/** Invoice numbers: the year and a sequence without gaps inside it, e.g. 2026-000123. */
export function formatInvoiceNumber(year: number, sequence: number): string {
  return `${year}-${String(sequence).padStart(6, '0')}`;
}

export const InvoiceSummary = Type.Object({
  uuid: Uuid,
  number: Type.String(),
  kind: Type.Enum(INVOICE_KINDS),
  reason: Type.Enum(INVOICE_REASONS),
  status: InvoiceStatusSchema,
  currency: CurrencySchema,
  issuedOn: IsoDate,
  dueOn: IsoDate,
  periodStart: IsoDate,
  periodEnd: IsoDate,
  totalMinor: Type.Integer(),
  paidMinor: Type.Integer(),
});
export type InvoiceSummary = Type.Static<typeof InvoiceSummary>;

/** A structured postal address, as the Swiss QR-bill requires it (no combined address lines), with its limits. */
export const ADDRESS_STREET_MAX = 70;
export const ADDRESS_BUILDING_NUMBER_MAX = 16;
export const ADDRESS_POSTCODE_MAX = 16;
export const ADDRESS_CITY_MAX = 35;
export const PostalAddress = Type.Object(
  {
    street: Type.String({ minLength: 1, maxLength: ADDRESS_STREET_MAX }),
    buildingNumber: Type.Union([Type.String({ maxLength: ADDRESS_BUILDING_NUMBER_MAX }), Type.Null()]),
    postcode: Type.String({ minLength: 1, maxLength: ADDRESS_POSTCODE_MAX }),
    city: Type.String({ minLength: 1, maxLength: ADDRESS_CITY_MAX }),
    /** ISO 3166-1 alpha-2. */
    country: Type.String({ pattern: '^[A-Z]{2}$' }),
  },
  { additionalProperties: false },
);
export type PostalAddress = Type.Static<typeof PostalAddress>;

export const PAYMENT_SOURCES = ['CAMT', 'MANUAL', 'CARD'] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

/** A payment booked against an invoice. */
export const InvoicePayment = Type.Object({
  bookedOn: IsoDate,
  amountMinor: Type.Integer(),
  source: Type.Enum(PAYMENT_SOURCES),
  note: Type.Union([Type.String(), Type.Null()]),
});
export type InvoicePayment = Type.Static<typeof InvoicePayment>;

export const Invoice = Type.Object({
  ...InvoiceSummary.properties,
  lines: Type.Array(InvoiceLine),
  totals: InvoiceTotals,
  /** The payment reference: a 27-digit QR reference (QR-IBAN) or an ISO 11649 creditor reference (RF…). */
  reference: Type.String(),
  /** Who the invoice was made out to, as it was when it was issued. */
  billedTo: Type.Object({
    name: Type.String(),
    /** Null when neither billing details nor a company address were known (the QR-bill then has no debtor). */
    address: Type.Union([PostalAddress, Type.Null()]),
    vatNumber: Type.Union([Type.String(), Type.Null()]),
    purchaseOrder: Type.Union([Type.String(), Type.Null()]),
  }),
  /** The voided invoice a credit note cancels, or the credit note of a voided invoice. */
  relatedInvoice: Type.Union([Type.Object({ uuid: Uuid, number: Type.String() }), Type.Null()]),
  payments: Type.Array(InvoicePayment),
  paidAt: Type.Union([DateTime, Type.Null()]),
  voidedAt: Type.Union([DateTime, Type.Null()]),
});
export type Invoice = Type.Static<typeof Invoice>;

/** Largest page of the invoices list. */
export const INVOICES_PAGE_SIZE_MAX = 100;

export const InvoicesQuery = Type.Object(
  {
    status: Type.Optional(InvoiceStatusSchema),
    year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100 })),
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: INVOICES_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type InvoicesQuery = Type.Static<typeof InvoicesQuery>;

/** Sums of the invoices a filter finds, per currency: invoiced, paid and still open (open and overdue). */
export const InvoiceTotalsByCurrency = Type.Object({
  currency: CurrencySchema,
  invoicedMinor: Type.Integer(),
  paidMinor: Type.Integer(),
  outstandingMinor: Type.Integer(),
});
export const InvoicesList = Type.Object({
  data: Type.Array(InvoiceSummary),
  meta: Type.Object({
    total: Type.Integer(),
    page: Type.Integer(),
    pageSize: Type.Integer(),
    sums: Type.Array(InvoiceTotalsByCurrency),
  }),
});
export type InvoicesList = Type.Static<typeof InvoicesList>;

export const INVOICE_RECIPIENTS_MAX = 5;
export const PURCHASE_ORDER_MAX = 35;
export const VAT_NUMBER_MAX = 30;

/** How an account pays: by invoice with a QR-bill (default), or by card where a card provider is configured. */
export const PAYMENT_METHODS = ['INVOICE', 'CARD'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const BillingDetails = Type.Object({
  /** The company name invoices are made out to: the account's name. */
  name: Type.String(),
  /** Null until set; the form then proposes the company profile's address. */
  address: Type.Union([PostalAddress, Type.Null()]),
  /** UID (CHE-123.456.789 MWST) or VAT number printed on invoices. */
  vatNumber: Type.Union([Type.String(), Type.Null()]),
  /** Who receives the invoice mails (at least one). */
  recipients: Type.Array(Type.String()),
  purchaseOrder: Type.Union([Type.String(), Type.Null()]),
  paymentMethod: Type.Enum(PAYMENT_METHODS),
  /** Whether paying by card can be chosen: only when a card provider is configured. */
  cardAvailable: Type.Boolean(),
  /** The saved card, as the provider describes it (brand and last digits), when paying by card. */
  card: Type.Union([Type.Object({ brand: Type.String(), last4: Type.String() }), Type.Null()]),
  updatedAt: Type.Union([DateTime, Type.Null()]),
});
export type BillingDetails = Type.Static<typeof BillingDetails>;

export const UpdateBillingDetailsBody = Type.Object(
  {
    address: PostalAddress,
    vatNumber: Type.Union([Type.String({ maxLength: VAT_NUMBER_MAX }), Type.Null()]),
    recipients: Type.Array(Type.String({ maxLength: EMAIL_MAX }), {
      minItems: 1,
      maxItems: INVOICE_RECIPIENTS_MAX,
    }),
    purchaseOrder: Type.Union([Type.String({ maxLength: PURCHASE_ORDER_MAX }), Type.Null()]),
    paymentMethod: Type.Enum(PAYMENT_METHODS),
  },
  { additionalProperties: false },
);
export type UpdateBillingDetailsBody = Type.Static<typeof UpdateBillingDetailsBody>;

/** Where the card provider's page for saving a card is. */
export const CardSetup = Type.Object({ url: Type.String() });
export type CardSetup = Type.Static<typeof CardSetup>;

/** The provider's setup session the admin came back from (in the return address). */
export const CompleteCardSetupBody = Type.Object(
  { sessionId: Type.String({ minLength: 1, maxLength: 255 }) },
  { additionalProperties: false },
);
export type CompleteCardSetupBody = Type.Static<typeof CompleteCardSetupBody>;

/**
 * What the shell tells an account's admins: the account is past due when an invoice is still unpaid this many days
 * after its due date (configured); null otherwise.
 */
export const BillingStatus = Type.Object({
  pastDue: Type.Union([
    Type.Object({
      since: IsoDate,
      invoices: Type.Integer(),
      amounts: Type.Array(Type.Object({ currency: CurrencySchema, amountMinor: Type.Integer() })),
    }),
    Type.Null(),
  ]),
});
export type BillingStatus = Type.Static<typeof BillingStatus>;

const InvoiceParams = Type.Object({ invoiceUuid: Uuid });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const tags = ['billing'];
const admin = { min: 'ADMIN', denied: 'Billing needs the ADMIN role' } as const;

export const billingRoutes = {
  listInvoices: defineRoute({
    method: 'GET',
    path: '/billing/v1/invoices',
    summary: "The account's invoices and credit notes, newest first, filtered by status and year, with sums",
    tags,
    accountScoped: true,
    accountRole: admin,
    querystring: InvoicesQuery,
    response: { 200: InvoicesList, ...errors },
  }),
  getInvoice: defineRoute({
    method: 'GET',
    path: '/billing/v1/invoices/{invoiceUuid}',
    summary: 'One invoice with its lines, VAT, payments and payment reference',
    tags,
    accountScoped: true,
    accountRole: admin,
    params: InvoiceParams,
    response: { 200: Entity(Invoice), ...errors },
  }),
  getInvoicePdf: defineRoute({
    method: 'GET',
    path: '/billing/v1/invoices/{invoiceUuid}/pdf',
    summary: 'The invoice as a PDF, with the Swiss QR-bill payment part',
    tags,
    accountScoped: true,
    accountRole: admin,
    params: InvoiceParams,
    response: { 200: FileBytes, ...errors },
  }),
  getBillingDetails: defineRoute({
    method: 'GET',
    path: '/billing/v1/details',
    summary: 'Billing address, VAT number, invoice recipients, purchase order and payment method',
    tags,
    accountScoped: true,
    accountRole: admin,
    response: { 200: Entity(BillingDetails), ...errors },
  }),
  updateBillingDetails: defineRoute({
    method: 'PUT',
    path: '/billing/v1/details',
    summary: 'Change the billing details',
    tags,
    accountScoped: true,
    accountRole: admin,
    body: UpdateBillingDetailsBody,
    response: { 200: Entity(BillingDetails), ...errors },
  }),
  startCardSetup: defineRoute({
    method: 'POST',
    path: '/billing/v1/card/setup',
    summary:
      "The card provider's page where an admin saves a card for the invoices (409 without a card provider)",
    tags,
    accountScoped: true,
    accountRole: admin,
    response: { 200: Entity(CardSetup), ...errors, 409: ErrorBody },
  }),
  completeCardSetup: defineRoute({
    method: 'POST',
    path: '/billing/v1/card',
    summary: 'Keep the card saved in a finished setup session; the account then pays by card',
    tags,
    accountScoped: true,
    accountRole: admin,
    body: CompleteCardSetupBody,
    response: { 200: Entity(BillingDetails), ...errors, 409: ErrorBody },
  }),
  removeCard: defineRoute({
    method: 'DELETE',
    path: '/billing/v1/card',
    summary: 'Forget the saved card; the account pays by invoice again',
    tags,
    accountScoped: true,
    accountRole: admin,
    response: { 200: Entity(BillingDetails), ...errors, 409: ErrorBody },
  }),
  getBillingStatus: defineRoute({
    method: 'GET',
    path: '/billing/v1/status',
    summary: 'Whether the account is past due, for the banner its admins see',
    tags,
    accountScoped: true,
    accountRole: admin,
    response: { 200: Entity(BillingStatus), ...errors },
  }),
};
