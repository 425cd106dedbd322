import type { LogEntry } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { logsCsv, neutraliseFormula } from './logs.csv.ts';
import { shortBrowser } from './logs.service.ts';

const entry = (n: number): LogEntry => ({
  id: String(n),
  createdAt: '2026-11-22T10:00:00.000000Z',
  action: 'account.update',
  target: `account:${n}`,
  targetUser: null,
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
    // Nobody reads on: the source stops after a few batches instead of running on without end.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const settled = pulled;
    expect(settled).toBeLessThan(5);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pulled).toBe(settled);
    await reader.return?.();
  });

  it('names the browser in short', () => {
    expect(
      shortBrowser('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:133.0) Gecko/20100101 Firefox/133.0'),
    ).toBe('Firefox 133 · macOS');
    expect(shortBrowser(null)).toBeNull();
    expect(shortBrowser('curl/8.5.0')).toBe('curl/8.5.0');
  });
});
