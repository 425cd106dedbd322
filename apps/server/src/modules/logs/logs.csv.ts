import { Readable } from 'node:stream';
import { formatDateTime, type Language, type LogEntry } from '@portal/contract';
import { logActionText, logSubjectText } from '@portal/contract/log-texts';

/**
 * The header row of the export in each language, in column order: first what the page shows (the time in Swiss
 * time, the person, the action and what it concerns in words), then the raw values for machines.
 */
const HEADERS: Record<Language, string[]> = {
  de: [
    'Zeit',
    'Person',
    'E-Mail',
    'Aktion',
    'Betroffen',
    'Vorher',
    'Nachher',
    'IP-Adresse',
    'Browser',
    'Zeit (UTC)',
    'Aktion (Schlüssel)',
    'Ziel (ID)',
    'Person (ID)',
  ],
  en: [
    'Time',
    'Person',
    'Email',
    'Action',
    'Concerns',
    'Before',
    'After',
    'IP address',
    'Browser',
    'Time (UTC)',
    'Action (key)',
    'Target (ID)',
    'Person (ID)',
  ],
  fr: [
    'Heure',
    'Personne',
    'E-mail',
    'Action',
    'Concerne',
    'Avant',
    'Après',
    'Adresse IP',
    'Navigateur',
    'Heure (UTC)',
    'Action (clé)',
    'Cible (ID)',
    'Personne (ID)',
  ],
  it: [
    'Ora',
    'Persona',
    'E-mail',
    'Azione',
    'Riguarda',
    'Prima',
    'Dopo',
    'Indirizzo IP',
    'Browser',
    'Ora (UTC)',
    'Azione (chiave)',
    'Destinazione (ID)',
    'Persona (ID)',
  ],
};

/**
 * The separator between cells: a semicolon in German, French and Italian, which Excel with Swiss (and most
 * European) settings splits on when the file is opened; a comma in English (RFC 4180), as English settings expect.
 */
function csvSeparator(language: Language): ',' | ';' {
  return language === 'en' ? ',' : ';';
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return before one) as a formula: such
 * a cell gets a leading apostrophe, so it is shown as the text it is.
 */
export function neutraliseFormula(value: string): string {
  return FORMULA_STARTS.has(value.charCodeAt(0)) ? `'${value}` : value;
}

const FORMULA_STARTS = new Set([...'=+-@\t\r'].map((c) => c.charCodeAt(0)));

function json(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

/** An instant as the database writes it for the log: `2026-11-22T10:05:00.000000Z` (UTC, minutes at 14–16). */
const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z$/;

/**
 * `formatDateTime` for a run of instants in time order, as the export meets them: the same text, made once per UTC
 * hour instead of once per row. Swiss time is UTC plus whole hours, changed only at the start of a UTC hour (01:00
 * UTC since 1981; 00:00 UTC in 1941–42), and the text stops at the minute: within one UTC hour the text up to the
 * minutes is the same, and the minutes are UTC's. Made per row, Intl's `formatToParts` took a quarter of a
 * million-row export's CPU and allocated about ten objects a row, enough garbage to outlive the young generation
 * (decision 264). An hour whose first and last minute do not bear that out (a time zone rule of another kind), and
 * an instant in another form, are formatted on their own.
 */
export function swissTimes(language: Language): (createdAt: string) => string {
  let hour = '';
  let prefix: string | null = null;
  return (createdAt) => {
    if (!UTC_INSTANT.test(createdAt)) return formatDateTime(createdAt, language);
    const key = createdAt.slice(0, 13);
    if (key !== hour) {
      hour = key;
      const first = formatDateTime(`${key}:00:00Z`, language);
      const last = formatDateTime(`${key}:59:00Z`, language);
      prefix = first.endsWith(':00') && last === `${first.slice(0, -2)}59` ? first.slice(0, -2) : null;
    }
    return prefix === null ? formatDateTime(createdAt, language) : prefix + createdAt.slice(14, 16);
  };
}

/** The cells of an entry's row, in the order of the header: the page's words, then the raw values. */
function row(entry: LogEntry, language: Language, swissTime: (createdAt: string) => string): string[] {
  return [
    swissTime(entry.createdAt),
    entry.actor ? entry.actor.name || entry.actor.email || '' : '',
    entry.actor?.email ?? '',
    logActionText(entry.action, language),
    logSubjectText(entry.subject, language),
    json(entry.before),
    json(entry.after),
    entry.clientAddress ?? '',
    entry.browser ?? '',
    entry.createdAt,
    entry.action,
    entry.target ?? '',
    entry.actor?.uuid ?? '',
  ];
}

const NEEDS_QUOTES: Record<',' | ';', RegExp> = { ',': /[",\r\n]/, ';': /[";\r\n]/ };

/**
 * One row of the file (RFC 4180 with the given separator, as csv-stringify writes it with our settings): each cell's
 * formula start neutralised, then quoted when it holds the separator, a quote, a carriage return or a line feed, its
 * quotes doubled; cells separated by the separator, the row ended by a line feed.
 */
export function csvLine(cells: readonly string[], separator: ',' | ';' = ','): string {
  const needsQuotes = NEEDS_QUOTES[separator];
  let line = '';
  for (let i = 0; i < cells.length; i += 1) {
    const cell = neutraliseFormula(cells[i]!);
    if (i > 0) line += separator;
    line += needsQuotes.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return `${line}\n`;
}

/** Text per chunk of the stream, in UTF-16 code units: about 32 KB, well below V8's large objects (128 KB). */
const CHUNK_CHARS = 32 * 1024;

/** The byte order mark: Excel reads a UTF-8 file without it as the local code page, and breaks the umlauts. */
const BOM = '\uFEFF';

/**
 * The log as CSV: UTF-8 with a byte order mark, a header row in `language`, one row per entry in its words, cells
 * separated as a spreadsheet in that language expects (`csvSeparator`). Rows are made
 * only when the file's reader wants more (stream backpressure up to the client), so about one batch is in memory;
 * they go out in chunks of many rows, which keeps compression and the socket from paying a call per row.
 */
export function logsCsv(batches: AsyncIterable<LogEntry[]>, language: Language): Readable {
  async function* chunks() {
    // The header goes out with the first rows, or alone when there are none.
    const separator = csvSeparator(language);
    const swissTime = swissTimes(language);
    let text = BOM + csvLine(HEADERS[language], separator);
    for await (const batch of batches) {
      for (const entry of batch) {
        text += csvLine(row(entry, language, swissTime), separator);
        // Chunks stay below the size V8 keeps apart as a "large object" (collected only by a full collection),
        // so they go as young garbage.
        if (text.length >= CHUNK_CHARS) {
          yield text;
          text = '';
        }
      }
    }
    if (text) yield text;
  }
  // Stopping early (the reader went away, the database failed) ends `batches` too, which frees its connection.
  return Readable.from(chunks(), { objectMode: false });
}
