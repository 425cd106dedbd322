// Invoices and bank files for tests of the payments' staff side: an invoice row as the invoicing code writes it,
// and a camt.054 file (version 08, as Swiss banks send it) crediting chosen references.
import crypto from 'node:crypto';
import type { TestApi } from './api.ts';

export interface TestInvoice {
  uuid: string;
  number: string;
  reference: string;
}

let sequence = 900000;

/** A random 27-digit QR reference; matching compares references, it does not check their check digit. */
const qrReference = () =>
  Array.from({ length: 27 }, () => crypto.randomInt(10))
    .join('')
    .replace(/^0/, '1');

/**
 * An open invoice of `account` owing `totalMinor` (or as `options` say otherwise); due in 30 days, so the overdue
 * job leaves it open, unless it is to be overdue.
 */
export async function insertTestInvoice(
  api: TestApi,
  account: string,
  totalMinor: number,
  options: {
    currency?: 'CHF' | 'EUR';
    status?: 'OPEN' | 'OVERDUE' | 'PAID' | 'VOID';
    paidMinor?: number;
    reference?: string;
    /** One plan line taxed at 8.1 %, whose net and VAT make the total. */
    vatMinor?: number;
  } = {},
): Promise<TestInvoice> {
  const uuid = crypto.randomUUID();
  sequence += 1;
  const number = `2026-${sequence}`;
  const reference = options.reference ?? qrReference();
  const currency = options.currency ?? 'CHF';
  const vatMinor = options.vatMinor ?? 0;
  const netMinor = totalMinor - vatMinor;
  const lines = [
    {
      kind: 'PLAN',
      planCode: 'standard',
      billingPeriod: 'MONTHLY',
      quantity: 1,
      unitMinor: netMinor,
      netMinor,
      vatRateBp: 810,
      vatMinor,
      periodStart: '2026-10-01',
      periodEnd: '2026-11-01',
      prorated: false,
    },
  ];
  const vat = [{ rateBp: 810, netMinor, vatMinor }];
  const totals = { currency, netMinor, vat, vatMinor, roundingMinor: 0, totalMinor };
  await api.db.query(
    `insert into invoices (uuid, account_uuid, number, year, sequence, kind, reason, status, currency, issued_on,
                           due_on, period_start, period_end, lines, totals, net_minor, vat_minor, total_minor,
                           paid_minor, reference, billed_to, source_key)
     values ($1, $2, $3, 2026, $4, 'INVOICE', 'PERIOD', $5, $6, '2026-10-01',
             case when $5 = 'OVERDUE' then date '2026-10-31' else current_date + 30 end, '2026-10-01',
             '2026-11-01', $13, $7, $14, $15, $8, $9, $10, $11, $12)`,
    [
      uuid,
      account,
      number,
      sequence,
      options.status ?? 'OPEN',
      currency,
      JSON.stringify(totals),
      totalMinor,
      options.paidMinor ?? 0,
      reference,
      JSON.stringify({ name: 'Test AG', address: null, vatNumber: null, purchaseOrder: null }),
      `test:${uuid}`,
      JSON.stringify(lines),
      netMinor,
      vatMinor,
    ],
  );
  return { uuid, number, reference };
}

export interface TestCredit {
  /** The bank's reference of the transaction: the same one in two files is the same credit. */
  bankRef: string;
  amount: string;
  currency?: string;
  reference?: string | null;
  debtor?: string;
  bookedOn?: string;
}

/** A camt.054.001.08 file with one booked credit entry per credit. */
export function camtFile(credits: TestCredit[], messageId = crypto.randomUUID()): string {
  const entries = credits.map(
    (c) => `
      <Ntry>
        <Amt Ccy="${c.currency ?? 'CHF'}">${c.amount}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${c.bookedOn ?? '2026-11-20'}</Dt></BookgDt>
        <ValDt><Dt>${c.bookedOn ?? '2026-11-20'}</Dt></ValDt>
        <AcctSvcrRef>E-${c.bankRef}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>VCOM</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs><AcctSvcrRef>${c.bankRef}</AcctSvcrRef><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
            <Amt Ccy="${c.currency ?? 'CHF'}">${c.amount}</Amt>
            <CdtDbtInd>CRDT</CdtDbtInd>
            <RltdPties><Dbtr><Pty><Nm>${c.debtor ?? 'Muster AG'}</Nm></Pty></Dbtr></RltdPties>
            ${
              c.reference
                ? `<RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Prtry>QRR</Prtry></CdOrPrtry></Tp>
                   <Ref>${c.reference}</Ref></CdtrRefInf></Strd></RmtInf>`
                : '<RmtInf><Ustrd>Zahlung</Ustrd></RmtInf>'
            }
          </TxDtls>
        </NtryDtls>
      </Ntry>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>2026-11-20T22:00:00+01:00</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>${messageId}</Id>
      <CreDtTm>2026-11-20T22:00:00+01:00</CreDtTm>
      <Acct><Id><IBAN>CH4431999123000889012</IBAN></Id></Acct>${entries.join('')}
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`;
}
