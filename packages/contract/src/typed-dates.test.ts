import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './common.ts';
import { formatShortDay } from './format.ts';
import { formatShortWallTime, parseShortDay, parseShortWallTime } from './typed-dates.ts';

describe('typed dates', () => {
  it('reads back a day typed in figures, as written or without its separators, and only a whole day', () => {
    for (const language of LANGUAGES)
      expect(parseShortDay(formatShortDay('2027-11-01', language))).toBe('2027-11-01');
    expect(parseShortDay('1.11.2027')).toBe('2027-11-01');
    expect(parseShortDay(' 01/11/2027 ')).toBe('2027-11-01');
    expect(parseShortDay('01112027')).toBe('2027-11-01');
    expect(parseShortDay('29.02.2028')).toBe('2028-02-29');
    for (const text of [
      '',
      '01.11.27',
      '0111202',
      '29.02.2027',
      '31.04.2027',
      '00.01.2027',
      '01.13.2027',
      '1.1.0999',
    ])
      expect(parseShortDay(text)).toBeNull();
  });

  it('writes and reads back a wall-clock time in figures', () => {
    expect(formatShortWallTime('2026-12-05T22:00', 'de')).toBe('05.12.2026 22:00');
    expect(formatShortWallTime('2026-12-05T09:30', 'en')).toBe('05/12/2026 09:30');
    expect(parseShortWallTime('05.12.2026 22:00')).toBe('2026-12-05T22:00');
    expect(parseShortWallTime('5.12.2026, 9.30')).toBe('2026-12-05T09:30');
    expect(parseShortWallTime('051220262200')).toBe('2026-12-05T22:00');
    for (const text of ['05.12.2026', '05.12.2026 24:00', '05.12.2026 22:60', '05.12.2026 22', '0512202622'])
      expect(parseShortWallTime(text)).toBeNull();
  });
});
