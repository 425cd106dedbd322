import Type from 'typebox';
import { DateTime, Entity, ErrorBody, List, Uuid, PageNumber } from './common.ts';
import { FileUpload } from './company.ts';
import { INVOICES_PAGE_SIZE_MAX, InvoiceStatusSchema, InvoiceSummary, IsoDate } from './billing.ts';
import { defineRoute } from './route.ts';

// Billing, staff side: payments imported from the bank (camt.054) and booked against invoices, the credits staff
// handle, and invoices across accounts found, marked paid or voided. None of it is an account route: the server
// checks the user role (BILLING_STAFF_ROLE).

/** Largest camt.054 file staff may upload. */
export const CAMT_MAX_BYTES = 10 * 1024 * 1024;
export const CamtUploadBody = Type.Object(
  { file: FileUpload(CAMT_MAX_BYTES) },
  { additionalProperties: false },
);
export type CamtUploadBody = Type.Static<typeof CamtUploadBody>;

/**
 * A credit from the bank file: MATCHED paid an invoice in full, PARTIAL paid less than it was owed, UNMATCHED found
 * no open invoice (unknown reference, other currency, already paid), RESOLVED was handled by staff afterwards.
 */
export const PAYMENT_STATUSES = ['MATCHED', 'PARTIAL', 'UNMATCHED', 'RESOLVED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * Why a credit was left unmatched: it carries no structured reference, no invoice has its reference, the invoice is
 * in another currency, or the invoice is no longer open (paid, void, or a credit note).
 */
export const PAYMENT_PROBLEMS = ['NO_REFERENCE', 'UNKNOWN_REFERENCE', 'CURRENCY', 'NOT_OPEN'] as const;
export type PaymentProblem = (typeof PAYMENT_PROBLEMS)[number];

export const BankPayment = Type.Object({
  uuid: Uuid,
  status: Type.Enum(PAYMENT_STATUSES),
  bookedOn: IsoDate,
  amountMinor: Type.Integer(),
  /** ISO 4217: a bank file may hold credits in a currency no invoice has. */
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  problem: Type.Union([Type.Enum(PAYMENT_PROBLEMS), Type.Null()]),
  /** What the credit paid beyond the invoice's outstanding amount (to refund or credit); 0 when none. */
  overpaidMinor: Type.Integer(),
  reference: Type.Union([Type.String(), Type.Null()]),
  debtorName: Type.Union([Type.String(), Type.Null()]),
  invoice: Type.Union([
    Type.Object({ uuid: Uuid, number: Type.String(), accountUuid: Uuid, accountName: Type.String() }),
    Type.Null(),
  ]),
  note: Type.Union([Type.String(), Type.Null()]),
  importUuid: Uuid,
});
export type BankPayment = Type.Static<typeof BankPayment>;

export const PaymentImport = Type.Object({
  uuid: Uuid,
  fileName: Type.String(),
  importedAt: DateTime,
  importedBy: Type.Union([Type.String(), Type.Null()]),
  /** Credits in the file, and how they were booked; `duplicates` were booked by an earlier file already. */
  counts: Type.Object({
    matched: Type.Integer(),
    partial: Type.Integer(),
    unmatched: Type.Integer(),
    duplicates: Type.Integer(),
  }),
});
export type PaymentImport = Type.Static<typeof PaymentImport>;

export const PAYMENTS_PAGE_SIZE_MAX = 100;
/** The payments list's filter: one status, or TO_HANDLE for the partial and unmatched credits together. */
export const PAYMENT_FILTERS = [...PAYMENT_STATUSES, 'TO_HANDLE'] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number];
export const PaymentsQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(PAYMENT_FILTERS)),
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: PAYMENTS_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type PaymentsQuery = Type.Static<typeof PaymentsQuery>;

