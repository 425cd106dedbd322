import type { Language } from './common.ts';
import { formatShortDay } from './format.ts';

// Dates typed into a field, read back (decision 263): the inverse of `formatShortDay` and a date and time in the same
// figures. A file of its own, not part of format.ts: the web bundles a module whole into one chunk, and format.ts is
// on the first load, which needs none of this (only the lazy date fields do).

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * A calendar day typed in figures, as `formatShortDay` writes it, back to YYYY-MM-DD; null for anything that is not
 * a whole, existing day. Lenient in what people type: one or two digits for day and month, a point, slash or hyphen
 * between them whatever the language ("1.11.2027", "01/11/2027"), or eight digits without separators
 * ("01112027"). The year has four digits: "1.11.27" is refused, not taken for the year 27.
 */
export function parseShortDay(text: string): string | null {
  const trimmed = text.trim();
  const match =
    /^(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{4})$/.exec(trimmed) ??
    /^(\d{2})(\d{2})(\d{4})$/.exec(trimmed);
  if (!match) return null;
  const [date, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1000 || month < 1 || month > 12 || date < 1) return null;
  // The last day of the month: day 0 of the next one (UTC, so no time zone moves it).
  if (date > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${year}-${pad2(month)}-${pad2(date)}`;
}

/** A wall-clock time ("2026-12-05T22:00") in figures, as a date and time field shows it: "05.12.2026 22:00". */
export function formatShortWallTime(wall: string, language: Language): string {
  return `${formatShortDay(wall.slice(0, 10), language)} ${wall.slice(11, 16)}`;
}

/**
 * A date and time typed in figures back to a wall-clock time ("2026-12-05T22:00"); null unless both are whole. The
 * day as `parseShortDay` takes it, then a space or a comma, then hours and minutes with a colon or a point
 * ("5.12.2026 22:00", "05.12.2026, 9.30"); or twelve digits without separators ("051220262200").
 */
export function parseShortWallTime(text: string): string | null {
  const trimmed = text.trim();
  const match =
    /^(.+?)(?:\s*,\s*|\s+)(\d{1,2})\s*[:.]\s*(\d{2})$/.exec(trimmed) ??
    /^(\d{8})(\d{2})(\d{2})$/.exec(trimmed);
  if (!match) return null;
  const day = parseShortDay(match[1]!);
  const [hours, minutes] = [Number(match[2]), Number(match[3])];
  if (!day || hours > 23 || minutes > 59) return null;
  return `${day}T${pad2(hours)}:${pad2(minutes)}`;
}
