import { describe, expect, it } from 'vitest';
import { initials } from './user-menu.tsx';

describe('initials', () => {
  it('takes the first letter of the first and the last word', () => {
    expect(initials('Anna Maria Muster')).toBe('AM');
    expect(initials('  émile ')).toBe('É');
    expect(initials('')).toBe('?');
  });

  it('keeps whole graphemes: emoji, flags, families and combining accents', () => {
    expect(initials('😀 Muster')).toBe('😀M');
    expect(initials('Anna 🇨🇭')).toBe('A🇨🇭');
    expect(initials('👩‍👩‍👧 Team')).toBe('👩‍👩‍👧T');
    expect(initials('e\u0301lise')).toBe('E\u0301');
  });
});
