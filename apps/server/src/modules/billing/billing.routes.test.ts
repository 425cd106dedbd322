import { expect, it } from 'vitest';
import type { InvoiceSummary } from '@portal/contract';
import { DEMO_ACCOUNTS, DEMO_USERS } from '../../demo/users.ts';
import { DEMO_BILLING_ADDRESS } from '../../demo/billing.ts';
import type { ModuleDeps } from '../deps.ts';
import { addDays, todayIn, withVat } from '../../invoicing/money.ts';
import { describeApi } from '../../test/api.ts';
import { hasPdfToText, pdfToText } from '../../test/pdf-text.ts';
import { checkOverdue } from './billing.overdue.ts';

const MUSTER = DEMO_ACCOUNTS.muster;
const BEISPIEL = DEMO_ACCOUNTS.beispiel;
const base = (account: string) => `/api/accounts/${account}/billing/v1`;

const DETAILS = {
  address: { street: 'Seestrasse', buildingNumber: '5a', postcode: '8002', city: 'Zürich', country: 'CH' },
  vatNumber: 'che-101.654.423 mwst',
  recipients: ['rechnungen@example.com', ' kreditoren@example.com '],
  purchaseOrder: 'PO-77',
  paymentMethod: 'INVOICE',
};

/** The module deps of the app under test, captured by a module registered after the app's own. */
function captureDeps() {
  const captured: { deps?: ModuleDeps } = {};
  return {
    module: (deps: ModuleDeps) => {
      captured.deps = deps;
    },
    get deps(): ModuleDeps {
      return captured.deps!;
    },
  };
}

const capture = captureDeps();

