import { buffer } from 'node:stream/consumers';
import { formatDateTime, LANGUAGES, type LogEntry } from '@portal/contract';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLine, logsCsv, neutraliseFormula, swissTimes } from './logs.csv.ts';
import { shortBrowser } from '../../http/user-agent.ts';
import { EXPORT_SLOTS, exportSlot } from './logs.service.ts';

const entry = (n: number): LogEntry => ({
  id: String(n),
  createdAt: '2026-11-22T10:00:00.000000Z',
  action: 'account.update',
  target: `account:${n}`,
  targetUser: null,
  subject: { kind: 'account', id: null, ref: null, name: 'Muster AG' },
  actor: { uuid: '6f1c2b1e-0001-4000-8000-000000000001', name: 'Jörg Müller', email: 'j@example.com' },
  actorIsStaff: false,
  before: { name: 'A' },
  after: { name: 'B' },
  clientAddress: '192.0.2.1',
  userAgent: null,
  browser: null,
});

describe('the log export', () => {
  it('neutralises every formula start, and only those', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(neutraliseFormula(`${start}1`)).toBe(`'${start}1`);
    for (const text of ['1', 'a=b', ' =1', '', 'Zürich']) expect(neutraliseFormula(text)).toBe(text);
  });

  it('reads the next batch only when the reader wants more (one batch in memory at a time)', async () => {
    let pulled = 0;
    async function* endless() {
      for (let batch = 0; ; batch += 1) {
        pulled += 1;
        yield Array.from({ length: 1_000 }, (_, i) => entry(batch * 1_000 + i));
      }
    }
    const stream = logsCsv(endless(), 'de');
    const reader = stream[Symbol.asyncIterator]();
    const first = (await reader.next()).value as Buffer;
    expect(first.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(first.toString('utf8')).toContain('Jörg Müller');
    // Nobody reads on: once every pending step of the stream has run, the source stopped after a few batches
    // instead of running on without end.
    let seen = -1;
    while (seen !== pulled) {
      seen = pulled;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(pulled).toBeLessThan(5);
    await reader.return?.();
  });

  it('writes every row as csv-stringify does (the library the export used before): same quoting, same bytes', () => {
    const cell = fc.oneof(
      fc.string({
        unit: fc.constantFrom(',', ';', '"', '\r', '\n', '\t', '=', '+', '-', '@', "'", ' ', 'a', 'ü', '😀'),
      }),
      fc.string({ unit: 'binary', maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 9 }), fc.constantFrom(',', ';'), (cells, sep) => {
        expect(csvLine(cells, sep as ',' | ';')).toBe(
          stringify([cells], { delimiter: sep, cast: { string: neutraliseFormula } }),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it('makes the whole file the same way: BOM, header, rows in words and raw, also when there are no rows', async () => {
    const entries = [
      entry(1),
      {
        ...entry(2),
        actor: null,
        before: null,
        action: 'account.terms.accept',
        target: 'terms:agb',
        subject: { kind: 'terms', id: 'agb', ref: null, name: null },
      },
      {
        ...entry(3),
        action: 'x.unknown',
        target: '=cmd|"/c calc"!A0',
        subject: { kind: 'other', id: null, ref: null, name: '=cmd|"/c calc"!A0' },
      },
    ];
    const words: Record<string, string[]> = {
      en: [
        'Account changed',
        'Muster AG',
        'Terms accepted',
        'Terms and conditions',
        'X unknown',
        '=cmd|"/c calc"!A0',
      ],
      de: [
        'Konto geändert',
        'Muster AG',
        'Bedingungen akzeptiert',
        'Allgemeine Geschäftsbedingungen',
        'X unknown',
        '=cmd|"/c calc"!A0',
      ],
    };
    const headers: Record<string, string[]> = {
      en: 'Time,Person,Email,Action,Concerns,Before,After,IP address,Browser,Time (UTC),Action (key),Target (ID),Person (ID)'.split(
        ',',
      ),
      de: 'Zeit,Person,E-Mail,Aktion,Betroffen,Vorher,Nachher,IP-Adresse,Browser,Zeit (UTC),Aktion (Schlüssel),Ziel (ID),Person (ID)'.split(
        ',',
      ),
    };
    async function* batches() {
      yield [entries[0]!];
      yield [];
      yield entries.slice(1);
    }
    for (const [language, delimiter] of [
      ['en', ','],
      ['de', ';'],
    ] as const) {
      const expected = stringify(
        entries.map((e, i) => [
          language === 'en' ? '22/11/2026, 11:00' : '22.11.2026, 11:00',
          e.actor?.name ?? '',
          e.actor?.email ?? '',
          words[language]![i * 2]!,
          words[language]![i * 2 + 1]!,
          e.before ? JSON.stringify(e.before) : '',
          JSON.stringify(e.after),
          e.clientAddress ?? '',
          '',
          e.createdAt,
          e.action,
          e.target ?? '',
          e.actor?.uuid ?? '',
        ]),
        {
          bom: true,
          header: true,
          delimiter,
          columns: headers[language]!,
          cast: { string: neutraliseFormula },
        },
      );
      // Bytes, not decoded text: a decoder would drop the byte order mark.
      expect((await buffer(logsCsv(batches(), language))).toString('utf8')).toBe(expected);
    }
    async function* none() {}
    expect((await buffer(logsCsv(none(), 'it'))).toString('utf8')).toBe(
      '\uFEFFOra;Persona;E-mail;Azione;Riguarda;Prima;Dopo;Indirizzo IP;Browser;Ora (UTC);Azione (chiave);Destinazione (ID);Persona (ID)\n',
    );
  });

  it('writes the Swiss time as formatDateTime does, made once per UTC hour: across summer time changes too', () => {
    // Every 7 minutes and 13 seconds (so every minute of the hour comes round) over the changes of 2026 and
    // those of 1941, which Switzerland made at 00:00 UTC; newest first, as the export reads them.
    const spans = [
      [Date.UTC(2026, 2, 28), Date.UTC(2026, 2, 30)],
      [Date.UTC(2026, 9, 24), Date.UTC(2026, 9, 26)],
      [Date.UTC(1941, 4, 4), Date.UTC(1941, 4, 6)],
      [Date.UTC(1941, 9, 5), Date.UTC(1941, 9, 7)],
    ];
    for (const language of LANGUAGES) {
      const swissTime = swissTimes(language);
      for (const [from, to] of spans) {
        for (let t = to!; t >= from!; t -= 433_000) {
          const instant = new Date(t).toISOString().replace('Z', '123Z');
          expect(swissTime(instant)).toBe(formatDateTime(instant, language));
        }
      }
      // An instant in another form is formatted on its own.
      for (const other of ['2026-03-29T03:30:00+02:00', '2026-03-29T00:59:59Z', '2026-03-29T01:00Z'])
        expect(swissTime(other)).toBe(formatDateTime(other, language));
    }
  });

  it('stops reading when the download is abandoned (the cursor gives its connection back)', async () => {
    let finished = false;
    async function* endless() {
      try {
        for (let batch = 0; ; batch += 1) yield [entry(batch)];
      } finally {
        finished = true;
      }
    }
    const stream = logsCsv(endless(), 'de');
    await stream[Symbol.asyncIterator]().next();
    stream.destroy();
    await expect.poll(() => finished).toBe(true);
  });

  it('lets a few exports hold a database connection at once; the next waits until one ends', async () => {
    const db = {};
    const held = await Promise.all(Array.from({ length: EXPORT_SLOTS }, () => exportSlot(db)));
    let got = false;
    const waiting = exportSlot(db).then((release) => {
      got = true;
      return release;
    });
    // Another database has slots of its own.
    (await exportSlot({}))();
    expect(got).toBe(false);
    held[0]!();
    held[0]!(); // giving a slot back twice frees it once
    const release = await waiting;
    expect(got).toBe(true);
    let third = false;
    void exportSlot(db).then(() => (third = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBe(false);
    release();
    await expect.poll(() => third).toBe(true);
  });

  it('names the browser in short', () => {
    expect(
      shortBrowser('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:133.0) Gecko/20100101 Firefox/133.0'),
    ).toBe('Firefox 133 · macOS');
    expect(shortBrowser(null)).toBeNull();
    expect(shortBrowser('curl/8.5.0')).toBe('curl/8.5.0');
  });
});
