import { billingRoutes } from '@portal/contract';
import { sendFile } from '../../files/files.ts';
import { notFound } from '../../http/errors.ts';
import type { ModuleDeps } from '../deps.ts';
import { todayIn } from '../../invoicing/money.ts';
import {
  chargeIssuedInvoice,
  completeCardSetup,
  removeCard,
  requireCards,
  startCardSetup,
} from './billing.card.ts';
import { invoiceDocument } from './billing.documents.ts';
import { invoiceMail } from './billing.mails.ts';
import { OVERDUE_CHECK_EVERY_MS, checkOverdue } from './billing.overdue.ts';
import { getDetails, updateDetails } from './billing.details.ts';
import { getInvoice, getStatus, listInvoices } from './billing.service.ts';
import { cardPaymentsFor } from './card-payments.ts';

declare module '../../jobs/runner.ts' {
  interface JobKinds {
    /** Marks unpaid invoices overdue and sends the reminders that are due. */
    'billing.overdue': Record<string, never>;
  }
}

/**
 * The customer's side of billing (ADMIN and above): invoices with their PDF, billing details, the past-due state;
 * and the work behind it: the invoice mail with the PDF when one is issued, overdue invoices and reminders.
 */
export function registerBillingRoutes({ db, route, files, mailer, jobs, notifier, invoicing }: ModuleDeps) {
  const config = invoicing.config;
  const cards = cardPaymentsFor(config);
  const card = { cardAvailable: cards !== null };

  route(billingRoutes.listInvoices, {
    handler: async (request) => listInvoices(db, request.account, request.query),
  });

  route(billingRoutes.getInvoice, {
    handler: async (request) => ({
      data: await getInvoice(db, request.account, request.params.invoiceUuid),
    }),
  });

  route(billingRoutes.getInvoicePdf, {
    handler: async (request, reply) => {
      const document = await invoiceDocument(
        db,
        files,
        config,
        request.account.accountUuid,
        request.params.invoiceUuid,
      );
      if (!document) throw notFound();
      return sendFile(request, reply, document, 'attachment');
    },
  });

  route(billingRoutes.getBillingDetails, {
    handler: async (request) => ({ data: await getDetails(db, request.account, card) }),
  });

  route(billingRoutes.updateBillingDetails, {
    handler: async (request) => ({
      data: await updateDetails(db, request.user, request.account, request.body, card),
    }),
  });

  route(billingRoutes.startCardSetup, {
    handler: async (request) => ({
      data: await startCardSetup(
        db,
        requireCards(cards),
        request.user,
        request.account,
        `${request.server.config.publicUrl}/billing?uuid=${request.account.accountUuid}`,
      ),
    }),
  });

  route(billingRoutes.completeCardSetup, {
    handler: async (request) => ({
      data: await completeCardSetup(
        db,
        requireCards(cards),
        request.user,
        request.account,
        request.body.sessionId,
      ),
    }),
  });

  route(billingRoutes.removeCard, {
    handler: async (request) => {
      requireCards(cards);
      return { data: await removeCard(db, request.user, request.account) };
    },
  });

  route(billingRoutes.getBillingStatus, {
    handler: async (request) => ({ data: await getStatus(db, request.account, config) }),
  });

  // A new invoice is mailed to the recipients it was made out to, with its PDF attached: the PDF is rendered and
  // kept first, then the mails are queued in one transaction that marks the invoice mailed, so a job that runs
  // again (after a crash) finds it mailed and sends nothing twice. An account paying by card is charged first: the
  // mail then carries the paid invoice, or, when the card was declined, the open one with its QR-bill.
  invoicing.onIssued(async (invoiceUuid) => {
    const owner = await db.query<{ account_uuid: string }>(
      'select account_uuid from invoices where uuid = $1 and mailed_at is null',
      [invoiceUuid],
    );
    const accountUuid = owner.rows[0]?.account_uuid;
    if (!accountUuid) return;
    if (cards) await chargeIssuedInvoice(db, cards, config.timeZone, invoiceUuid);
    const document = await invoiceDocument(db, files, config, accountUuid, invoiceUuid, { keep: true });
    if (!document) return;
    await db.transaction(async (tx) => {
      const claimed = await tx.query<{ billed_to: { recipients?: string[]; name: string } }>(
        'update invoices set mailed_at = now() where uuid = $1 and mailed_at is null returning billed_to',
        [invoiceUuid],
      );
      const party = claimed.rows[0]?.billed_to;
      if (!party) return;
      for (const to of party.recipients ?? []) {
        await mailer.send(
          {
            ...invoiceMail({
              to,
              language: document.language,
              invoice: document.invoice,
              accountName: party.name,
              creditor: config.creditor,
            }),
            attachments: [
              {
                fileName: document.file.fileName,
                contentType: 'application/pdf',
                fileUuid: document.file.uuid,
                accountUuid,
              },
            ],
          },
          tx,
        );
      }
    });
  });

  jobs.define('billing.overdue', {
    every: OVERDUE_CHECK_EVERY_MS,
    handler: async ({ log }) => {
      const done = await checkOverdue(db, { notifier, mailer, config }, todayIn(config.timeZone));
      if (done.overdue || done.reminded) log.info(done, 'overdue invoices handled');
    },
  });
}
