import crypto from 'node:crypto';
import type { BankPayment, PaymentImport, StaffInvoice } from '@portal/contract';
import { beforeAll, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../demo/users.ts';
import { describeApi, type ApiRequest, type TestApi } from '../../test/api.ts';
import { camtFile, insertTestInvoice, type TestCredit } from '../../test/invoices.ts';
import { staffUser } from '../../test/support-tickets.ts';

const BASE = '/api/billing/v1';
const MUSTER = DEMO_ACCOUNTS.muster;
const BEISPIEL = DEMO_ACCOUNTS.beispiel;
type As = ApiRequest['as'];

const upload = (xml: string, fileName = 'camt054.xml') => ({
  file: { fileName, content: Buffer.from(xml).toString('base64') },
});

async function invoiceRow(api: TestApi, uuid: string) {
  const { rows } = await api.db.query<{ status: string; paid_minor: string; paid_at: Date | null }>(
    `select status, paid_minor::text, paid_at from invoices where uuid = $1`,
    [uuid],
  );
  return { status: rows[0]!.status, paidMinor: Number(rows[0]!.paid_minor), paidAt: rows[0]!.paid_at };
}

async function paymentsOf(api: TestApi, invoiceUuid: string) {
  const { rows } = await api.db.query<{ amount_minor: string; source: string; note: string | null }>(
    `select amount_minor::text, source, note from invoice_payments where invoice_uuid = $1 order by created_at`,
    [invoiceUuid],
  );
  return rows.map((r) => ({ amountMinor: Number(r.amount_minor), source: r.source, note: r.note }));
}

/** An import's counts as [matched, partial, unmatched, duplicates]. */
function countsOf(res: { json: <T>() => T }): number[] {
  const { matched, partial, unmatched, duplicates } = res.json<{ data: PaymentImport }>().data.counts;
  return [matched, partial, unmatched, duplicates];
}

const bankRef = () => `ZV-${crypto.randomUUID().slice(0, 13)}`;

describeApi('billing staff API', (api) => {
  let manager: As;
  let admin: As;
  beforeAll(async () => {
    manager = (await staffUser(api, 'SUPPORT_MANAGER')).as;
    admin = (await staffUser(api, 'PORTAL_ADMIN')).as;
  });

  async function importFile(credits: TestCredit[], as: As = manager) {
    return api.request('POST', `${BASE}/payment-imports`, { as, body: upload(camtFile(credits)) });
  }

  async function paymentOfRef(ref: string): Promise<BankPayment> {
    const res = await api.request('GET', `${BASE}/payments?pageSize=100`, { as: manager });
    return res.json<{ data: BankPayment[] }>().data.find((p) => p.reference === ref)!;
  }

  it('refuses every payments endpoint to support agents and customers (403)', async () => {
    const agent = (await staffUser(api, 'SUPPORT_AGENT')).as;
    const invoice = await insertTestInvoice(api, MUSTER, 10000);
    const calls: [string, string, unknown?][] = [
      ['POST', `${BASE}/payment-imports`, upload(camtFile([]))],
      ['GET', `${BASE}/payment-imports`],
      ['GET', `${BASE}/payments`],
      ['POST', `${BASE}/payments/${crypto.randomUUID()}/resolution`, { invoiceUuid: null, note: 'x' }],
      ['GET', `${BASE}/staff/invoices`],
      ['POST', `${BASE}/staff/invoices/${invoice.uuid}/paid`, { paidOn: '2026-11-01', note: 'x' }],
      ['POST', `${BASE}/staff/invoices/${invoice.uuid}/void`, { reason: 'x' }],
    ];
    for (const as of [agent, 'owner', 'admin', 'employee'] as As[]) {
      for (const [method, url, body] of calls) {
        const res = await api.request(method as 'GET', url, { as, ...(body ? { body } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    }
    expect(await invoiceRow(api, invoice.uuid)).toMatchObject({ status: 'OPEN', paidMinor: 0 });
    expect((await api.request('GET', `${BASE}/payments`, { as: admin })).statusCode).toBe(200);
  });

  it('books an exact payment: the invoice is paid, the credit matched, the audit names the account', async () => {
    const invoice = await insertTestInvoice(api, MUSTER, 216150);
    const ref = bankRef();
    const res = await importFile([{ bankRef: ref, amount: '2161.50', reference: invoice.reference }]);
    expect(res.statusCode).toBe(201);
    expect(countsOf(res)).toEqual([1, 0, 0, 0]);
    const row = await invoiceRow(api, invoice.uuid);
    expect(row).toMatchObject({ status: 'PAID', paidMinor: 216150 });
    expect(row.paidAt).not.toBeNull();
    expect(await paymentsOf(api, invoice.uuid)).toEqual([
      { amountMinor: 216150, source: 'CAMT', note: null },
    ]);
    const payment = await paymentOfRef(invoice.reference);
    expect(payment).toMatchObject({
      status: 'MATCHED',
      amountMinor: 216150,
      currency: 'CHF',
      overpaidMinor: 0,
      problem: null,
      invoice: { uuid: invoice.uuid, number: invoice.number, accountUuid: MUSTER, accountName: 'Muster AG' },
    });
    const audit = await api.db.query<{ action: string; account_uuid: string }>(
      `select action, account_uuid from audit_log where target = $1`,
      [`invoice:${invoice.uuid}`],
    );
    expect(audit.rows).toEqual([{ action: 'invoice.payment', account_uuid: MUSTER }]);
  });

  it('matches a reference written with spaces, and notes an overpayment', async () => {
    const invoice = await insertTestInvoice(api, BEISPIEL, 5000);
    const spaced = invoice.reference.replace(
      /(\d{2})(\d{5})(\d{5})(\d{5})(\d{5})(\d{5})/,
      '$1 $2 $3 $4 $5 $6',
    );
    await importFile([{ bankRef: bankRef(), amount: '55.00', reference: spaced }]);
    expect(await invoiceRow(api, invoice.uuid)).toMatchObject({ status: 'PAID', paidMinor: 5500 });
    expect(await paymentOfRef(invoice.reference)).toMatchObject({ status: 'MATCHED', overpaidMinor: 500 });
  });

  it('books a partial payment: the invoice stays open with what was paid, the credit is listed to handle', async () => {
    const invoice = await insertTestInvoice(api, MUSTER, 100000, { status: 'OVERDUE' });
    const res = await importFile([{ bankRef: bankRef(), amount: '400', reference: invoice.reference }]);
    expect(res.json<{ data: PaymentImport }>().data.counts).toMatchObject({ matched: 0, partial: 1 });
    expect(await invoiceRow(api, invoice.uuid)).toMatchObject({ status: 'OVERDUE', paidMinor: 40000 });
    const payment = await paymentOfRef(invoice.reference);
    expect(payment.status).toBe('PARTIAL');
    const toHandle = await api.request('GET', `${BASE}/payments?status=TO_HANDLE&pageSize=100`, {
      as: manager,
    });
    expect(toHandle.json<{ data: BankPayment[] }>().data.map((p) => p.uuid)).toContain(payment.uuid);

    // The rest arrives: the invoice is paid by the two credits together.
    await importFile([{ bankRef: bankRef(), amount: '600.00', reference: invoice.reference }]);
    expect(await invoiceRow(api, invoice.uuid)).toMatchObject({ status: 'PAID', paidMinor: 100000 });
  });

  it('leaves unknown references, other currencies, paid invoices and credits without reference unmatched', async () => {
    const paid = await insertTestInvoice(api, MUSTER, 1000, { status: 'PAID', paidMinor: 1000 });
    const euro = await insertTestInvoice(api, MUSTER, 1000, { currency: 'EUR' });
    const voided = await insertTestInvoice(api, MUSTER, 1000, { status: 'VOID' });
    const unknown = '999999999999999999999999999';
    const res = await importFile([
      { bankRef: bankRef(), amount: '10.00', reference: unknown },
      { bankRef: bankRef(), amount: '10.00', reference: paid.reference },
      { bankRef: bankRef(), amount: '10.00', reference: euro.reference },
      { bankRef: bankRef(), amount: '10.00', reference: voided.reference },
      { bankRef: bankRef(), amount: '10.00', reference: null, debtor: 'Nobody GmbH' },
    ]);
    expect(countsOf(res)).toEqual([0, 0, 5, 0]);
    expect((await paymentOfRef(unknown)).problem).toBe('UNKNOWN_REFERENCE');
    expect((await paymentOfRef(paid.reference)).problem).toBe('NOT_OPEN');
    expect((await paymentOfRef(euro.reference)).problem).toBe('CURRENCY');
    expect((await paymentOfRef(voided.reference)).problem).toBe('NOT_OPEN');
    expect(await invoiceRow(api, euro.uuid)).toMatchObject({ status: 'OPEN', paidMinor: 0 });
    expect(await invoiceRow(api, paid.uuid)).toMatchObject({ status: 'PAID', paidMinor: 1000 });
  });

  it('refuses the same file a second time (409) and books nothing twice', async () => {
    const invoice = await insertTestInvoice(api, MUSTER, 30000);
    const xml = camtFile([{ bankRef: bankRef(), amount: '100.00', reference: invoice.reference }]);
    expect(
      (await api.request('POST', `${BASE}/payment-imports`, { as: manager, body: upload(xml) })).statusCode,
    ).toBe(201);
    const again = await api.request('POST', `${BASE}/payment-imports`, {
      as: admin,
      body: upload(xml, 'renamed.xml'),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'ALREADY_IMPORTED',
      details: { fields: { file: 'camtAlreadyImported' } },
    });
    expect(await invoiceRow(api, invoice.uuid)).toMatchObject({ status: 'OPEN', paidMinor: 10000 });
    expect(await paymentsOf(api, invoice.uuid)).toHaveLength(1);
  });

  it('counts a credit an earlier file booked as a duplicate in an overlapping file', async () => {
    const first = await insertTestInvoice(api, MUSTER, 20000);
    const second = await insertTestInvoice(api, MUSTER, 30000);
    const shared = { bankRef: bankRef(), amount: '200.00', reference: first.reference };
    await importFile([shared]);
    const res = await importFile([
      shared,
      { bankRef: bankRef(), amount: '300.00', reference: second.reference },
    ]);
    expect(res.statusCode).toBe(201);
    expect(countsOf(res)).toEqual([1, 0, 0, 1]);
    expect(await paymentsOf(api, first.uuid)).toHaveLength(1);
    expect(await invoiceRow(api, second.uuid)).toMatchObject({ status: 'PAID' });
    const imports = await api.request('GET', `${BASE}/payment-imports?pageSize=1`, { as: manager });
    expect(
      imports.json<{ data: PaymentImport[]; meta: { total: number } }>().data[0]!.counts.duplicates,
    ).toBe(1);
  });

  it('refuses files that are no camt.054 with a field error and books nothing', async () => {
    const cases: [string, string][] = [
      ['no xml at all', 'camtNotXml'],
      [
        '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn/></Document>',
        'camtNotCamt054',
      ],
      [camtFile([{ bankRef: bankRef(), amount: '1.00' }]).replace('</Ntfctn>', ''), 'camtNotXml'],
      [`<!DOCTYPE x [<!ENTITY a "b">]>${camtFile([])}`, 'camtDoctype'],
      [camtFile([{ bankRef: bankRef(), amount: '1.005' }]), 'camtMalformed'],
      // Hostile structure: 100,000 nested elements, an element named like a prototype key.
      [
        camtFile([]).replace('</Ntfctn>', `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</Ntfctn>`),
        'camtStructure',
      ],
      [camtFile([]).replace('</Ntfctn>', '<__proto__><x>1</x></__proto__></Ntfctn>'), 'camtStructure'],
      [camtFile([]).replace('</Ntfctn>', '<constructor>1</constructor></Ntfctn>'), 'camtStructure'],
    ];
    const before = await api.db.query<{ n: string }>(`select count(*)::text as n from bank_payment_imports`);
    for (const [xml, problem] of cases) {
      const res = await api.request('POST', `${BASE}/payment-imports`, { as: manager, body: upload(xml) });
      expect(res.statusCode, problem).toBe(422);
      expect(res.json(), problem).toMatchObject({ details: { fields: { file: problem } } });
    }
    const after = await api.db.query<{ n: string }>(`select count(*)::text as n from bank_payment_imports`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('books an unmatched credit on a chosen invoice, or marks it handled with a note', async () => {
    const invoice = await insertTestInvoice(api, MUSTER, 7000);
    const other = await insertTestInvoice(api, MUSTER, 9900, { currency: 'EUR' });
    await importFile([
      { bankRef: bankRef(), amount: '70.00', reference: '11111111111111111111111111' },
      { bankRef: bankRef(), amount: '5.00', reference: '22222222222222222222222222' },
    ]);
    const lost = await paymentOfRef('11111111111111111111111111');
    const stray = await paymentOfRef('22222222222222222222222222');
    const url = (p: BankPayment) => `${BASE}/payments/${p.uuid}/resolution`;

    const wrongCurrency = await api.request('POST', url(lost), {
      as: manager,
      body: { invoiceUuid: other.uuid, note: 'Kunde hat falsche Referenz verwendet' },
    });
    expect(wrongCurrency.statusCode).toBe(422);
    expect(wrongCurrency.json()).toMatchObject({ details: { fields: { invoiceUuid: 'invoiceCurrency' } } });

    const booked = await api.request('POST', url(lost), {
      as: manager,
      body: { invoiceUuid: invoice.uuid, note: 'Kunde hat falsche Referenz verwendet' },
    });
    expect(booked.statusCode).toBe(200);
    expect(booked.json<{ data: BankPayment }>().data).toMatchObject({
      status: 'RESOLVED',
      invoice: { uuid: invoice.uuid },
      note: 'Kunde hat falsche Referenz verwendet',
    });
    expect(await invoiceRow(api, invoice.uuid)).toMatchObject({ status: 'PAID', paidMinor: 7000 });

    const handled = await api.request('POST', url(stray), {
      as: manager,
      body: { invoiceUuid: null, note: 'Zurückerstattet' },
    });
    expect(handled.json<{ data: BankPayment }>().data).toMatchObject({ status: 'RESOLVED', invoice: null });
    const twice = await api.request('POST', url(stray), {
      as: manager,
      body: { invoiceUuid: null, note: 'x' },
    });
    expect(twice.statusCode).toBe(409);
    const blank = await api.request('POST', url(lost), {
      as: manager,
      body: { invoiceUuid: null, note: '   ' },
    });
    expect(blank.statusCode).toBe(422);
  });

  it('moves a partial credit to the invoice it belongs to', async () => {
    const wrong = await insertTestInvoice(api, MUSTER, 50000);
    const right = await insertTestInvoice(api, BEISPIEL, 12000);
    await importFile([{ bankRef: bankRef(), amount: '120.00', reference: wrong.reference }]);
    const partial = await paymentOfRef(wrong.reference);
    expect(partial.status).toBe('PARTIAL');
    const res = await api.request('POST', `${BASE}/payments/${partial.uuid}/resolution`, {
      as: manager,
      body: { invoiceUuid: right.uuid, note: 'Gehört zu Beispiel GmbH' },
    });
    expect(res.statusCode).toBe(200);
    expect(await invoiceRow(api, wrong.uuid)).toMatchObject({ status: 'OPEN', paidMinor: 0 });
    expect(await invoiceRow(api, right.uuid)).toMatchObject({ status: 'PAID', paidMinor: 12000 });
    expect((await paymentsOf(api, wrong.uuid)).map((p) => p.amountMinor)).toEqual([12000, -12000]);
  });

  it('marks an invoice paid by hand with the outstanding amount, the day and the note', async () => {
    const invoice = await insertTestInvoice(api, MUSTER, 80000, { paidMinor: 30000, status: 'OVERDUE' });
    const url = `${BASE}/staff/invoices/${invoice.uuid}/paid`;
    const future = await api.request('POST', url, {
      as: manager,
      body: { paidOn: '2999-01-01', note: 'Bar' },
    });
    expect(future.statusCode).toBe(422);
    const res = await api.request('POST', url, {
      as: manager,
      body: { paidOn: '2026-11-02', note: 'Barzahlung am Schalter' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: StaffInvoice }>().data).toMatchObject({ status: 'PAID', paidMinor: 80000 });
    expect(await paymentsOf(api, invoice.uuid)).toEqual([
      { amountMinor: 50000, source: 'MANUAL', note: 'Barzahlung am Schalter' },
    ]);
    const again = await api.request('POST', url, { as: manager, body: { paidOn: '2026-11-02', note: 'x' } });
    expect(again.statusCode).toBe(409);
    const missing = await api.request('POST', `${BASE}/staff/invoices/${crypto.randomUUID()}/paid`, {
      as: manager,
      body: { paidOn: '2026-11-02', note: 'x' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('finds invoices across accounts by number, reference (spaces ignored) or account name, paginated', async () => {
    const invoice = await insertTestInvoice(api, BEISPIEL, 4200);
    await insertTestInvoice(api, BEISPIEL, 4300);
    const find = async (q: string, extra = '') =>
      (
        await api.request('GET', `${BASE}/staff/invoices?q=${encodeURIComponent(q)}${extra}`, { as: manager })
      ).json<{ data: StaffInvoice[]; meta: { total: number } }>();
    expect((await find(invoice.number)).data.map((i) => i.uuid)).toEqual([invoice.uuid]);
    const spaced = `${invoice.reference.slice(0, 5)} ${invoice.reference.slice(5, 12)}`;
    expect((await find(spaced)).data.map((i) => i.uuid)).toContain(invoice.uuid);
    const byName = await find('beispiel', '&status=OPEN&pageSize=1');
    expect(byName.data).toHaveLength(1);
    expect(byName.data[0]).toMatchObject({ accountName: 'Beispiel GmbH', status: 'OPEN' });
    expect(byName.meta.total).toBeGreaterThan(1);
    expect((await find('%')).data).toEqual([]);
  });

  it('voids an open invoice: status VOID with the reason, and a credit note with the negated lines', async () => {
    const invoice = await insertTestInvoice(api, MUSTER, 21620, { vatMinor: 1620 });
    const url = `${BASE}/staff/invoices/${invoice.uuid}/void`;
    const res = await api.request('POST', url, { as: manager, body: { reason: 'Doppelt verrechnet' } });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: StaffInvoice }>().data).toMatchObject({ uuid: invoice.uuid, status: 'VOID' });
    const { rows } = await api.db.query<{
      uuid: string;
      kind: string;
      reason: string;
      status: string;
      total_minor: string;
      related_invoice_uuid: string;
      lines: { netMinor: number; vatMinor: number; unitMinor: number }[];
      void_reason: string | null;
      voided_at: Date | null;
    }>(
      `select uuid, kind, reason, status, total_minor::text, related_invoice_uuid, lines, void_reason, voided_at
         from invoices where uuid = $1 or related_invoice_uuid = $1 order by kind`,
      [invoice.uuid],
    );
    const [creditNote, voided] = rows;
    expect(voided).toMatchObject({ uuid: invoice.uuid, status: 'VOID', void_reason: 'Doppelt verrechnet' });
    expect(voided!.voided_at).not.toBeNull();
    expect(creditNote).toMatchObject({ kind: 'CREDIT_NOTE', reason: 'VOID', total_minor: '-21620' });
    expect(creditNote!.lines).toEqual([
      expect.objectContaining({ netMinor: -20000, vatMinor: -1620, unitMinor: -20000 }),
    ]);
    expect(creditNote!.related_invoice_uuid).toBe(invoice.uuid);
    expect(voided!.related_invoice_uuid).toBe(creditNote!.uuid);

    // Void once: a second void is refused and issues no second credit note.
    expect((await api.request('POST', url, { as: manager, body: { reason: 'x' } })).statusCode).toBe(409);
    const notes = await api.db.query(`select 1 from invoices where related_invoice_uuid = $1`, [
      invoice.uuid,
    ]);
    expect(notes.rows).toHaveLength(1);
    // A credit for the voided invoice is no longer booked on it.
    await importFile([{ bankRef: bankRef(), amount: '216.20', reference: invoice.reference }]);
    expect((await paymentOfRef(invoice.reference)).problem).toBe('NOT_OPEN');
  });

  it('refuses to void an invoice with payments booked on it', async () => {
    const invoice = await insertTestInvoice(api, MUSTER, 10000, { paidMinor: 2000 });
    const res = await api.request('POST', `${BASE}/staff/invoices/${invoice.uuid}/void`, {
      as: manager,
      body: { reason: 'Storno' },
    });
    expect(res.statusCode).toBe(409);
    expect(await invoiceRow(api, invoice.uuid)).toMatchObject({ status: 'OPEN' });
  });
});
