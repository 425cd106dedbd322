import type { Currency, Invoice, InvoiceLine } from '@portal/contract';
import type { Creditor } from '../../config.ts';

// Sample documents for the PDF's tests and benchmark: a provider with a QR-IBAN and one with a normal IBAN, and
// invoices whose totals add up as the invoicing code computes them (VAT per line, CHF rounded to 0.05).

export const QR_IBAN_CREDITOR: Creditor = {
  name: 'Portal Services Sàrl',
  address: {
    street: 'Bahnhofstrasse',
    buildingNumber: '10',
    postcode: '8001',
    city: 'Zürich',
    country: 'CH',
  },
  iban: 'CH44 3199 9123 0008 8901 2',
  vatNumber: 'CHE-123.456.789 MWST',
  email: 'billing@portal.example',
  website: 'portal.example',
};

export const IBAN_CREDITOR: Creditor = {
  ...QR_IBAN_CREDITOR,
  iban: 'CH93 0076 2011 6238 5295 7',
  website: null,
};

function line(
  partial: Partial<InvoiceLine> & Pick<InvoiceLine, 'kind' | 'quantity' | 'unitMinor'>,
): InvoiceLine {
  const netMinor = partial.netMinor ?? partial.quantity * partial.unitMinor;
  const vatRateBp = partial.vatRateBp ?? 810;
  return {
    planCode: 'PROFESSIONAL',
    billingPeriod: 'MONTHLY',
    periodStart: '2026-11-01',
    periodEnd: '2026-12-01',
    prorated: false,
    netMinor,
    vatRateBp,
    vatMinor: Math.round((netMinor * vatRateBp) / 10_000),
    ...partial,
  };
}

/** An invoice with `lines`, its totals summed per VAT rate and the payable total rounded as its currency wants. */
export function sampleInvoice(
  currency: Currency,
  lines: InvoiceLine[],
  overrides: Partial<Invoice> = {},
): Invoice {
  const byRate = new Map<number, { netMinor: number; vatMinor: number }>();
  for (const l of lines) {
    const sum = byRate.get(l.vatRateBp) ?? { netMinor: 0, vatMinor: 0 };
    sum.netMinor += l.netMinor;
    sum.vatMinor += l.vatMinor;
    byRate.set(l.vatRateBp, sum);
  }
  const vat = [...byRate].map(([rateBp, sum]) => ({ rateBp, ...sum }));
  const netMinor = vat.reduce((sum, v) => sum + v.netMinor, 0);
  const vatMinor = vat.reduce((sum, v) => sum + v.vatMinor, 0);
  const exact = netMinor + vatMinor;
  const totalMinor = currency === 'CHF' ? Math.round(exact / 5) * 5 : exact;
  return {
    uuid: '6c8f3c1e-8d0a-4f57-9b7e-1f2a3b4c5d6e',
    number: '2026-000123',
    kind: 'INVOICE',
    reason: 'CHANGE',
    status: 'OPEN',
    currency,
    issuedOn: '2026-11-16',
    dueOn: '2026-12-16',
    periodStart: '2026-11-16',
    periodEnd: '2026-12-01',
    totalMinor,
    paidMinor: 0,
    lines,
    totals: { currency, netMinor, vat, vatMinor, roundingMinor: totalMinor - exact, totalMinor },
    reference: '000000000000000020260001237',
    billedTo: {
      name: 'Muster AG',
      address: { street: 'Hauptstraße', buildingNumber: '1a', postcode: '3011', city: 'Bern', country: 'CH' },
      vatNumber: 'CHE-987.654.321 MWST',
      purchaseOrder: 'PO-2026-0815',
    },
    relatedInvoice: null,
    payments: [],
    paidAt: null,
    voidedAt: null,
    ...overrides,
  };
}

/** A mid-period upgrade from Standard to Professional, with extra seats: prorated charges and credits. */
export function upgradeLines(): InvoiceLine[] {
  const prorated = { periodStart: '2026-11-16', periodEnd: '2026-12-01', prorated: true } as const;
  return [
    line({ kind: 'PLAN', quantity: 1, unitMinor: 19_900, netMinor: 9_950, ...prorated }),
    line({ kind: 'SEATS', quantity: 3, unitMinor: 1_500, netMinor: 2_250, ...prorated }),
    line({
      kind: 'PLAN_CREDIT',
      planCode: 'STANDARD',
      quantity: 1,
      unitMinor: -7_900,
      netMinor: -3_950,
      ...prorated,
    }),
    line({
      kind: 'SEATS_CREDIT',
      planCode: 'STANDARD',
      quantity: 2,
      unitMinor: -1_000,
      netMinor: -1_000,
      ...prorated,
    }),
  ];
}

/** A yearly renewal: the plan and its seats for a whole year. */
export function renewalLines(): InvoiceLine[] {
  const year = { billingPeriod: 'YEARLY', periodStart: '2026-12-01', periodEnd: '2027-12-01' } as const;
  return [
    line({ kind: 'PLAN', quantity: 1, unitMinor: 199_000, ...year }),
    line({ kind: 'SEATS', quantity: 12, unitMinor: 15_000, ...year }),
  ];
}
