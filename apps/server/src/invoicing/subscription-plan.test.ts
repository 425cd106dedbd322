import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from './plans.ts';
import { planAction, renewal, type Catalogue, type SubscriptionState } from './subscription-plan.ts';

const CATALOGUE: Catalogue = {
  plans: DEFAULT_PLANS,
  vatRates: [
    { validFrom: '2018-01-01', rateBp: 770 },
    { validFrom: '2024-01-01', rateBp: 810 },
  ],
};

const ACTIVE: SubscriptionState = {
  planCode: 'STANDARD',
  billingPeriod: 'MONTHLY',
  currency: 'CHF',
  seats: 5,
  status: 'ACTIVE',
  trialEndsOn: null,
  periodStart: '2026-11-01',
  periodEnd: '2026-12-01',
  anchorDay: 1,
  cancelAtPeriodEnd: false,
  cancelReason: null,
  cancelComment: null,
  pending: null,
};

const change = (planCode: string, seats: number, billingPeriod: 'MONTHLY' | 'YEARLY' = 'MONTHLY') =>
  ({ action: 'CHANGE', planCode, billingPeriod, seats }) as const;

describe('renewals on the anchor day', () => {
  it('anchor 31 renews Jan 31 → Feb 28 → Mar 31, each period charged in full', () => {
    let state: SubscriptionState = {
      ...ACTIVE,
      periodStart: '2025-12-31',
      periodEnd: '2026-01-31',
      anchorDay: 31,
    };
    const periods: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const next = renewal(state, CATALOGUE);
      expect(next.charge?.lines).toEqual([expect.objectContaining({ netMinor: 4900, prorated: false })]);
      state = next.after;
      periods.push(`${state.periodStart}..${state.periodEnd}`);
    }
    expect(periods).toEqual(['2026-01-31..2026-02-28', '2026-02-28..2026-03-31', '2026-03-31..2026-04-30']);
  });

  it('a leap-year February period on anchor 29 and 30', () => {
    const next = renewal(
      { ...ACTIVE, periodStart: '2024-01-30', periodEnd: '2024-02-29', anchorDay: 30 },
      CATALOGUE,
    );
    expect(next.after).toMatchObject({ periodStart: '2024-02-29', periodEnd: '2024-03-30' });
  });

  it('a free plan renews without a charge', () => {
    const next = renewal({ ...ACTIVE, planCode: 'FREE', seats: 3 }, CATALOGUE);
    expect(next.charge).toBeNull();
    expect(next.after.periodStart).toBe('2026-12-01');
  });
});

