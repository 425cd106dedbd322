import { Readable } from 'node:stream';
import type { Language, LogEntry } from '@portal/contract';

/** The header row of the export in each language, in column order. */
const HEADERS: Record<Language, string[]> = {
  de: ['Zeit (UTC)', 'Person', 'E-Mail', 'Aktion', 'Ziel', 'Vorher', 'Nachher', 'IP-Adresse', 'Browser'],
  en: ['Time (UTC)', 'Person', 'Email', 'Action', 'Target', 'Before', 'After', 'IP address', 'Browser'],
  fr: ['Heure (UTC)', 'Personne', 'E-mail', 'Action', 'Cible', 'Avant', 'Après', 'Adresse IP', 'Navigateur'],
  it: [
    'Ora (UTC)',
    'Persona',
    'E-mail',
    'Azione',
    'Destinazione',
    'Prima',
    'Dopo',
    'Indirizzo IP',
    'Browser',
  ],
};

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

/** The cells of an entry's row, in the order of the header. */
function row(entry: LogEntry): string[] {
  return [
    entry.createdAt,
    entry.actor?.name ?? '',
    entry.actor?.email ?? '',
    entry.action,
    entry.targetUser?.email ?? entry.target ?? '',
    json(entry.before),
    json(entry.after),
    entry.clientAddress ?? '',
    entry.browser ?? '',
  ];
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One row of the file (RFC 4180, as csv-stringify writes it with our settings): each cell's formula start
 * neutralised, then quoted when it holds a comma, a quote, a carriage return or a line feed, its quotes doubled;
 * cells separated by commas, the row ended by a line feed.
 */
export function csvLine(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i += 1) {
    const cell = neutraliseFormula(cells[i]!);
    if (i > 0) line += ',';
    line += NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return `${line}\n`;
}

/** Text per chunk of the stream, in UTF-16 code units: about 32 KB, well below V8's large objects (128 KB). */
const CHUNK_CHARS = 32 * 1024;

/** The byte order mark: Excel reads a UTF-8 file without it as the local code page, and breaks the umlauts. */
const BOM = '\uFEFF';

/**
 * The log as CSV: UTF-8 with a byte order mark, a header row in `language`, one row per entry. Rows are made
 * only when the file's reader wants more (stream backpressure up to the client), so about one batch is in memory;
 * they go out in chunks of many rows, which keeps compression and the socket from paying a call per row.
 */
export function logsCsv(batches: AsyncIterable<LogEntry[]>, language: Language): Readable {
  async function* chunks() {
    // The header goes out with the first rows, or alone when there are none.
    let text = BOM + csvLine(HEADERS[language]);
    for await (const batch of batches) {
      for (const entry of batch) {
        text += csvLine(row(entry));
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
