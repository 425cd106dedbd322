import type { Language } from './common.ts';

// How the portal writes money, dates, periods and payment references for people: the web, the server's mails and
// the invoice PDF all use these functions, so a figure reads the same wherever it appears (decision 201).
//
// - Money is written the Swiss way in every language and for every currency: the currency code, a space, the
//   amount with an ASCII apostrophe between groups of three digits and a point before the two decimals:
//   "CHF 1'234.50", "EUR 45.00", "CHF -325.07" (a hyphen-minus, which every font and mail program shows).
//   The result does not depend on the ICU version of Node or the browser.
// - An instant (a timestamp) is shown in Swiss time (Europe/Zurich), whatever the time zone of the machine.
// - A calendar day (YYYY-MM-DD: due dates, periods) is shown as the day it names, never moved by a time zone.
// - Dates follow de-CH, fr-CH and it-CH ("1. November 2027", "1er novembre 2027", "01.11.2027"); English follows
//   en-GB. One long form and one form in figures per language, built from Intl's figures only, so that no ICU
//   version or browser writes "01 novembre" beside "1 novembre" or "1 nov. 2027" beside "01.11.2027".

/** The time zone every instant is shown in: the portal's customers and its provider are in Switzerland. */
export const TIME_ZONE = 'Europe/Zurich';

/** Intl locales of the interface languages: the Swiss conventions of each language, British English. */
export const INTL_LOCALES: Record<Language, string> = { de: 'de-CH', fr: 'fr-CH', it: 'it-CH', en: 'en-GB' };

/** Minor units per major unit: both currencies the portal charges in (CHF, EUR) have two decimals. */
const MINOR_PER_MAJOR = 100;

/**
 * An amount of minor units (Rappen, cents) without its currency: "1'234.50", "-325.07", "0.05". Groups of three
 * digits are separated by an ASCII apostrophe, the decimals by a point, a negative amount starts with a hyphen-minus.
 */
export function formatAmount(minor: number): string {
  const whole = Math.round(Math.abs(minor));
  const major = String(Math.floor(whole / MINOR_PER_MAJOR)).replace(/\B(?=(\d{3})+(?!\d))/g, "'");
  const cents = String(whole % MINOR_PER_MAJOR).padStart(2, '0');
  return `${whole !== 0 && minor < 0 ? '-' : ''}${major}.${cents}`;
}

/** An amount of minor units as a number of major units (francs, euros), as the QR-bill's amount field takes it. */
export function toMajorUnits(minor: number): number {
  return minor / MINOR_PER_MAJOR;
}

/** An amount of minor units with its currency code in front, the same in every language: "CHF 1'234.50". */
export function formatMoney(minor: number, currency: string): string {
  return `${currency} ${formatAmount(minor)}`;
}

/** A VAT rate in basis points as a percentage: 810 → "8.1 %" ("8,1 %" in French), a no-break space before %. */
export function formatRate(rateBp: number, language: Language): string {
  const percent = String(Math.round(rateBp) / 100);
  return `${language === 'fr' ? percent.replace('.', ',') : percent}\u00a0%`;
}

type Instant = string | number | Date;

const toDate = (value: Instant) => (value instanceof Date ? value : new Date(value));

/** Midnight UTC of a calendar day (YYYY-MM-DD), formatted in UTC, so that no time zone moves it to another day. */
const dayDate = (day: string) => new Date(`${day.slice(0, 10)}T00:00:00Z`);

const DAY_MS = 86_400_000;

/** The last day of a period given as its first day and the day after it (how periods are stored). */
const lastDayOf = (end: string) => new Date(dayDate(end).getTime() - DAY_MS).toISOString().slice(0, 10);