describe('changes inside a period', () => {
  it('an upgrade on the first day credits and charges the whole period, not prorated', () => {
    const planned = planAction(ACTIVE, change('PROFESSIONAL', 15), '2026-11-01', CATALOGUE, 3);
    expect(planned.charge?.lines.map((line) => [line.kind, line.netMinor, line.prorated])).toEqual([
      ['PLAN_CREDIT', -4900, false],
      ['PLAN', 12900, false],
    ]);
  });

  it('an upgrade on the last day charges one day of the difference', () => {
    const planned = planAction(ACTIVE, change('PROFESSIONAL', 15), '2026-11-30', CATALOGUE, 3);
    // One day of 30: 4900/30 = 163.33 → 163, 12900/30 = 430
    expect(planned.charge?.lines.map((line) => line.netMinor)).toEqual([-163, 430]);
    expect(planned.charge?.totals).toMatchObject({ netMinor: 267, vatMinor: -13 + 35, totalMinor: 290 });
  });

  it('more seats on the same plan charge only the extra seats for the rest of the period', () => {
    const planned = planAction(ACTIVE, change('STANDARD', 8), '2026-11-16', CATALOGUE, 3);
    // 3 extra seats × 9.00 for 15 of 30 days
    expect(planned.charge?.lines).toEqual([
      expect.objectContaining({ kind: 'SEATS', quantity: 3, unitMinor: 900, netMinor: 1350, prorated: true }),
    ]);
  });

  it('a higher plan that costs less per period (fewer seats) waits for the period end', () => {
    const many = { ...ACTIVE, seats: 50 }; // Standard 49 + 45 × 9 = 454.00
    const planned = planAction(many, change('PROFESSIONAL', 15), '2026-11-10', CATALOGUE, 3); // 129.00
    expect(planned).toMatchObject({ effective: 'PERIOD_END', charge: null, after: { planCode: 'STANDARD' } });
    expect(planned.after.pending).toEqual({ planCode: 'PROFESSIONAL', billingPeriod: 'MONTHLY', seats: 15 });
  });

  it('yearly to monthly waits for the end of the year even to a higher plan', () => {
    const yearly = { ...ACTIVE, billingPeriod: 'YEARLY' as const, periodEnd: '2027-11-01' };
    const planned = planAction(yearly, change('PROFESSIONAL', 15, 'MONTHLY'), '2026-12-10', CATALOGUE, 3);
    expect(planned).toMatchObject({ effective: 'PERIOD_END', effectiveOn: '2027-11-01', charge: null });
  });

  it('during the trial a change applies now and charges nothing', () => {
    const trial = { ...ACTIVE, status: 'TRIALING' as const, trialEndsOn: '2026-12-01' };
    const planned = planAction(trial, change('PROFESSIONAL', 20, 'YEARLY'), '2026-11-05', CATALOGUE, 3);
    expect(planned).toMatchObject({ effective: 'NOW', charge: null, after: { status: 'TRIALING' } });
    // Its first invoice is a year of Professional with 5 extra seats.
    expect(renewal(planned.after, CATALOGUE).charge?.lines.map((line) => line.netMinor)).toEqual([
      129000, 35000,
    ]);
  });

  it('EUR subscriptions are charged in euros to the cent', () => {
    const euro = { ...ACTIVE, currency: 'EUR' as const };
    const planned = planAction(euro, change('PROFESSIONAL', 15), '2026-11-21', CATALOGUE, 3);
    // 10 of 30 days: −1500 and 3966.67 → 3967; VAT −121.5 → −122 and 321.33 → 321
    expect(planned.charge?.totals).toMatchObject({
      currency: 'EUR',
      netMinor: 2467,
      vatMinor: 199,
      totalMinor: 2666,
    });
  });
});

describe('the trial', () => {
  it('a paid plan chosen after the free one during the trial still charges nothing before its end', () => {
    const trial = { ...ACTIVE, status: 'TRIALING' as const, trialEndsOn: '2026-12-01' };
    const free = planAction(trial, change('FREE', 3), '2026-11-05', CATALOGUE, 3).after;
    const back = planAction(free, change('STANDARD', 5), '2026-11-06', CATALOGUE, 3);
    expect(back).toMatchObject({
      effective: 'NOW',
      charge: null,
      after: { status: 'TRIALING', planCode: 'STANDARD' },
    });
  });

  it('ends on the free plan as ACTIVE without an invoice when the free plan was chosen', () => {
    const trial = { ...ACTIVE, status: 'TRIALING' as const, trialEndsOn: '2026-12-01' };
    const free = planAction(trial, change('FREE', 3), '2026-11-05', CATALOGUE, 3).after;
    expect(renewal(free, CATALOGUE)).toMatchObject({
      charge: null,
      after: { status: 'ACTIVE', planCode: 'FREE' },
    });
  });
});

describe('seats', () => {
  it('fewer seats than the plan includes become the included ones, which may cover the seats in use', () => {
    const planned = planAction(ACTIVE, change('PROFESSIONAL', 2), '2026-11-10', CATALOGUE, 4);
    expect(planned.after.seats).toBe(15);
  });

  it('refuses fewer seats than in use, more than the plan allows, and extra seats on the free plan', () => {
    const many = { ...ACTIVE, seats: 10 };
    expect(() => planAction(many, change('STANDARD', 8), '2026-11-10', CATALOGUE, 9)).toThrow(/at least 9/);
    expect(() => planAction(many, change('STANDARD', 51), '2026-11-10', CATALOGUE, 9)).toThrow(/at most 50/);
    expect(() => planAction(many, change('FREE', 4), '2026-11-10', CATALOGUE, 2)).toThrow(/no extra seats/);
  });
});
