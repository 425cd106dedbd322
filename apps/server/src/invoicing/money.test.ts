import type { InvoiceLine } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonthsOnAnchor,
  daysBetween,
  invoiceTotals,
  lineVat,
  periodEnd,
  prorate,
  roundPayable,
  vatRateOn,
  withVat,
  type NetLine,
} from './money.ts';

const RATES = [
  { validFrom: '2018-01-01', rateBp: 770 },
  { validFrom: '2024-01-01', rateBp: 810 },
];

describe('days', () => {
  it.each([
    ['2024-02-01', '2024-03-01', 29], // leap year: February has 29 days
    ['2026-02-01', '2026-03-01', 28],
    ['2100-02-01', '2100-03-01', 28], // divisible by 100, not by 400: no leap year
    ['2000-02-01', '2000-03-01', 29], // divisible by 400: a leap year
    ['2026-01-31', '2026-02-28', 28],
    ['2026-04-30', '2026-05-30', 30],
    ['2024-01-01', '2025-01-01', 366],
    ['2026-01-01', '2027-01-01', 365],
    ['2026-03-28', '2026-03-30', 2], // across the switch to summer time: calendar days, not hours
    ['2026-03-01', '2026-02-01', -28],
  ])('from %s to %s: %i days', (from, to, days) => {
    expect(daysBetween(from, to)).toBe(days);
  });

  it.each([
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-02-29', 1, '2024-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
  ])('%s plus %i day is %s', (day, days, expected) => {
    expect(addDays(day, days)).toBe(expected);
  });
});

describe('periods on the anchor day', () => {
  it.each([
    // Anchor 31: the month's last day when it is shorter, and back to the 31st after.
    ['2026-01-31', 1, 31, '2026-02-28'],
    ['2024-01-31', 1, 31, '2024-02-29'],
    ['2026-02-28', 1, 31, '2026-03-31'],
    ['2024-02-29', 1, 31, '2024-03-31'],
    ['2026-03-31', 1, 31, '2026-04-30'],
    ['2026-04-30', 1, 31, '2026-05-31'],
    // Anchor 30 in February, then March.
    ['2026-01-30', 1, 30, '2026-02-28'],
    ['2026-02-28', 1, 30, '2026-03-30'],
    // Anchor 29: February of a leap year has it, others not.
    ['2024-01-29', 1, 29, '2024-02-29'],
    ['2025-01-29', 1, 29, '2025-02-28'],
    ['2026-12-15', 1, 15, '2027-01-15'],
    ['2026-11-30', 3, 30, '2027-02-28'],
  ])('%s plus %i month(s) on anchor %i is %s', (day, months, anchor, expected) => {
    expect(addMonthsOnAnchor(day, months, anchor)).toBe(expected);
  });

  it.each([
    ['2024-02-29', 'YEARLY', 29, '2025-02-28'],
    ['2025-02-28', 'YEARLY', 29, '2026-02-28'],
    ['2027-02-28', 'YEARLY', 29, '2028-02-29'],
    ['2026-01-31', 'MONTHLY', 31, '2026-02-28'],
    ['2026-11-22', 'YEARLY', 22, '2027-11-22'],
  ] as const)('the %s period from %s (anchor %i) ends on %s', (start, period, anchor, expected) => {
    expect(periodEnd(start, period, anchor)).toBe(expected);
  });

  it('a year of monthly periods on anchor 31 never drifts', () => {
    let start = '2024-01-31';
    const ends: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      start = periodEnd(start, 'MONTHLY', 31);
      ends.push(start);
    }
    expect(ends).toEqual([
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
      '2024-05-31',
      '2024-06-30',
      '2024-07-31',
      '2024-08-31',
      '2024-09-30',
      '2024-10-31',
      '2024-11-30',
      '2024-12-31',
      '2025-01-31',
    ]);
  });
});

