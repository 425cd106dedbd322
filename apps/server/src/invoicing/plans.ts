import fs from 'node:fs';
import { PLAN_FEATURES, Plan, type Plan as PlanType } from '@portal/contract';
import Type from 'typebox';
import { Value } from 'typebox/value';

/**
 * The plan catalogue shipped with the product; PLANS_FILE (a JSON array of plans) replaces it. Prices are in minor
 * units without VAT; a yearly price is ten months' worth (two months free).
 */
export const DEFAULT_PLANS: PlanType[] = [
  {
    code: 'FREE',
    name: 'Free',
    rank: 0,
    includedSeats: 3,
    maxSeats: 3,
    features: ['INBOX', 'SUPPORT_TICKETS'],
    prices: {
      CHF: { monthlyMinor: 0, yearlyMinor: 0, seatMonthlyMinor: 0, seatYearlyMinor: 0 },
      EUR: { monthlyMinor: 0, yearlyMinor: 0, seatMonthlyMinor: 0, seatYearlyMinor: 0 },
    },
  },
  {
    code: 'STANDARD',
    name: 'Standard',
    rank: 1,
    includedSeats: 5,
    maxSeats: 50,
    features: ['INBOX', 'SUPPORT_TICKETS', 'AUDIT_LOG', 'INTEGRATIONS'],
    prices: {
      CHF: { monthlyMinor: 4900, yearlyMinor: 49000, seatMonthlyMinor: 900, seatYearlyMinor: 9000 },
      EUR: { monthlyMinor: 4500, yearlyMinor: 45000, seatMonthlyMinor: 800, seatYearlyMinor: 8000 },
    },
  },
  {
    code: 'PROFESSIONAL',
    name: 'Professional',
    rank: 2,
    includedSeats: 15,
    maxSeats: null,
    // The top plan offers every feature there is.
    features: [...PLAN_FEATURES],
    prices: {
      CHF: { monthlyMinor: 12900, yearlyMinor: 129000, seatMonthlyMinor: 700, seatYearlyMinor: 7000 },
      EUR: { monthlyMinor: 11900, yearlyMinor: 119000, seatMonthlyMinor: 650, seatYearlyMinor: 6500 },
    },
  },
];

/** The plan a cancelled subscription falls back to: the lowest rank, which must be free. */
export function fallbackPlan(plans: readonly PlanType[]): PlanType {
  return [...plans].sort((a, b) => a.rank - b.rank)[0]!;
}

export function findPlan(plans: readonly PlanType[], code: string): PlanType | undefined {
  return plans.find((plan) => plan.code === code);
}

/**
 * Reads and checks a catalogue: plans of the contract's shape, unique codes and ranks, the lowest rank free (it is
 * where cancelled subscriptions go). Throws a message naming the problem.
 */
export function parsePlans(json: string): PlanType[] {
  const value: unknown = JSON.parse(json);
  const schema = Type.Array(Plan, { minItems: 1 });
  if (!Value.Check(schema, value)) {
    const first = [...Value.Errors(schema, value)][0];
    throw new Error(`not a list of plans (${first ? `${first.instancePath} ${first.message}` : 'invalid'})`);
  }
  const plans = value as PlanType[];
  if (new Set(plans.map((plan) => plan.code)).size !== plans.length)
    throw new Error('plan codes must be unique');
  if (new Set(plans.map((plan) => plan.rank)).size !== plans.length)
    throw new Error('plan ranks must be unique');
  const free = fallbackPlan(plans);
  const prices = Object.values(free.prices);
  if (prices.some((price) => price.monthlyMinor !== 0 || price.yearlyMinor !== 0)) {
    throw new Error(`the lowest plan (${free.code}) must be free`);
  }
  return plans;
}

export function loadPlansFile(file: string): PlanType[] {
  return parsePlans(fs.readFileSync(file, 'utf8'));
}