/** Month names of each language, as dates in running text write them. */
const MONTHS: Record<Language, string[]> = {
  de: [
    'Januar',
    'Februar',
    'März',
    'April',
    'Mai',
    'Juni',
    'Juli',
    'August',
    'September',
    'Oktober',
    'November',
    'Dezember',
  ],
  fr: [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
  it: [
    'gennaio',
    'febbraio',
    'marzo',
    'aprile',
    'maggio',
    'giugno',
    'luglio',
    'agosto',
    'settembre',
    'ottobre',
    'novembre',
    'dicembre',
  ],
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
};

/** The word between a long date and its time: "1. November 2027 um 11:05". */
const AT: Record<Language, string> = { de: 'um', fr: 'à', it: 'alle', en: 'at' };

/**
 * The calendar day and the time of an instant in Swiss time ("2027-11-01", "11:05"): only Intl's figures, which are
 * the same in every ICU version (its words and their order are not). One formatter, made once: a log export asks
 * for a million of them.
 */
const swissClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function swissDayAndTime(value: Instant): { day: string; time: string } {
  const parts: Record<string, string> = {};
  for (const part of swissClock.formatToParts(toDate(value))) parts[part.type] = part.value;
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/**
 * A calendar day (YYYY-MM-DD) long, one form per language, built without Intl so that every browser and Node write
 * it alike: "1. November 2027", "1er novembre 2027" (French writes the first of a month as an ordinal), "1 novembre
 * 2027", "1 November 2027". Never "01 novembre".
 */
function longDay(day: string, language: Language): string {
  const [year, month, date] = day.slice(0, 10).split('-').map(Number) as [number, number, number];
  const name = MONTHS[language][month - 1]!;
  if (language === 'de') return `${date}. ${name} ${year}`;
  if (language === 'fr') return `${date === 1 ? '1er' : date} ${name} ${year}`;
  return `${date} ${name} ${year}`;
}

/** The date of an instant in Swiss time, long: "1. November 2027", "1er novembre 2027". */
export function formatDate(value: Instant, language: Language): string {
  return longDay(swissDayAndTime(value).day, language);
}

/**
 * Date and time of an instant in Swiss time, as tables show it: the day in figures as `formatShortDay` writes it, and
 * the time: "01.11.2027, 11:05", "01/11/2027, 11:05" in English.
 */
export function formatDateTime(value: Instant, language: Language): string {
  const { day, time } = swissDayAndTime(value);
  return `${formatShortDay(day, language)}, ${time}`;
}

/** Date and time of an instant in Swiss time, as a sentence in a mail uses it: "1. November 2027 um 11:05". */
export function formatDateTimeLong(value: Instant, language: Language): string {
  const { day, time } = swissDayAndTime(value);
  return `${longDay(day, language)} ${AT[language]} ${time}`;
}

/** A calendar day (YYYY-MM-DD), long: "1. November 2027", "1er novembre 2027". */
export function formatDay(day: string, language: Language): string {
  return longDay(day, language);
}

/**
 * The last day of a period given as the day after it (how periods and a trial's end are stored), long: a
 * subscription whose period ends on 2027-11-01 runs up to "31. Oktober 2027" (issue 23 item 9).
 */
export function formatLastDay(end: string, language: Language): string {
  return formatDay(lastDayOf(end), language);
}

/** A calendar day (YYYY-MM-DD) in figures: "01.11.2027" in German, French and Italian, "01/11/2027" in English. */
export function formatShortDay(day: string, language: Language): string {
  const [year, month, date] = day.slice(0, 10).split('-');
  return [date, month, year].join(language === 'en' ? '/' : '.');
}

/**
 * A period, given as its first day and the day after its last (how periods are stored), as its first and last
 * day: "1.–30. November 2026" within a month, "15. November 2026 – 14. November 2027" otherwise.
 */
export function formatPeriod(start: string, end: string, language: Language): string {
  const last = lastDayOf(end);
  const first = start.slice(0, 10);
  if (first >= last) return formatDay(first, language);
  if (first.slice(0, 7) === last.slice(0, 7)) {
    const date = Number(first.slice(8, 10));
    const firstDate = language === 'de' ? `${date}.` : language === 'fr' && date === 1 ? '1er' : String(date);
    return `${firstDate}–${formatDay(last, language)}`;
  }
  return `${formatDay(first, language)} – ${formatDay(last, language)}`;
}

/** A period in figures, its first and last day: "01.11.2026 – 30.11.2026". */
export function formatShortPeriod(start: string, end: string, language: Language): string {
  const last = lastDayOf(end);
  const first = start.slice(0, 10);
  if (first >= last) return formatShortDay(first, language);
  return `${formatShortDay(first, language)} – ${formatShortDay(last, language)}`;
}

/**
 * A payment reference in the groups people read and type it in (as the QR-bill prints it): a 27-digit QR reference
 * as 2 + 5 × 5 digits ("21 00000 00003 13947 14300 09017"), a creditor reference (RF…) in groups of four.
 */
export function formatReference(reference: string): string {
  const compact = reference.replace(/\s+/g, '');
  if (/^\d{27}$/.test(compact))
    return `${compact.slice(0, 2)} ${compact.slice(2).replace(/(\d{5})(?=\d)/g, '$1 ')}`;
  return compact.replace(/(.{4})(?=.)/g, '$1 ');
}

const WALL_TIME = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The wall-clock time of an instant in Swiss time, as a form keeps it: "2026-12-05T22:00". */
export function swissWallTime(value: Instant): string {
  const parts = Object.fromEntries(WALL_TIME.formatToParts(toDate(value)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * The instant a Swiss wall-clock time ("2026-12-05T22:00") names, as ISO 8601: the earlier one of the hour that
 * repeats in October, and an hour later for a time the change in March skips.
 */
export function instantOfSwissWallTime(wall: string): string {
  const asUtc = Date.parse(`${wall}:00Z`);
  // Swiss time is UTC+1 in winter and UTC+2 in summer: the offset whose wall time matches.
  for (const hours of [2, 1]) {
    const instant = asUtc - hours * 3_600_000;
    if (swissWallTime(instant) === wall) return new Date(instant).toISOString();
  }
  return new Date(asUtc - 3_600_000).toISOString();
}
