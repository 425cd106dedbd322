import { describe, expect, it } from 'vitest';
import type { Queryable } from './client.ts';
import {
  containsPattern,
  decodeTimeCursor,
  encodeTimeCursor,
  keysetPage,
  listPage,
  pageOf,
  readPage,
  sqlParams,
  wholeList,
} from './paging.ts';

describe('pageOf', () => {
  it('defaults to the first page of the default size', () => {
    expect(pageOf({})).toEqual({ page: 1, pageSize: 25, limit: 25, offset: 0 });
    expect(pageOf({}, 20)).toEqual({ page: 1, pageSize: 20, limit: 20, offset: 0 });
  });

  it('skips the rows of the pages before', () => {
    expect(pageOf({ page: 3, pageSize: 10 })).toEqual({ page: 3, pageSize: 10, limit: 10, offset: 20 });
    expect(pageOf({ page: 2 }, 50)).toMatchObject({ offset: 50, limit: 50 });
  });
});

describe('listPage and wholeList', () => {
  it('answer the contract List shape, a database count as a number', () => {
    expect(listPage(['a'], '41', pageOf({ page: 2, pageSize: 1 }))).toEqual({
      data: ['a'],
      meta: { total: 41, page: 2, pageSize: 1 },
    });
    expect(wholeList(['a', 'b'])).toEqual({ data: ['a', 'b'], meta: { total: 2, page: 1, pageSize: 2 } });
    expect(wholeList([])).toEqual({ data: [], meta: { total: 0, page: 1, pageSize: 0 } });
  });
});

describe('sqlParams', () => {
  it('numbers each value after the initial ones', () => {
    const p = sqlParams('account');
    expect(p.add('OPEN')).toBe('$2');
    expect(p.add(7)).toBe('$3');
    expect(p.values).toEqual(['account', 'OPEN', 7]);
  });

  it('copies keep the values so far and grow apart', () => {
    const p = sqlParams('a');
    const copy = p.copy();
    expect(copy.add('b')).toBe('$2');
    expect(p.values).toEqual(['a']);
  });

  it('takes LIKE characters in a search literally', () => {
    expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
    const p = sqlParams();
    expect(p.contains('x_y')).toBe('$1');
    expect(p.values).toEqual(['%x\\_y%']);
  });
});

describe('readPage', () => {
  it('reads the page with limit and offset as parameters and counts with the filter alone', async () => {
    const calls: { sql: string; params: unknown[] }[] = [];
    const q = {
      query: async (sql: string, params: unknown[] = []) => {
        calls.push({ sql, params });
        return sql.startsWith('select count')
          ? { rows: [{ total: '12' }], rowCount: 1 }
          : { rows: [{ n: 6 }, { n: 7 }], rowCount: 2 };
      },
    } as unknown as Queryable;
    const p = sqlParams('account');
    const where = `a = $1 and s = ${p.add('OPEN')}`;
    const page = await readPage(
      q,
      {
        rows: `select n from t where ${where} order by n`,
        count: `select count(*) as total from t where ${where}`,
      },
      p,
      pageOf({ page: 2, pageSize: 5 }),
      (row: { n: number }) => row.n,
    );
    expect(page).toEqual({ data: [6, 7], meta: { total: 12, page: 2, pageSize: 5 } });
    expect(calls).toEqual([
      {
        sql: `select n from t where ${where} order by n limit $3 offset $4`,
        params: ['account', 'OPEN', 5, 5],
      },
      { sql: `select count(*) as total from t where ${where}`, params: ['account', 'OPEN'] },
    ]);
    expect(p.values).toEqual(['account', 'OPEN']);
  });
});

describe('keyset paging', () => {
  const at = (id: number) => ({ created_at: `2026-01-0${id}T10:00:00.123456Z`, id: String(id) });

  it('cuts one more row than the page into the page and the cursor after its last row', () => {
    const { rows, nextCursor } = keysetPage([at(3), at(2), at(1)], 2);
    expect(rows).toEqual([at(3), at(2)]);
    expect(decodeTimeCursor(nextCursor!, 'this log')).toEqual({ createdAt: at(2).created_at, id: '2' });
    expect(keysetPage([at(3), at(2)], 2).nextCursor).toBeNull();
    expect(keysetPage([], 2)).toEqual({ rows: [], nextCursor: null });
  });

  it('refuses a cursor that is not one as a field error', () => {
    expect(() => decodeTimeCursor('nonsense', 'this history')).toThrow(
      expect.objectContaining({ statusCode: 422, fields: { cursor: 'is not a cursor of this history' } }),
    );
    const cursor = encodeTimeCursor({ createdAt: '2026-01-01T10:00:00.000001Z', id: '1' });
    expect(decodeTimeCursor(cursor, 'x')).toEqual({ createdAt: '2026-01-01T10:00:00.000001Z', id: '1' });
  });
});
