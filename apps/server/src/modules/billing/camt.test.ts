import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CAMT_MAX_DEPTH, CamtRefused, amountToMinor, parseCamt054, type CamtProblem } from './camt.ts';

const fixture = (name: string) =>
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', name));
const MAX = 1024 * 1024;

function refusal(content: string | Buffer, max = MAX): CamtProblem | null {
  try {
    parseCamt054(Buffer.isBuffer(content) ? content : Buffer.from(content), max);
    return null;
  } catch (error) {
    if (error instanceof CamtRefused) return error.problem;
    throw error;
  }
}

describe('camt.054 parsing', () => {
  it('reads every booked credit transaction of a version 04 file, skipping debits and pending entries', () => {
    const result = parseCamt054(fixture('camt054-v04.xml'), MAX);
    expect(result.version).toBe('camt.054.001.04');
    expect(result.messageId).toBe('20261120375204000006');
    expect(result.credits).toEqual([
      {
        entryKey: 'tx:ZV20261120/375204/1/1',
        amountMinor: 216150,
        currency: 'CHF',
        bookedOn: '2026-11-20',
        reference: '210000000003139471430009017',
        debtorName: 'Muster AG',
      },
      {
        entryKey: 'tx:ZV20261120/375204/1/2',
        amountMinor: 27225,
        currency: 'CHF',
        bookedOn: '2026-11-20',
        reference: null,
        debtorName: 'Gebr. Müller & Söhne',
      },
    ]);
  });

  it('reads version 08: status and debtor one level deeper, booking time, entry reference with index', () => {
    const result = parseCamt054(fixture('camt054-v08.xml'), MAX);
    expect(result.version).toBe('camt.054.001.08');
    expect(result.credits[0]).toEqual({
      entryKey: 'entry:E2026112100017#0',
      amountMinor: 100000,
      currency: 'EUR',
      bookedOn: '2026-11-21',
      reference: 'RF18539007547034',
      debtorName: 'Beispiel GmbH',
    });
    // An entry without transactions or bank reference is one credit, keyed by its content.
    expect(result.credits[1]).toMatchObject({ amountMinor: 1250, currency: 'CHF', reference: null });
    expect(result.credits[1]!.entryKey).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(parseCamt054(fixture('camt054-v08.xml'), MAX).credits[1]!.entryKey).toBe(
      result.credits[1]!.entryKey,
    );
  });

  it('reads namespace prefixes as Swiss banks sometimes write them', () => {
    const prefixed = fixture('camt054-v04.xml')
      .toString()
      .replace(/<(\/?)([A-Za-z])/g, '<$1c:$2')
      .replace('<c:Document xmlns=', '<c:Document xmlns:c=')
      .replace('<?xml', '<?xml');
    expect(parseCamt054(Buffer.from(prefixed.replace('<c:?xml', '<?xml')), MAX).credits).toHaveLength(2);
  });

  it.each([
    ['1234.50', 'CHF', 123450],
    ['0.05', 'CHF', 5],
    ['1000', 'EUR', 100000],
    ['12.3', 'EUR', 1230],
    ['19.990', 'CHF', 1999],
    ['1500', 'JPY', 1500],
    ['123456789012.34', 'CHF', 12345678901234],
  ])('turns the amount %s %s into %i minor units without floating point', (amount, currency, minor) => {
    expect(amountToMinor(amount, currency)).toBe(minor);
  });

  it.each(['12.345', '-5.00', '1e3', '12,50', '', ' . '])('refuses the amount %j', (amount) => {
    expect(() => amountToMinor(amount, 'CHF')).toThrow(CamtRefused);
  });

  it('refuses what is not a camt.054 file, with the reason', () => {
    expect(refusal('')).toBe('camtEmpty');
    expect(refusal(fixture('camt054-v04.xml'), 100)).toBe('camtTooLarge');
    expect(refusal('%PDF-1.7 not xml')).toBe('camtNotXml');
    expect(refusal(Buffer.from([0xff, 0xfe, 0x00, 0x3c]))).toBe('camtNotXml');
    expect(refusal('<Document><BkToCstmrDbtCdtNtfctn></Document>')).toBe('camtNotXml');
    expect(
      refusal('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><BkToCstmrStmt/></Document>'),
    ).toBe('camtNotCamt054');
    expect(refusal('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.04"/>')).toBe(
      'camtNotCamt054',
    );
    const badAmount = fixture('camt054-v04.xml').toString().replace('2161.50', '2161.505');
    expect(refusal(badAmount)).toBe('camtMalformed');
    const badDay = fixture('camt054-v04.xml')
      .toString()
      .replace('<Dt>2026-11-20</Dt></BookgDt>', '<Dt>2026-13-40</Dt></BookgDt>');
    expect(refusal(badDay)).toBe('camtMalformed');
  });

  it('refuses hostile structure with a reason instead of failing (deep nesting, prototype names)', () => {
    const camt = (inner: string) =>
      `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.04"><BkToCstmrDbtCdtNtfctn>${inner}</BkToCstmrDbtCdtNtfctn></Document>`;
    const nested = (depth: number) => `${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}`;
    expect(refusal(camt(nested(100_000)), 10 * MAX)).toBe('camtStructure');
    expect(refusal(camt(nested(CAMT_MAX_DEPTH)))).toBe('camtStructure');
    for (const name of ['__proto__', 'constructor']) {
      const inHeader = fixture('camt054-v04.xml')
        .toString()
        .replace('<GrpHdr>', `<GrpHdr><${name}><${name}>x</${name}></${name}>`);
      expect(refusal(inHeader), name).toBe('camtStructure');
      expect(refusal(camt(`<${name}/>`)), name).toBe('camtStructure');
    }
    // Such names as attributes or behind a prefix are harmless keys: the file reads as without them.
    const attributes = fixture('camt054-v04.xml')
      .toString()
      .replace('<GrpHdr>', '<GrpHdr __proto__="x" constructor="y"><x:__proto__ xmlns:x="urn:x"/>');
    expect(refusal(attributes)).toBeNull();
    // Real files nest about a dozen levels: they stay readable.
    expect(refusal(camt(nested(CAMT_MAX_DEPTH - 3)))).toBeNull();
    expect(refusal(fixture('camt054-v08.xml'))).toBeNull();
  });

  it('refuses a document type declaration, so no entity is ever expanded', () => {
    const lol = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.04"><BkToCstmrDbtCdtNtfctn><GrpHdr><MsgId>&lol2;</MsgId></GrpHdr></BkToCstmrDbtCdtNtfctn></Document>`;
    expect(refusal(lol)).toBe('camtDoctype');
    const external = fixture('camt054-v04.xml')
      .toString()
      .replace('<Document', '<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<Document');
    expect(refusal(external)).toBe('camtDoctype');
  });
});
