import { describe, expect, it } from 'vitest';
import { parseQuery } from './querystring.ts';

describe('parseQuery', () => {
  it('reads repeated keys and bracket keys as the same list', () => {
    expect(parseQuery('a=1&a=2')).toEqual({ a: ['1', '2'] });
    expect(parseQuery('a[]=1&a[]=2')).toEqual({ a: ['1', '2'] });
    expect(parseQuery('a%5B%5D=1')).toEqual({ a: ['1'] });
  });

  it('keeps single values and decodes them', () => {
    expect(parseQuery('uuid=abc&q=M%C3%BCller+AG')).toEqual({ uuid: 'abc', q: 'Müller AG' });
    expect(parseQuery('')).toEqual({});
  });

  it('ignores prototype keys', () => {
    const query = parseQuery('__proto__=x&constructor=y&ok=1');
    expect(query).toEqual({ ok: '1' });
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
  });
});
