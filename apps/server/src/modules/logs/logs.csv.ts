import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
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
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function json(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

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

/**
 * The log as CSV: UTF-8 with a byte order mark (Excel reads the umlauts right), a header row in `language`, one
 * row per entry, every cell's formula start neutralised. Rows are produced as the batches arrive and the stream
 * waits while the client is slow, so at most one batch is in memory.
 */
export function logsCsv(batches: AsyncIterable<LogEntry[]>, language: Language): Readable {
  const csv = stringify({
    bom: true,
    header: true,
    columns: HEADERS[language],
    cast: { string: neutraliseFormula },
  });
  async function* rows() {
    for await (const batch of batches) for (const entry of batch) yield row(entry);
  }
  // An error while reading (the database gone) ends the download early; the client sees a cut response.
  pipeline(Readable.from(rows()), csv, () => undefined);
  return csv;
}