describe('proration by days', () => {
  it.each([
    // amount, period start, period end, from, expected
    [4900, '2026-11-01', '2026-12-01', '2026-11-01', 4900], // the whole period
    [4900, '2026-11-01', '2026-12-01', '2026-12-01', 0], // nothing left
    [4900, '2026-11-01', '2026-12-01', '2026-11-16', 2450], // 15 of 30 days
    [4900, '2026-11-01', '2026-12-01', '2026-11-21', 1633], // 10 of 30: 1633.33
    [4900, '2026-11-01', '2026-12-01', '2026-11-11', 3267], // 20 of 30: 3266.67
    [4900, '2026-02-01', '2026-03-01', '2026-02-15', 2450], // 14 of 28
    [4900, '2024-02-01', '2024-03-01', '2024-02-15', 2534], // 15 of 29 (leap year): 2534.48
    [4900, '2024-02-01', '2024-03-01', '2024-02-29', 169], // the leap day alone: 168.97
    [4900, '2026-01-31', '2026-02-28', '2026-02-27', 175], // 1 of 28 (anchor 31)
    [4900, '2026-03-31', '2026-04-30', '2026-04-15', 2450], // 15 of 30: a 31st → 30th period
    [129000, '2023-03-01', '2024-03-01', '2023-09-01', 64148], // 182 of 366 days (Feb 29 inside): 64147.54
    [129000, '2026-03-01', '2027-03-01', '2026-09-01', 63970], // 181 of 365 days: 63969.86
    [-4900, '2026-11-01', '2026-12-01', '2026-11-21', -1633], // a credit is the exact negative
    [4900, '2026-11-01', '2026-12-01', '2026-10-15', 4900], // from before the period: the whole period
  ])('%i over %s..%s from %s: %i', (amount, start, end, from, expected) => {
    expect(prorate(amount, start, end, from)).toBe(expected);
  });

  it('a rounded half goes away from zero, so a charge and its credit cancel out', () => {
    // 45 × 1/30 = 1.5
    expect(prorate(45, '2026-11-01', '2026-12-01', '2026-11-30')).toBe(2);
    expect(prorate(-45, '2026-11-01', '2026-12-01', '2026-11-30')).toBe(-2);
  });
});

describe('VAT', () => {
  it.each([
    ['2017-12-31', null],
    ['2018-01-01', 770],
    ['2023-12-31', 770],
    ['2024-01-01', 810],
    ['2030-06-01', 810],
  ])('the rate on %s is %s', (day, rate) => {
    if (rate === null) expect(() => vatRateOn(day, RATES)).toThrow(/No VAT rate/);
    else expect(vatRateOn(day, RATES)).toBe(rate);
  });

  it('takes the latest rate valid on the day, whatever the order of the list', () => {
    expect(vatRateOn('2025-01-01', [...RATES].reverse())).toBe(810);
  });

  it.each([
    [4900, 810, 397], // 396.9
    [12900, 810, 1045], // 1044.9
    [500, 810, 41], // 40.5: half away from zero
    [-500, 810, -41],
    [1000, 770, 77],
    [1, 810, 0], // 0.081
    [7, 810, 1], // 0.567
    [0, 810, 0],
    [-1633, 810, -132], // 132.273
  ])('VAT of %i at %i bp is %i (per line, to the minor unit)', (net, rate, vat) => {
    expect(lineVat(net, rate)).toBe(vat);
  });
});

describe('Rappen rounding and cents', () => {
  it.each([
    // CHF to 5 Rappen, to the nearest: .x1/.x2 down to .x0, .x3 to .x7 to .x5, .x8/.x9 up to the next ten
    [100, 'CHF', 100],
    [101, 'CHF', 100],
    [102, 'CHF', 100],
    [103, 'CHF', 105],
    [104, 'CHF', 105],
    [106, 'CHF', 105],
    [107, 'CHF', 105],
    [108, 'CHF', 110],
    [109, 'CHF', 110],
    [5297, 'CHF', 5295],
    [5298, 'CHF', 5300],
    [-102, 'CHF', -100],
    [-103, 'CHF', -105],
    [-108, 'CHF', -110],
    [0, 'CHF', 0],
    // EUR to the cent: nothing to round
    [5297, 'EUR', 5297],
    [-103, 'EUR', -103],
  ] as const)('%i %s pays %i', (amount, currency, expected) => {
    expect(roundPayable(amount, currency)).toBe(expected);
  });
});

const line = (netMinor: number, vatRateBp: number, kind: InvoiceLine['kind'] = 'PLAN'): InvoiceLine => ({
  kind,
  planCode: 'STANDARD',
  billingPeriod: 'MONTHLY',
  quantity: 1,
  unitMinor: Math.abs(netMinor),
  netMinor,
  vatRateBp,
  vatMinor: lineVat(netMinor, vatRateBp),
  periodStart: '2026-11-01',
  periodEnd: '2026-12-01',
  prorated: false,
});

