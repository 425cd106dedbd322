import { afterAll, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../demo/users.ts';
import type { ModuleDeps } from '../deps.ts';
import { addDays, todayIn, withVat } from '../../invoicing/money.ts';
import { describeApi, type DemoLogin, type TestApi } from '../../test/api.ts';
import { startFakeStripe } from '../../test/fake-stripe.ts';
import { hasPdfToText, pdfToText } from '../../test/pdf-text.ts';
import { chargeIssuedInvoice } from './billing.card.ts';
import { cardPaymentsFor } from './card-payments.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const BEISPIEL = DEMO_ACCOUNTS.beispiel;
const base = (account: string) => `/api/accounts/${account}/billing/v1`;

// Stripe's API, as far as the adapter uses it, on a local port: the real `stripe` library talks to it over HTTP.
const stripe = await startFakeStripe();
afterAll(() => stripe.close());

const captured: { deps?: ModuleDeps } = {};

/** Billing details of Beispiel GmbH as its owner saves them. */
const BERN = {
  address: { street: 'Bahnhofstrasse', buildingNumber: '1', postcode: '3000', city: 'Bern', country: 'CH' },
  vatNumber: null,
  recipients: ['inhaber@example.com'],
  purchaseOrder: null,
  paymentMethod: 'INVOICE',
};

/** Saves a card for the account the way an admin does: the setup page, the card entered there, back again. */
async function saveCard(
  api: TestApi,
  account: string,
  as: DemoLogin,
  card: { brand: string; last4: string },
) {
  const setup = await api.request('POST', `${base(account)}/card/setup`, { as });
  expect(setup.statusCode).toBe(200);
  const sessionId = stripe.sessionOf(setup.json().data.url);
  stripe.saveCard(sessionId, card);
  const done = await api.request('POST', `${base(account)}/card`, { as, body: { sessionId } });
  return { sessionId, done };
}

/** Issues a one-line invoice to the account, as a plan change does. */
async function issueInvoice(api: TestApi, account: string, sourceKey: string) {
  const { invoicing, db } = captured.deps!;
  const today = todayIn(api.config.billing.timeZone);
  const period = { periodStart: today, periodEnd: addDays(today, 30) };
  const line = { kind: 'SEATS', planCode: 'STANDARD', billingPeriod: 'MONTHLY', quantity: 2 } as const;
  return db.transaction((tx) =>
    invoicing.issue(tx, {
      accountUuid: account,
      reason: 'CHANGE',
      sourceKey,
      currency: 'CHF',
      lines: withVat({ ...line, unitMinor: 1500, netMinor: 3000, prorated: false, ...period }, [
        ...api.config.billing.vatRates,
      ]),
      ...period,
      issuedOn: today,
    }),
  );
}

/** The mails of one invoice to a recipient, with the PDF each carried. */
async function invoiceMails(api: TestApi, recipient: string, number: string) {
  await api.app.jobs.drain();
  const { rows } = await api.db.query<{ attachments: { fileUuid: string; accountUuid: string }[] }>(
    `select attachments from mail_outbox where recipient = $1 and subject like '%' || $2 || '%'`,
    [recipient, number],
  );
  return Promise.all(
    rows.map(async (row) => {
      const [attachment] = row.attachments;
      const file = await captured.deps!.files.read(api.db, attachment!.accountUuid, attachment!.fileUuid);
      return file!.content;
    }),
  );
}

describeApi(
  'billing API, paying by card',
  (api) => {
    it('saves a card through the provider page: brand and last digits kept, the account pays by card', async () => {
      const from = stripe.requests.length;
      const customers = () =>
        stripe.requests
          .slice(from)
          .filter(
            (request) => request.path === '/v1/customers' && request.form['metadata[accountUuid]'] === MUSTER,
          );
      const setup = await api.request('POST', `${base(MUSTER)}/card/setup`, { as: 'admin' });
      expect(setup.statusCode).toBe(200);
      const sessionId = stripe.sessionOf(setup.json().data.url);
      const created = stripe.requests.find(
        (request) =>
          request.path === '/v1/checkout/sessions' && request.form['metadata[accountUuid]'] === MUSTER,
      )!;
      expect(created.form).toMatchObject({
        mode: 'setup',
        success_url: `http://portal.test/billing?uuid=${MUSTER}&cardSession={CHECKOUT_SESSION_ID}`,
        cancel_url: `http://portal.test/billing?uuid=${MUSTER}`,
      });
      // Not saved yet (the admin left the page): nothing to complete.
      const early = await api.request('POST', `${base(MUSTER)}/card`, { as: 'admin', body: { sessionId } });
      expect(early.statusCode).toBe(404);

      stripe.saveCard(sessionId, { brand: 'visa', last4: '4242' });
      const done = await api.request('POST', `${base(MUSTER)}/card`, { as: 'admin', body: { sessionId } });
      expect(done.statusCode).toBe(200);
      expect(done.json().data).toMatchObject({
        paymentMethod: 'CARD',
        cardAvailable: true,
        card: { brand: 'visa', last4: '4242' },
      });
      const details = await api.request('GET', `${base(MUSTER)}/details`, { as: 'admin' });
      expect(details.json().data).toMatchObject({
        paymentMethod: 'CARD',
        card: { brand: 'visa', last4: '4242' },
      });

      // A second setup uses the customer kept for the account.
      expect(customers()).toHaveLength(1);
      await api.request('POST', `${base(MUSTER)}/card/setup`, { as: 'admin' });
      expect(customers()).toHaveLength(1);

      const actions = (await api.audit(MUSTER)).map((entry) => entry.action);
      expect(actions).toEqual(expect.arrayContaining(['billing.card.setup', 'billing.card.save']));
    });

    it("answers 404 for another account's setup session or an unknown one", async () => {
      const setup = await api.request('POST', `${base(MUSTER)}/card/setup`, { as: 'admin' });
      const foreign = stripe.sessionOf(setup.json().data.url);
      stripe.saveCard(foreign, { brand: 'mastercard', last4: '4444' });
      await api.request('POST', `${base(BEISPIEL)}/card/setup`, { as: 'inhaber' });
      for (const sessionId of [foreign, 'cs_test_unknown']) {
        const res = await api.request('POST', `${base(BEISPIEL)}/card`, {
          as: 'inhaber',
          body: { sessionId },
        });
        expect(res.statusCode).toBe(404);
      }
      const details = await api.request('GET', `${base(BEISPIEL)}/details`, { as: 'inhaber' });
      expect(details.json().data).toMatchObject({ paymentMethod: 'INVOICE', card: null });
      // Employees may not save cards either.
      const employee = await api.request('POST', `${base(MUSTER)}/card/setup`, { as: 'employee' });
      expect(employee.statusCode).toBe(403);
    });

    it('refuses paying by card without a saved card (422) and goes back to invoices when the card is removed', async () => {
      const body = { ...BERN, paymentMethod: 'CARD' };
      const refused = await api.request('PUT', `${base(BEISPIEL)}/details`, { as: 'inhaber', body });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().details.fields).toEqual({ paymentMethod: 'cardMissing' });

      const { done } = await saveCard(api, BEISPIEL, 'inhaber', { brand: 'visa', last4: '1881' });
      expect(done.json().data).toMatchObject({ paymentMethod: 'CARD', updatedAt: null });
      const saved = await api.request('PUT', `${base(BEISPIEL)}/details`, { as: 'inhaber', body });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().data).toMatchObject({ paymentMethod: 'CARD', card: { last4: '1881' } });

      const removed = await api.request('DELETE', `${base(BEISPIEL)}/card`, { as: 'inhaber' });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().data).toMatchObject({ paymentMethod: 'INVOICE', card: null });
      expect((await api.audit(BEISPIEL)).map((entry) => entry.action)).toContain('billing.card.remove');
    });

    it('charges an issued invoice once, even when the job runs again, and mails it paid', async () => {
      await saveCard(api, MUSTER, 'admin', { brand: 'visa', last4: '4242' });
      await api.app.jobs.stop();
      const issued = await issueInvoice(api, MUSTER, 'change:card-paid');
      // The charge went through but the instance stopped before mailing: the job runs again later.
      const cards = cardPaymentsFor(api.config.billing)!;
      expect(await chargeIssuedInvoice(api.db, cards, api.config.billing.timeZone, issued.uuid)).toBe('paid');
      await api.app.jobs.start();
      const mails = await invoiceMails(api, 'buchhaltung@example.com', issued.number);
      await api.app.jobs.enqueue('invoicing.issued', { invoiceUuid: issued.uuid });
      expect(await invoiceMails(api, 'buchhaltung@example.com', issued.number)).toHaveLength(1);
      // And once more by hand: nothing is charged a second time.
      expect(await chargeIssuedInvoice(api.db, cards, api.config.billing.timeZone, issued.uuid)).toBeNull();

      const charges = stripe.requests.filter(
        (request) =>
          request.path === '/v1/payment_intents' && request.form['metadata[invoiceUuid]'] === issued.uuid,
      );
      expect(charges).toHaveLength(1);
      expect(charges[0]!.idempotencyKey).toBe(`invoice:${issued.uuid}`);
      expect(charges[0]!.form).toMatchObject({
        amount: String(issued.totalMinor),
        currency: 'chf',
        off_session: 'true',
        confirm: 'true',
      });

      const invoice = (
        await api.request('GET', `${base(MUSTER)}/invoices/${issued.uuid}`, { as: 'admin' })
      ).json().data;
      expect(invoice).toMatchObject({ status: 'PAID', paidMinor: issued.totalMinor });
      const payments = await api.db.query<{ source: string; amount_minor: string | number }>(
        'select source, amount_minor from invoice_payments where invoice_uuid = $1',
        [issued.uuid],
      );
      expect(payments.rows.map((row) => [row.source, Number(row.amount_minor)])).toEqual([
        ['CARD', issued.totalMinor],
      ]);
      expect(mails).toHaveLength(1);
      if (hasPdfToText()) expect(pdfToText(mails[0]!)).not.toContain('Zahlteil');
    });

    it('leaves an invoice open and mails it with its QR-bill when the card is declined', async () => {
      await api.request('PUT', `${base(BEISPIEL)}/details`, { as: 'inhaber', body: BERN });
      const { done } = await saveCard(api, BEISPIEL, 'inhaber', { brand: 'visa', last4: '0341' });
      expect(done.json().data.paymentMethod).toBe('CARD');
      const issued = await issueInvoice(api, BEISPIEL, 'change:card-declined');
      const mails = await invoiceMails(api, 'inhaber@example.com', issued.number);
      expect(mails).toHaveLength(1);
      if (hasPdfToText()) expect(pdfToText(mails[0]!)).toContain('Zahlteil');
      const invoice = (
        await api.request('GET', `${base(BEISPIEL)}/invoices/${issued.uuid}`, { as: 'inhaber' })
      ).json().data;
      expect(invoice).toMatchObject({ status: 'OPEN', paidMinor: 0 });
      const declined = await api.db.query<{ after: { number: string; reason: string } }>(
        `select after from audit_log where action = 'billing.card.declined' and target = $1`,
        [`invoice:${issued.uuid}`],
      );
      expect(declined.rows.map((row) => row.after)).toEqual([
        { number: issued.number, reason: 'generic_decline' },
      ]);
    });
  },
  {
    env: { STRIPE_SECRET_KEY: 'sk_test_portal', STRIPE_API_URL: stripe.url },
    modules: [(deps) => void (captured.deps = deps)],
  },
);

describeApi('billing API without a card provider', (api) => {
  it('answers every card route with 409 and offers no card', async () => {
    const details = await api.request('GET', `${base(MUSTER)}/details`, { as: 'admin' });
    expect(details.json().data).toMatchObject({ cardAvailable: false, card: null });
    const calls = [
      api.request('POST', `${base(MUSTER)}/card/setup`, { as: 'admin' }),
      api.request('POST', `${base(MUSTER)}/card`, { as: 'admin', body: { sessionId: 'cs_test_1' } }),
      api.request('DELETE', `${base(MUSTER)}/card`, { as: 'admin' }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'CARD_NOT_CONFIGURED',
        message: 'Card payments are not configured',
      });
    }
  });
});
