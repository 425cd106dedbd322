import type { Db } from '../db/client.ts';
import type { IdpSettings } from '../config.ts';

type Policy = IdpSettings['bruteForce'];

/** Counts failed sign-ins per identity and per client address; locks with a growing wait. */
export class BruteForceGuard {
  constructor(
    private readonly db: Db,
    private readonly policy: Policy,
  ) {}

  /** Seconds until the longest running lockout among the keys ends; 0 when none is locked. */
  async lockedFor(keys: string[]): Promise<number> {
    const { rows } = await this.db.query<{ seconds: number | string | null }>(
      `select ceil(extract(epoch from max(locked_until) - now())) as seconds
       from idp_login_failures where key = any($1::text[]) and locked_until > now()`,
      [keys],
    );
    return Math.max(0, Number(rows[0]?.seconds ?? 0));
  }

  /** Records one failure for each key; returns the lockout (seconds) it caused, 0 for none. */
  async recordFailure(keys: { key: string; threshold: number }[]): Promise<number> {
    let longest = 0;
    for (const { key, threshold } of keys) {
      const { rows } = await this.db.query<{ failures: number }>(
        `insert into idp_login_failures (key, failures, last_failure_at) values ($1, 1, now())
         on conflict (key) do update set
           failures = case when idp_login_failures.last_failure_at < now() - make_interval(secs => $2::float8)
                           then 1 else idp_login_failures.failures + 1 end,
           last_failure_at = now()
         returning failures`,
        [key, this.policy.failureResetSeconds],
      );
      const failures = rows[0]?.failures ?? 1;
      if (failures < threshold) continue;
      const wait = Math.min(
        this.policy.maxWaitSeconds,
        this.policy.waitIncrementSeconds * 2 ** Math.min(20, failures - threshold),
      );
      await this.db.query(
        `update idp_login_failures set locked_until = now() + make_interval(secs => $2::float8) where key = $1`,
        [key, wait],
      );
      longest = Math.max(longest, wait);
    }
    return longest;
  }

  /** A successful sign-in forgets the identity's failures (the address keeps its count until it decays). */
  async reset(key: string): Promise<void> {
    await this.db.query('delete from idp_login_failures where key = $1', [key]);
  }

  identityKey(identityId: string): string {
    return `identity:${identityId}`;
  }

  addressKey(address: string): string {
    return `address:${address}`;
  }
}