export const NOTE_MAX = 500;
export const MarkPaidBody = Type.Object(
  { paidOn: IsoDate, note: Type.String({ minLength: 1, maxLength: NOTE_MAX }) },
  { additionalProperties: false },
);
export type MarkPaidBody = Type.Static<typeof MarkPaidBody>;
export const AssignPaymentBody = Type.Object(
  { invoiceUuid: Type.Union([Uuid, Type.Null()]), note: Type.String({ minLength: 1, maxLength: NOTE_MAX }) },
  { additionalProperties: false },
);
export type AssignPaymentBody = Type.Static<typeof AssignPaymentBody>;
export const VoidInvoiceBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: NOTE_MAX }) },
  { additionalProperties: false },
);
export type VoidInvoiceBody = Type.Static<typeof VoidInvoiceBody>;

/** Staff's view of an invoice across accounts, to find the one a payment belongs to. */
export const StaffInvoice = Type.Object({
  ...InvoiceSummary.properties,
  reference: Type.String(),
  accountUuid: Uuid,
  accountName: Type.String(),
});
export type StaffInvoice = Type.Static<typeof StaffInvoice>;
export const StaffInvoicesQuery = Type.Object(
  {
    status: Type.Optional(InvoiceStatusSchema),
    /** Part of an invoice number, a reference or an account name. */
    q: Type.Optional(Type.String({ maxLength: 100 })),
    page: Type.Optional(PageNumber),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: INVOICES_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type StaffInvoicesQuery = Type.Static<typeof StaffInvoicesQuery>;

/**
 * Who on the staff may handle payments (the user role and those above it): import bank files, book and mark
 * invoices paid, void an invoice.
 */
export const BILLING_STAFF_ROLE = 'SUPPORT_MANAGER';

const InvoiceParams = Type.Object({ invoiceUuid: Uuid });
const PaymentParams = Type.Object({ paymentUuid: Uuid });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const tags = ['billing'];

export const billingStaffRoutes = {
  importPayments: defineRoute({
    method: 'POST',
    path: '/billing/v1/payment-imports',
    summary: 'Upload a camt.054 file and book its credits against open invoices (SUPPORT_MANAGER and above)',
    tags,
    body: CamtUploadBody,
    response: { 201: Entity(PaymentImport), ...errors, 409: ErrorBody, 413: ErrorBody },
  }),
  listPaymentImports: defineRoute({
    method: 'GET',
    path: '/billing/v1/payment-imports',
    summary: 'Bank files imported so far, newest first (SUPPORT_MANAGER and above)',
    tags,
    querystring: PaymentsQuery,
    response: { 200: List(PaymentImport), ...errors },
  }),
  listPayments: defineRoute({
    method: 'GET',
    path: '/billing/v1/payments',
    summary:
      'Credits from bank files, e.g. the partial and unmatched ones to handle (SUPPORT_MANAGER and above)',
    tags,
    querystring: PaymentsQuery,
    response: { 200: List(BankPayment), ...errors },
  }),
  assignPayment: defineRoute({
    method: 'POST',
    path: '/billing/v1/payments/{paymentUuid}/resolution',
    summary: 'Book a partial or unmatched credit on an invoice, or mark it handled without one, with a note',
    tags,
    params: PaymentParams,
    body: AssignPaymentBody,
    response: { 200: Entity(BankPayment), ...errors, 409: ErrorBody },
  }),
  listStaffInvoices: defineRoute({
    method: 'GET',
    path: '/billing/v1/staff/invoices',
    summary: 'Invoices across accounts, to find and handle one (SUPPORT_MANAGER and above)',
    tags,
    querystring: StaffInvoicesQuery,
    response: { 200: List(StaffInvoice), ...errors },
  }),
  markInvoicePaid: defineRoute({
    method: 'POST',
    path: '/billing/v1/staff/invoices/{invoiceUuid}/paid',
    summary: 'Mark an invoice paid by hand, with a note (SUPPORT_MANAGER and above)',
    tags,
    params: InvoiceParams,
    body: MarkPaidBody,
    response: { 200: Entity(StaffInvoice), ...errors, 409: ErrorBody },
  }),
  voidInvoice: defineRoute({
    method: 'POST',
    path: '/billing/v1/staff/invoices/{invoiceUuid}/void',
    summary: 'Void an open or overdue invoice; a credit note is issued for it (SUPPORT_MANAGER and above)',
    tags,
    params: InvoiceParams,
    body: VoidInvoiceBody,
    response: { 200: Entity(StaffInvoice), ...errors, 409: ErrorBody },
  }),
};
