import { CAMT_MAX_BYTES, billingStaffRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import { importPayments, listPaymentImports } from './staff.imports.ts';
import { listStaffInvoices, markInvoicePaid, voidInvoice } from './staff.invoices.ts';
import { assignPayment, listPayments } from './staff.payments.ts';

/** An upload's JSON carries the file in base64 (4 characters per 3 bytes), plus its name. */
const CAMT_BODY_LIMIT = Math.ceil(CAMT_MAX_BYTES * 1.4) + 4096;

/**
 * Payments, staff side, across accounts: bank file imports, the credits to handle, and invoices to find, mark paid
 * or void. The caller's user role decides (each service refuses below SUPPORT_MANAGER with 403, staff.access.ts).
 */
export function registerBillingStaffRoutes({ db, route, invoicing }: ModuleDeps) {
  route(billingStaffRoutes.importPayments, {
    bodyLimit: CAMT_BODY_LIMIT,
    handler: async (request, reply) => {
      const data = await importPayments(db, request.user, request.body);
      reply.code(201);
      return { data };
    },
  });

  route(billingStaffRoutes.listPaymentImports, {
    handler: async (request) => listPaymentImports(db, request.user, request.query),
  });

  route(billingStaffRoutes.listPayments, {
    handler: async (request) => listPayments(db, request.user, request.query),
  });

  route(billingStaffRoutes.assignPayment, {
    handler: async (request) => ({
      data: await assignPayment(db, invoicing, request.user, request.params.paymentUuid, request.body),
    }),
  });

  route(billingStaffRoutes.listStaffInvoices, {
    handler: async (request) => listStaffInvoices(db, request.user, request.query),
  });

  route(billingStaffRoutes.markInvoicePaid, {
    handler: async (request) => ({
      data: await markInvoicePaid(db, invoicing, request.user, request.params.invoiceUuid, request.body),
    }),
  });

  route(billingStaffRoutes.voidInvoice, {
    handler: async (request) => ({
      data: await voidInvoice(db, invoicing, request.user, request.params.invoiceUuid, request.body),
    }),
  });
}
