import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/client.ts';
import { checkLimit, countHit, LIMITS, LimitReached } from './limits.ts';

/** The table as migration 029 creates it (without its drop of the table it replaces). */
const TABLE = fs
  .readFileSync(new URL('../db/migrations/029-limits.sql', import.meta.url), 'utf8')
  .split('drop table')[0]!;

describe('limits counted in the database', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb('memory://');
    await db.exec(TABLE);
  });
  afterAll(() => db.close());
  beforeEach(() => db.query('delete from limit_hits'));

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );

  it('takes hits up to the maximum per key and refuses beyond it with the limit’s answer', async () => {
    expect(LIMITS.invitations.max).toBe(50);
    await checkLimit(db, 'invitations', 'a', { hits: 20 });
    await checkLimit(db, 'invitations', 'a', { hits: 30 });
    const refused = await refusal(checkLimit(db, 'invitations', 'a'));
    expect(refused).toBeInstanceOf(LimitReached);
    expect(refused).toMatchObject({ statusCode: 429, code: 'TOO_MANY_REQUESTS', retryAfter: undefined });
    // Another key counts on its own; a refused use took nothing.
    await checkLimit(db, 'invitations', 'b', { hits: 50 });
    const { rows } = await db.query<{ n: string }>(`select count(*) as n from limit_hits where key = 'a'`);
    expect(Number(rows[0]!.n)).toBe(50);
  });

  it('lets hits leave the window, which slides', async () => {
    await checkLimit(db, 'email-change', 'identity');
    expect(await refusal(checkLimit(db, 'email-change', 'identity'))).toMatchObject({
      code: 'TOO_MANY_MAILS',
      fields: { newEmail: 'tooManyMails' },
    });
    await db.query(`update limit_hits set at = at - interval '59 seconds'`);
    expect(await refusal(checkLimit(db, 'email-change', 'identity'))).not.toBeNull();
    await db.query(`update limit_hits set at = at - interval '2 seconds'`);
    await checkLimit(db, 'email-change', 'identity');
  });

  it('tells the seconds until the oldest hit leaves the window where the answer says so', async () => {
    await checkLimit(db, 'abaclik-pairing', '192.0.2.1', { max: 2 });
    await db.query(`update limit_hits set at = at - interval '100 seconds'`);
    await checkLimit(db, 'abaclik-pairing', '192.0.2.1', { max: 2 });
    const refused = await refusal(checkLimit(db, 'abaclik-pairing', '192.0.2.1', { max: 2 }));
    expect(refused).toMatchObject({ statusCode: 429, code: 'TOO_MANY_REQUESTS' });
    const retryAfter = (refused as LimitReached).retryAfter!;
    expect(retryAfter).toBeGreaterThanOrEqual(LIMITS['abaclik-pairing'].windowSeconds - 101);
    expect(retryAfter).toBeLessThanOrEqual(LIMITS['abaclik-pairing'].windowSeconds - 99);
  });

  it('checks without taking, and counts a hit later', async () => {
    await checkLimit(db, 'abaclik-failures', 'all', { max: 2, take: false });
    await countHit(db, 'abaclik-failures', 'all');
    await checkLimit(db, 'abaclik-failures', 'all', { max: 2, take: false });
    await countHit(db, 'abaclik-failures', 'all');
    expect(await refusal(checkLimit(db, 'abaclik-failures', 'all', { max: 2, take: false }))).toBeInstanceOf(
      LimitReached,
    );
  });

  it('counts hits taken in a transaction only if it commits', async () => {
    await refusal(
      db.transaction(async (tx) => {
        await checkLimit(tx, 'email-change', 'identity');
        throw new Error('the change failed');
      }),
    );
    await checkLimit(db, 'email-change', 'identity');
  });
});