describe('invoice totals', () => {
  it.each([
    // lines [net, rate], currency, net, vat, rounding, total
    [[[4900, 810]], 'CHF', 4900, 397, -2, 5295], // 52.97 → 52.95
    [[[4900, 810]], 'EUR', 4900, 397, 0, 5297],
    [[[12900, 810]], 'CHF', 12900, 1045, 0, 13945],
    [
      [
        [12900, 810],
        [-4900, 810],
      ],
      'CHF',
      8000,
      648,
      2,
      8650,
    ], // 86.48 → 86.50: VAT per line 1045 − 397
    [
      [
        [4500, 810],
        [800, 810],
      ],
      'EUR',
      5300,
      430,
      0,
      5730,
    ], // 364.5 → 365, 64.8 → 65
    [
      [
        [1000, 770],
        [2000, 810],
      ],
      'CHF',
      3000,
      239,
      1,
      3240,
    ], // two rates: 77 + 162 = 32.39 → 32.40
    [
      [
        [-1633, 810],
        [4300, 810],
      ],
      'CHF',
      2667,
      216,
      2,
      2885,
    ], // credit −132, charge 348: 28.83 → 28.85
  ] as const)('%j in %s', (lines, currency, net, vat, rounding, total) => {
    const totals = invoiceTotals(
      lines.map(([n, r]) => line(n, r)),
      currency,
    );
    expect(totals).toMatchObject({
      currency,
      netMinor: net,
      vatMinor: vat,
      roundingMinor: rounding,
      totalMinor: total,
    });
    expect(totals.netMinor + totals.vatMinor + totals.roundingMinor).toBe(totals.totalMinor);
  });

  it('shows VAT per rate, highest rate first, each rate the sum of its lines', () => {
    const totals = invoiceTotals([line(1000, 770), line(2000, 810), line(-500, 810), line(300, 770)], 'CHF');
    expect(totals.vat).toEqual([
      { rateBp: 810, netMinor: 1500, vatMinor: 162 - 41 },
      { rateBp: 770, netMinor: 1300, vatMinor: 77 + 23 },
    ]);
    expect(totals.vatMinor).toBe(162 - 41 + 77 + 23);
  });

  it('an empty invoice is zero', () => {
    expect(invoiceTotals([], 'CHF')).toEqual({
      currency: 'CHF',
      netMinor: 0,
      vat: [],
      vatMinor: 0,
      roundingMinor: 0,
      totalMinor: 0,
    });
  });
});

describe('a VAT rate change inside a period', () => {
  const CHANGE = [...RATES, { validFrom: '2027-01-16', rateBp: 900 }];
  const net = (netMinor: number, periodStart: string, periodEnd: string): NetLine => ({
    kind: 'PLAN',
    planCode: 'STANDARD',
    billingPeriod: 'MONTHLY',
    quantity: 1,
    unitMinor: 4900,
    netMinor,
    periodStart,
    periodEnd,
    prorated: false,
  });

  it('splits the line by days at the change, each part taxed at its rate, the parts adding up', () => {
    const parts = withVat(net(4900, '2027-01-01', '2027-02-01'), CHANGE);
    expect(
      parts.map((part) => [part.periodStart, part.periodEnd, part.netMinor, part.vatRateBp, part.vatMinor]),
    ).toEqual([
      ['2027-01-01', '2027-01-16', 2371, 810, 192], // 15 of 31 days: 2370.97; VAT 192.05
      ['2027-01-16', '2027-02-01', 2529, 900, 228], // the remainder; VAT 227.61
    ]);
    expect(parts.reduce((sum, part) => sum + part.netMinor, 0)).toBe(4900);
    expect(invoiceTotals(parts, 'CHF')).toMatchObject({
      netMinor: 4900,
      vatMinor: 420,
      vat: [
        { rateBp: 900, netMinor: 2529, vatMinor: 228 },
        { rateBp: 810, netMinor: 2371, vatMinor: 192 },
      ],
      totalMinor: 5320,
    });
  });

  it('a credit splits the same way, to the exact negative', () => {
    const charge = withVat(net(1633, '2027-01-10', '2027-02-01'), CHANGE);
    const credit = withVat(net(-1633, '2027-01-10', '2027-02-01'), CHANGE);
    expect(credit.map((part) => part.netMinor)).toEqual(charge.map((part) => -part.netMinor));
    expect(credit.map((part) => part.vatMinor)).toEqual(charge.map((part) => -part.vatMinor));
    expect(invoiceTotals([...charge, ...credit], 'CHF').totalMinor).toBe(0);
  });

  it('does not split a line that starts on the change or ends on it', () => {
    expect(withVat(net(4900, '2027-01-16', '2027-02-16'), CHANGE)).toMatchObject([{ vatRateBp: 900 }]);
    expect(withVat(net(4900, '2026-12-16', '2027-01-16'), CHANGE)).toMatchObject([{ vatRateBp: 810 }]);
  });

  it('splits a yearly line at two changes into three parts', () => {
    const rates = [...CHANGE, { validFrom: '2027-07-01', rateBp: 950 }];
    const parts = withVat(net(49000, '2027-01-01', '2028-01-01'), rates);
    expect(parts.map((part) => [part.vatRateBp, daysBetween(part.periodStart, part.periodEnd)])).toEqual([
      [810, 15],
      [900, 166],
      [950, 184],
    ]);
    expect(parts.reduce((sum, part) => sum + part.netMinor, 0)).toBe(49000);
  });
});