describeApi(
  'billing API',
  (api) => {
    const list = async (account: string, query = '', as: 'admin' | 'inhaber' = 'admin') => {
      const res = await api.request('GET', `${base(account)}/invoices${query}`, { as });
      expect(res.statusCode).toBe(200);
      return res.json() as {
        data: InvoiceSummary[];
        meta: { total: number; sums: { currency: string }[] };
      };
    };

    it('lists the seeded invoices newest first, paged, with sums per currency over the filter', async () => {
      const all = await list(MUSTER);
      expect(all.data.map((invoice) => invoice.number)).toEqual(
        [...all.data.map((invoice) => invoice.number)].sort().reverse(),
      );
      expect(all.data.map((invoice) => invoice.status)).toEqual(['OPEN', 'PAID', 'PAID']);
      const [open, ...paid] = all.data;
      expect(all.meta.total).toBe(3);
      expect(all.meta.sums).toEqual([
        {
          currency: 'CHF',
          invoicedMinor: open!.totalMinor + paid[0]!.totalMinor + paid[1]!.totalMinor,
          paidMinor: paid[0]!.totalMinor + paid[1]!.totalMinor,
          outstandingMinor: open!.totalMinor,
        },
      ]);

      const page = await list(MUSTER, '?page=2&pageSize=2');
      expect(page.data.map((invoice) => invoice.uuid)).toEqual([paid[1]!.uuid]);
      expect(page.meta).toMatchObject({ total: 3, page: 2, pageSize: 2 });

      const opened = await list(MUSTER, '?status=OPEN');
      expect(opened.data.map((invoice) => invoice.uuid)).toEqual([open!.uuid]);
      expect(opened.meta.sums).toEqual([
        {
          currency: 'CHF',
          invoicedMinor: open!.totalMinor,
          paidMinor: 0,
          outstandingMinor: open!.totalMinor,
        },
      ]);

      const lastYear = Number(paid[1]!.issuedOn.slice(0, 4));
      const byYear = await list(MUSTER, `?year=${lastYear}`);
      expect(byYear.data.every((invoice) => invoice.issuedOn.startsWith(String(lastYear)))).toBe(true);
      expect(byYear.data.map((invoice) => invoice.uuid)).toContain(paid[1]!.uuid);

      const none = await list(MUSTER, '?year=2001');
      expect(none).toMatchObject({ data: [], meta: { total: 0, sums: [] } });
      const bad = await api.request('GET', `${base(MUSTER)}/invoices?status=LATE`, { as: 'admin' });
      expect(bad.statusCode).toBe(422);
    });

    it('shows one invoice with lines, VAT, payments, reference and the party billed', async () => {
      const [, paid] = (await list(MUSTER)).data;
      const res = await api.request('GET', `${base(MUSTER)}/invoices/${paid!.uuid}`, { as: 'owner' });
      expect(res.statusCode).toBe(200);
      const invoice = res.json().data;
      expect(invoice).toMatchObject({
        number: paid!.number,
        status: 'PAID',
        currency: 'CHF',
        billedTo: { name: 'Muster AG' },
        relatedInvoice: null,
        payments: [{ amountMinor: paid!.totalMinor, source: 'CAMT', note: null }],
      });
      expect(invoice.lines.map((line: { kind: string }) => line.kind)).toEqual(['PLAN', 'SEATS']);
      expect(invoice.totals.totalMinor).toBe(paid!.totalMinor);
      expect(invoice.reference).toMatch(/^\d{27}$|^RF/);
      expect(invoice.paidAt).not.toBeNull();
    });

    it('refuses employees (403), other accounts (404) and invoices of another account (404)', async () => {
      const theirs = (await list(BEISPIEL, '', 'inhaber')).data[0]!;
      for (const path of ['/invoices', '/details', '/status', `/invoices/${theirs.uuid}`]) {
        expect((await api.request('GET', `${base(MUSTER)}${path}`, { as: 'employee' })).statusCode).toBe(403);
        expect((await api.request('GET', `${base(MUSTER)}${path}`, { as: 'newowner' })).statusCode).toBe(404);
      }
      for (const path of [`/invoices/${theirs.uuid}`, `/invoices/${theirs.uuid}/pdf`]) {
        const res = await api.request('GET', `${base(MUSTER)}${path}`, { as: 'owner' });
        expect(res.statusCode).toBe(404);
      }
      const put = await api.request('PUT', `${base(MUSTER)}/details`, { as: 'employee', body: DETAILS });
      expect(put.statusCode).toBe(403);
    });

    it('downloads the PDF as an attachment named in the account language, the same document each time', async () => {
      const [open] = (await list(MUSTER)).data;
      const first = await api.request('GET', `${base(MUSTER)}/invoices/${open!.uuid}/pdf`, { as: 'admin' });
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('application/pdf');
      expect(first.headers['x-content-type-options']).toBe('nosniff');
      expect(first.headers['content-disposition']).toContain(
        `attachment; filename="Rechnung-${open!.number}.pdf"`,
      );
      expect(first.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const second = await api.request('GET', `${base(MUSTER)}/invoices/${open!.uuid}/pdf`, { as: 'admin' });
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      const kept = await api.db.query(
        `select count(*)::int as n from files where account_uuid = $1 and purpose = 'invoice-pdf'`,
        [MUSTER],
      );
      expect(kept.rows[0]).toEqual({ n: 1 });
    });

    it('renders a paid invoice anew: its PDF has no payment part any more, the kept copy stays', async () => {
      const [open] = (await list(MUSTER)).data;
      const url = `${base(MUSTER)}/invoices/${open!.uuid}/pdf`;
      const unpaid = await api.request('GET', url, { as: 'admin' });
      await api.db.query(`update invoices set status = 'PAID', paid_minor = total_minor where uuid = $1`, [
        open!.uuid,
      ]);
      try {
        const paid = await api.request('GET', url, { as: 'admin' });
        expect(paid.statusCode).toBe(200);
        expect(paid.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
        expect(paid.rawPayload.equals(unpaid.rawPayload)).toBe(false);
        if (hasPdfToText()) {
          expect(pdfToText(unpaid.rawPayload)).toContain('Zahlteil');
          expect(pdfToText(paid.rawPayload)).not.toContain('Zahlteil');
        }
        const kept = await api.db.query(
          `select count(*)::int as n from files where account_uuid = $1 and purpose = 'invoice-pdf'`,
          [MUSTER],
        );
        expect(kept.rows[0]).toEqual({ n: 1 });
      } finally {
        await api.db.query(`update invoices set status = 'OPEN', paid_minor = 0 where uuid = $1`, [
          open!.uuid,
        ]);
      }
    });

    it('tells the admins of an account with an invoice overdue past the banner days, with the amounts', async () => {
      const beispiel = await api.request('GET', `${base(BEISPIEL)}/status`, { as: 'inhaber' });
      const overdue = (await list(BEISPIEL, '?status=OVERDUE', 'inhaber')).data;
      expect(overdue).toHaveLength(1);
      expect(beispiel.json().data).toEqual({
        pastDue: {
          since: overdue[0]!.dueOn,
          invoices: 1,
          amounts: [{ currency: 'EUR', amountMinor: overdue[0]!.totalMinor }],
        },
      });
      const muster = await api.request('GET', `${base(MUSTER)}/status`, { as: 'admin' });
      expect(muster.json().data).toEqual({ pastDue: null });
      // Overdue for fewer days than the banner waits: no banner yet.
      const today = todayIn(api.config.billing.timeZone);
      await api.db.query('update invoices set due_on = $2 where uuid = $1', [
        overdue[0]!.uuid,
        addDays(today, -3),
      ]);
      const recent = await api.request('GET', `${base(BEISPIEL)}/status`, { as: 'inhaber' });
      expect(recent.json().data).toEqual({ pastDue: null });
    });

    it('shows the saved billing details; paying by card is not offered without a card provider', async () => {
      const res = await api.request('GET', `${base(MUSTER)}/details`, { as: 'admin' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        name: 'Muster AG',
        address: DEMO_BILLING_ADDRESS,
        vatNumber: 'CHE-123.456.788 MWST',
        recipients: ['buchhaltung@example.com', 'owner@example.com'],
        purchaseOrder: 'PO-2026-0042',
        paymentMethod: 'INVOICE',
        cardAvailable: false,
        card: null,
      });
      const card = await api.request('PUT', `${base(MUSTER)}/details`, {
        as: 'admin',
        body: { ...DETAILS, paymentMethod: 'CARD' },
      });
      expect(card.statusCode).toBe(422);
      expect(card.json().details.fields).toEqual({ paymentMethod: 'cardUnavailable' });
    });

    it('proposes the company profile before an account saved billing details', async () => {
      const res = await api.request('GET', `${base(BEISPIEL)}/details`, { as: 'inhaber' });
      expect(res.json().data).toMatchObject({
        name: 'Beispiel GmbH',
        address: null,
        recipients: [DEMO_USERS.inhaber.email],
        paymentMethod: 'INVOICE',
        updatedAt: null,
      });
    });

    it('saves billing details trimmed and formatted, with the audit entry of before and after', async () => {
      const res = await api.request('PUT', `${base(MUSTER)}/details`, { as: 'admin', body: DETAILS });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        address: DETAILS.address,
        vatNumber: 'CHE-101.654.423 MWST',
        recipients: ['rechnungen@example.com', 'kreditoren@example.com'],
        purchaseOrder: 'PO-77',
      });
      const { rows } = await api.db.query<{ before: { vatNumber: string }; after: { vatNumber: string } }>(
        `select before, after from audit_log where account_uuid = $1 and action = 'billing.details.update'`,
        [MUSTER],
      );
      expect(rows.map((row) => [row.before.vatNumber, row.after.vatNumber])).toEqual([
        ['CHE-123.456.788 MWST', 'CHE-101.654.423 MWST'],
      ]);
      const french = await api.request('PUT', `${base(MUSTER)}/details`, {
        as: 'admin',
        body: { ...DETAILS, vatNumber: 'CHE101654423 TVA' },
      });
      expect(french.json().data.vatNumber).toBe('CHE-101.654.423 TVA');
    });

    it('refuses invalid billing details with a field error each and changes nothing', async () => {
      const before = (await api.request('GET', `${base(MUSTER)}/details`, { as: 'admin' })).json().data;
      const cases: [object, Record<string, string>][] = [
        [{ address: { ...DETAILS.address, postcode: '800' } }, { 'address.postcode': 'postcode' }],
        [{ address: { ...DETAILS.address, country: 'XX' } }, { 'address.country': 'pattern' }],
        [
          { address: { ...DETAILS.address, street: '   ', city: ' ' } },
          { 'address.street': 'required', 'address.city': 'required' },
        ],
        [{ vatNumber: 'CHE-101.654.424' }, { vatNumber: 'uidCheckDigit' }],
        [{ vatNumber: 'CHE-1234' }, { vatNumber: 'uid' }],
        [
          { address: { ...DETAILS.address, country: 'DE', postcode: '10115' }, vatNumber: 'FR123' },
          { vatNumber: 'vatNumber' },
        ],
        [{ recipients: ['a@example.com', 'A@example.com'] }, { 'recipients.1': 'duplicate' }],
        [{ recipients: ['not-an-address'] }, { 'recipients.0': 'email' }],
      ];
      for (const [change, fields] of cases) {
        const res = await api.request('PUT', `${base(MUSTER)}/details`, {
          as: 'admin',
          body: { ...DETAILS, ...change },
        });
        expect(res.statusCode, JSON.stringify(change)).toBe(422);
        expect(res.json().details.fields).toEqual(fields);
      }
      for (const recipients of [
        [],
        [
          '1@example.com',
          '2@example.com',
          '3@example.com',
          '4@example.com',
          '5@example.com',
          '6@example.com',
        ],
      ]) {
        const res = await api.request('PUT', `${base(MUSTER)}/details`, {
          as: 'admin',
          body: { ...DETAILS, recipients },
        });
        expect(res.statusCode).toBe(422);
      }
      const after = (await api.request('GET', `${base(MUSTER)}/details`, { as: 'admin' })).json().data;
      expect(after).toEqual(before);
    });

    it('mails a new invoice with its PDF to the recipients once, even when the mail job runs again', async () => {
      const { invoicing, db } = capture.deps;
      const today = todayIn(api.config.billing.timeZone);
      // Issued while no jobs run, as if the instance stopped right after the issuing transaction committed.
      await api.app.jobs.stop();
      const issued = await db.transaction((tx) =>
        invoicing.issue(tx, {
          accountUuid: MUSTER,
          reason: 'CHANGE',
          sourceKey: 'change:test-mail',
          currency: 'CHF',
          lines: withVat(
            {
              kind: 'SEATS',
              planCode: 'PROFESSIONAL',
              billingPeriod: 'YEARLY',
              quantity: 1,
              unitMinor: 7000,
              netMinor: 7000,
              periodStart: today,
              periodEnd: addDays(today, 365),
              prorated: false,
            },
            api.config.billing.vatRates,
          ),
          periodStart: today,
          periodEnd: addDays(today, 365),
          issuedOn: today,
        }),
      );
      const pending = await api.db.query(`select 1 from jobs where unique_key = $1 and state = 'pending'`, [
        `invoicing.issued:${issued.uuid}`,
      ]);
      expect(pending.rows).toHaveLength(1);
      // Back again: the job mails the invoice.
      await api.app.jobs.start();
      const mails = await api.mailsTo('rechnungen@example.com');
      const mine = mails.filter((mail) => mail.subject.includes(issued.number));
      expect(mine).toHaveLength(1);
      expect(mine[0]!.subject).toBe(`Rechnung ${issued.number} von Portal AG`);
      expect(mine[0]!.text_body).toContain('CHF 75.65');
      expect(mine[0]!.html_body).toMatch(/<p[^>]*>Guten Tag/);
      expect(await api.mailsTo('kreditoren@example.com')).toEqual(
        expect.arrayContaining([expect.objectContaining({ subject: mine[0]!.subject })]),
      );
      const outbox = await api.db.query<{ attachments: { fileName: string; fileUuid: string }[] }>(
        'select attachments from mail_outbox where recipient = $1 and subject = $2',
        ['rechnungen@example.com', mine[0]!.subject],
      );
      const [attachment] = outbox.rows[0]!.attachments;
      expect(attachment!.fileName).toBe(`Rechnung-${issued.number}.pdf`);
      // The mailed document is the one a download serves.
      const download = await api.request('GET', `${base(MUSTER)}/invoices/${issued.uuid}/pdf`, {
        as: 'admin',
      });
      const file = await api.db.query<{ uuid: string }>(
        'select pdf_file_uuid as uuid from invoices where uuid = $1',
        [issued.uuid],
      );
      expect(file.rows[0]!.uuid).toBe(attachment!.fileUuid);
      expect(download.statusCode).toBe(200);

      // The job runs again (its completion was lost in a crash): no second mail.
      await api.app.jobs.enqueue('invoicing.issued', { invoiceUuid: issued.uuid });
      const again = await api.mailsTo('rechnungen@example.com');
      expect(again.filter((mail) => mail.subject.includes(issued.number))).toHaveLength(1);
    });

    it('marks invoices past due overdue once and sends each reminder once on its day', async () => {
      const { notifier, mailer } = capture.deps;
      const config = api.config.billing;
      const today = todayIn(config.timeZone);
      const [open] = (await list(MUSTER, '?status=OPEN')).data;
      await api.db.query('update invoices set due_on = $2 where uuid = $1', [open!.uuid, addDays(today, -1)]);
      const run = () => checkOverdue(api.db, { notifier, mailer, config }, today);
      const reminders = async () =>
        (await api.mailsTo('rechnungen@example.com')).filter(
          (mail) => mail.subject.startsWith('Zahlungserinnerung') && mail.subject.includes(open!.number),
        );
      const overdueNotes = async () =>
        (
          await api.db.query(
            `select user_uuid from notifications where type = 'invoice.overdue' and params->>'invoiceUuid' = $1`,
            [open!.uuid],
          )
        ).rows;

      expect(await run()).toEqual({ overdue: 1, reminded: 0 });
      expect(await run()).toEqual({ overdue: 0, reminded: 0 });
      // The list's count and sums follow the status change (the sums the trigger keeps).
      const overdue = await list(MUSTER, `?status=OVERDUE`);
      expect(overdue.data.map((invoice) => invoice.uuid)).toEqual([open!.uuid]);
      expect(overdue.meta).toMatchObject({
        total: 1,
        sums: [{ currency: 'CHF', outstandingMinor: open!.totalMinor, paidMinor: 0 }],
      });
      // The owner and the admin of Muster AG, once each.
      expect(await overdueNotes()).toHaveLength(2);
      expect(await reminders()).toHaveLength(0);

      // The first reminder day is reached: one mail per recipient, once.
      const [first, second] = config.reminderDays;
      await api.db.query('update invoices set due_on = $2 where uuid = $1', [
        open!.uuid,
        addDays(today, -first!),
      ]);
      expect(await run()).toEqual({ overdue: 0, reminded: 1 });
      expect(await run()).toEqual({ overdue: 0, reminded: 0 });
      const sent = await reminders();
      expect(sent).toHaveLength(1);
      expect(sent[0]!.subject).toBe(`Zahlungserinnerung: Rechnung ${open!.number}`);

      // The next day, the second reminder day has also passed: one more mail, not one per day missed.
      await api.db.query('update invoices set due_on = $2, last_reminded_on = $3 where uuid = $1', [
        open!.uuid,
        addDays(today, -second! - 5),
        addDays(today, -1),
      ]);
      expect(await run()).toEqual({ overdue: 0, reminded: 1 });
      expect(await run()).toEqual({ overdue: 0, reminded: 0 });
      expect(await reminders()).toHaveLength(2);
      expect(await overdueNotes()).toHaveLength(2);
    });

    it('marks overdue and reminds once when two instances check at the same time', async () => {
      const { notifier, mailer } = capture.deps;
      const config = api.config.billing;
      const today = todayIn(config.timeZone);
      const [open] = (await list(BEISPIEL, '?status=OPEN', 'inhaber')).data;
      await api.db.query('update invoices set due_on = $2 where uuid = $1', [
        open!.uuid,
        addDays(today, -config.reminderDays[0]!),
      ]);
      const runs = await Promise.all([
        checkOverdue(api.db, { notifier, mailer, config }, today),
        checkOverdue(api.db, { notifier, mailer, config }, today),
      ]);
      expect(runs.reduce((sum, run) => sum + run.overdue, 0)).toBe(1);
      expect(runs.reduce((sum, run) => sum + run.reminded, 0)).toBe(1);
      const reminders = (await api.mailsTo(DEMO_USERS.inhaber.email)).filter((mail) =>
        mail.subject.includes(`Rechnung ${open!.number}`),
      );
      expect(reminders.map((mail) => mail.subject)).toEqual([`Zahlungserinnerung: Rechnung ${open!.number}`]);
      const notes = await api.db.query(
        `select 1 from notifications where type = 'invoice.overdue' and params->>'invoiceUuid' = $1`,
        [open!.uuid],
      );
      expect(notes.rows).toHaveLength(1);
    });

    it('keeps the invoices and payments of a deleted account, and their sums', async () => {
      const before = await api.db.query<{ uuid: string }>(
        'select uuid from invoices where account_uuid = $1 order by uuid',
        [BEISPIEL],
      );
      expect(before.rows.length).toBeGreaterThan(0);
      // As the purge of a deleted account does.
      await api.db.query('delete from accounts where uuid = $1', [BEISPIEL]);
      const after = await api.db.query('select uuid from invoices where account_uuid = $1 order by uuid', [
        BEISPIEL,
      ]);
      expect(after.rows).toEqual(before.rows);
      const payments = await api.db.query('select 1 from invoice_payments where account_uuid = $1', [
        BEISPIEL,
      ]);
      expect(payments.rows.length).toBeGreaterThan(0);
      const gone = await api.db.query(
        `select (select count(*)::int from subscriptions where account_uuid = $1) as subscriptions,
                (select sum(invoices)::int from invoice_sums where account_uuid = $1) as invoices`,
        [BEISPIEL],
      );
      expect(gone.rows[0]).toEqual({ subscriptions: 0, invoices: before.rows.length });
    });
  },
  { modules: [capture.module] },
);
