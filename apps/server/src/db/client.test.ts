import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, statementName, type Db } from './client.ts';

// Named statements on PGlite (decision 257): the same rows as an ordinary query, parameters serialised by their
// types, and never inside another caller's transaction.
describe('PGlite named statements', () => {
  let db: Db;
  const SELECT = `select id, label, flag, at, amount from prepared_rows where id = $1::uuid and flag = $2::boolean`;

  beforeAll(async () => {
    db = await openDb('memory://');
    await db.exec(`create table prepared_rows (id uuid primary key, label text, flag boolean, at timestamptz,
                                                amount numeric)`);
    await db.query(`insert into prepared_rows values ($1, $2, $3, $4, $5)`, [
      '6f1c2b1e-0001-4000-8000-000000000001',
      'eins',
      true,
      new Date('2026-11-28T10:00:00Z'),
      '12.50',
    ]);
  });
  afterAll(() => db.close());

  it('answers the rows of an ordinary query, parsed alike, again and again', async () => {
    const params = ['6f1c2b1e-0001-4000-8000-000000000001', true];
    const ordinary = await db.query(SELECT, params);
    for (let i = 0; i < 3; i++) {
      const prepared = await db.query(SELECT, params, { prepare: 'test_prepared_rows' });
      expect(prepared).toEqual(ordinary);
    }
    expect(ordinary.rows[0]).toMatchObject({
      label: 'eins',
      flag: true,
      at: new Date('2026-11-28T10:00:00Z'),
    });
    expect((await db.query(SELECT, [params[0], false], { prepare: 'test_prepared_rows' })).rows).toEqual([]);
  });

  it('takes a null parameter and counts the rows a statement changed', async () => {
    const update = `update prepared_rows set label = coalesce($2, label) where id = $1`;
    const changed = await db.query(update, ['6f1c2b1e-0001-4000-8000-000000000001', null], {
      prepare: 'test_prepared_update',
    });
    expect(changed.rowCount).toBe(1);
    expect((await db.query(`select label from prepared_rows`)).rows).toEqual([{ label: 'eins' }]);
  });

  it('waits for another caller’s open transaction instead of running inside it', async () => {
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query(`insert into prepared_rows (id, label, flag) values ($1, 'zwei', true)`, [
        '6f1c2b1e-0001-4000-8000-000000000002',
      ]);
      inserted();
      await held;
      throw new Error('rolled back');
    });
    await insertedYet;
    const read = db.query(SELECT, ['6f1c2b1e-0001-4000-8000-000000000002', true], {
      prepare: 'test_prepared_rows',
    });
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    // Run inside the transaction, the statement would have seen its row.
    expect((await read).rows).toEqual([]);
  });

  it('reports a database error and keeps working', async () => {
    await expect(
      db.query(SELECT, ['not a uuid', true], { prepare: 'test_prepared_rows' }),
    ).rejects.toMatchObject({ code: '22P02' });
    await expect(
      db.query('select nonsense from nowhere', [], { prepare: 'test_prepared_broken' }),
    ).rejects.toThrow(/nowhere/);
    await expect(
      db.query('select nonsense from nowhere', [], { prepare: 'test_prepared_broken' }),
    ).rejects.toThrow(/nowhere/);
    expect(
      (
        await db.query(SELECT, ['6f1c2b1e-0001-4000-8000-000000000001', true], {
          prepare: 'test_prepared_rows',
        })
      ).rows,
    ).toHaveLength(1);
  });

  it('refuses one name for two texts', async () => {
    await expect(db.query(`select 1 as one`, [], { prepare: 'test_prepared_rows' })).rejects.toThrow(
      /another text/,
    );
  });
});

// A statement of a few texts is named by its text (decision 265): one name per text, within PostgreSQL's 63 bytes.
describe('statementName', () => {
  it('names the same text alike and another text otherwise', () => {
    const name = statementName('portal_queue', 'select 1');
    expect(name).toBe(statementName('portal_queue', 'select 1'));
    expect(name).not.toBe(statementName('portal_queue', 'select 2'));
    expect(name).toMatch(/^portal_queue_[0-9a-f]{24}$/);
    expect(statementName('portal_directory_search', 'select 1').length).toBeLessThanOrEqual(63);
  });
});
