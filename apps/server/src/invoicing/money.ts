import type { Currency, InvoiceLine, InvoiceTotals, VatAmount } from '@portal/contract';

// The arithmetic of charges: integer minor units only, calendar days as ISO dates (YYYY-MM-DD, no time zone).
// Subscription previews, the charges they confirm, renewals and the invoices issued for them all use these
// functions, so a preview and its invoice agree to the Rappen.

/** A VAT rate valid from a day on (e.g. 8.1 % = 810 basis points from 2024-01-01). */
export interface VatRate {
  validFrom: string;
  rateBp: number;
}

const DAY_MS = 86_400_000;

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

function fromDayNumber(value: number): string {
  return new Date(value * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` up to, not including, `to` (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

export function addDays(day: string, days: number): string {
  return fromDayNumber(dayNumber(day) + days);
}

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * The day `months` months after `day`'s month, on the billing anchor day, or on the month's last day when the month
 * is shorter (anchor 31: Jan 31 → Feb 28 or 29 → Mar 31).
 */
export function addMonthsOnAnchor(day: string, months: number, anchorDay: number): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index % 12;
  const date = Math.min(anchorDay, daysInMonth(targetYear, targetMonth));
  return `${targetYear}-${String(targetMonth + 1).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
}

/** The end (exclusive) of the period that starts on `start`: one month or one year later on the anchor day. */
export function periodEnd(start: string, period: 'MONTHLY' | 'YEARLY', anchorDay: number): string {
  return addMonthsOnAnchor(start, period === 'MONTHLY' ? 1 : 12, anchorDay);
}

/** Half away from zero, so a credit is the exact negative of the same charge. */
export function roundHalfAway(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/**
 * The part of `amountMinor` for the days from `from` to the period's end, by days (a leap year's February has 29):
 * amount × remaining days ÷ period days, rounded to the minor unit.
 */
export function prorate(amountMinor: number, periodStart: string, periodEnd: string, from: string): number {
  const total = daysBetween(periodStart, periodEnd);
  const remaining = Math.min(Math.max(daysBetween(from, periodEnd), 0), total);
  return roundHalfAway((amountMinor * remaining) / total);
}

/** The rate valid on `day`: the latest rate whose validFrom is on or before it. */
export function vatRateOn(day: string, rates: readonly VatRate[]): number {
  let found: VatRate | undefined;
  for (const rate of rates) {
    if (rate.validFrom <= day && (!found || rate.validFrom > found.validFrom)) found = rate;
  }
  if (!found) throw new Error(`No VAT rate is configured for ${day}`);
  return found.rateBp;
}

/** VAT of one line, rounded to the minor unit per line. */
export function lineVat(netMinor: number, rateBp: number): number {
  return roundHalfAway((netMinor * rateBp) / 10_000);
}

/** A line before VAT: what it charges for which days. */
export type NetLine = Omit<InvoiceLine, 'vatRateBp' | 'vatMinor'>;

/**
 * Puts VAT on a line. A line whose days cross a rate change is split at the change, its net divided by days (the
 * last part takes the remainder so the parts add up), each part taxed at the rate of its days.
 */
export function withVat(line: NetLine, rates: readonly VatRate[]): InvoiceLine[] {
  const changes = rates
    .map((rate) => rate.validFrom)
    .filter((day) => day > line.periodStart && day < line.periodEnd)
    .sort();
  if (changes.length === 0) {
    const rateBp = vatRateOn(line.periodStart, rates);
    return [{ ...line, vatRateBp: rateBp, vatMinor: lineVat(line.netMinor, rateBp) }];
  }
  const bounds = [line.periodStart, ...changes, line.periodEnd];
  const days = daysBetween(line.periodStart, line.periodEnd);
  const parts: InvoiceLine[] = [];
  let assigned = 0;
  for (let index = 0; index < bounds.length - 1; index += 1) {
    const start = bounds[index]!;
    const end = bounds[index + 1]!;
    const last = index === bounds.length - 2;
    const net = last
      ? line.netMinor - assigned
      : roundHalfAway((line.netMinor * daysBetween(start, end)) / days);
    assigned += net;
    const rateBp = vatRateOn(start, rates);
    parts.push({
      ...line,
      periodStart: start,
      periodEnd: end,
      netMinor: net,
      vatRateBp: rateBp,
      vatMinor: lineVat(net, rateBp),
    });
  }
  return parts;
}

/** Smallest payable step: CHF is paid to 5 Rappen (cash rounding), EUR to the cent. */
const PAYABLE_STEP: Record<Currency, number> = { CHF: 5, EUR: 1 };

/** Rounds a payable amount to its currency's step, half away from zero. */
export function roundPayable(amountMinor: number, currency: Currency): number {
  const step = PAYABLE_STEP[currency];
  return roundHalfAway(amountMinor / step) * step;
}

/**
 * Totals of lines: net, VAT summed per rate (each line's VAT already rounded), the gross amount rounded to the
 * currency's payable step, and the rounding difference shown on the invoice.
 */
export function invoiceTotals(lines: readonly InvoiceLine[], currency: Currency): InvoiceTotals {
  const byRate = new Map<number, VatAmount>();
  let netMinor = 0;
  let vatMinor = 0;
  for (const line of lines) {
    netMinor += line.netMinor;
    vatMinor += line.vatMinor;
    const entry = byRate.get(line.vatRateBp) ?? { rateBp: line.vatRateBp, netMinor: 0, vatMinor: 0 };
    entry.netMinor += line.netMinor;
    entry.vatMinor += line.vatMinor;
    byRate.set(line.vatRateBp, entry);
  }
  const gross = netMinor + vatMinor;
  const totalMinor = roundPayable(gross, currency);
  return {
    currency,
    netMinor,
    vat: [...byRate.values()].sort((a, b) => b.rateBp - a.rateBp),
    vatMinor,
    roundingMinor: totalMinor - gross,
    totalMinor,
  };
}

/**
 * One day format per time zone (the configured ones): making a format costs about 0.1 ms of CPU, and the account
 * directory asks for today on every page (decision 268).
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's calendar day in a time zone (periods and due dates are days where the provider is). */
export function todayIn(timeZone: string, at: Date = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}
