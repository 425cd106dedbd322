import type { Db } from '../db/client.ts';
import type { IdpSettings } from '../config.ts';

type Policy = IdpSettings['bruteForce'];

/** A counter to check against: its key and the failures before its first lockout. */
export interface GuardKey {
  key: string;
  threshold: number;
}

/** Attempts reserved for one password check; see {@link BruteForceGuard.reserve}. */
export interface Reservation {
  /** Each key with the lockout (seconds) its reservation started, 0 for none. */
  entries: { key: string; wait: number }[];
}

/**
 * Counts failed sign-ins per identity and per client address; locks with a growing wait.
 *
 * An attempt is counted before its password is checked, in one transaction holding the counters' rows, so that
 * parallel attempts can never check more passwords than the limit allows: the attempt that reaches the limit
 * locks at once, and every attempt after it is refused without a check. A correct password then gives its
 * reservation back.
 */
export class BruteForceGuard {
  constructor(
    private readonly db: Db,
    private readonly policy: Policy,
  ) {}

  /**
   * Counts one attempt on every key, or none when any key is locked. Returns the running lockout (seconds) in
   * that case, otherwise the reservation to pass to {@link settle} once the password was checked.
   */
  async reserve(keys: GuardKey[]): Promise<{ lockedFor: number } | { reservation: Reservation }> {
    // Rows are locked in key order, so two attempts over the same keys cannot deadlock.
    const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return this.db.transaction(async (tx) => {
      for (const { key } of sorted) {
        await tx.query(
          `insert into idp_login_failures (key, failures, last_failure_at) values ($1, 0, now())
           on conflict (key) do nothing`,
          [key],
        );
      }
      const { rows } = await tx.query<{
        key: string;
        failures: number;
        decayed: boolean;
        locked_for: number | string;
      }>(
        `select key, failures, last_failure_at < now() - make_interval(secs => $2::float8) as decayed,
                greatest(0, coalesce(ceil(extract(epoch from locked_until - now())), 0)) as locked_for
         from idp_login_failures where key = any($1::text[]) order by key for update`,
        [sorted.map((k) => k.key), this.policy.failureResetSeconds],
      );
      const lockedFor = Math.max(0, ...rows.map((row) => Number(row.locked_for)));
      if (lockedFor > 0) return { lockedFor };

      const entries: Reservation['entries'] = [];
      for (const { key, threshold } of sorted) {
        const row = rows.find((r) => r.key === key);
        const failures = !row || row.decayed ? 1 : row.failures + 1;
        const wait = failures < threshold ? 0 : this.waitAfter(failures, threshold);
        await tx.query(
          `update idp_login_failures set failures = $2, last_failure_at = now(),
             locked_until = case when $3::float8 > 0 then now() + make_interval(secs => $3::float8)
                                 else locked_until end
           where key = $1`,
          [key, failures, wait],
        );
        entries.push({ key, wait });
      }
      return { reservation: { entries } };
    });
  }

  /** The lockout a failed check caused (seconds, 0 for none): the reservation already counted it. */
  failed(reservation: Reservation): number {
    return Math.max(0, ...reservation.entries.map((entry) => entry.wait));
  }

  /**
   * A correct password gives the reservation back: the identity's failures are forgotten, the address's count
   * goes back by one (it keeps earlier failures until they decay), and a lockout this reservation started ends.
   */
  async succeeded(reservation: Reservation, identityKey: string): Promise<void> {
    await this.giveBack(reservation, identityKey);
    await this.reset(identityKey);
  }

  /**
   * A right password that still waits for its second factor: this attempt is given back on every key (a lockout it
   * started ends), but the identity keeps its earlier failures — they are forgotten only once the second factor
   * succeeded, so knowing the password does not reset the count of wrong codes.
   */
  async giveBack(reservation: Reservation, except?: string): Promise<void> {
    for (const { key, wait } of reservation.entries) {
      if (key === except) continue;
      await this.db.query(
        `update idp_login_failures set failures = greatest(0, failures - 1),
           locked_until = case when $2 then null else locked_until end
         where key = $1`,
        [key, wait > 0],
      );
    }
  }

  /** Forgets the failures of one key (a successful sign-in or password reset of the identity). */
  async reset(key: string): Promise<void> {
    await this.db.query('delete from idp_login_failures where key = $1', [key]);
  }

  private waitAfter(failures: number, threshold: number): number {
    return Math.min(
      this.policy.maxWaitSeconds,
      this.policy.waitIncrementSeconds * 2 ** Math.min(20, failures - threshold),
    );
  }

  /**
   * The identity's counter, keyed on the email address as typed (trimmed, any case) rather than on an account,
   * so an address without an account locks exactly like one with.
   */
  identityKey(email: string): string {
    return `identity:${email.trim().toLowerCase()}`;
  }

  addressKey(address: string): string {
    return `address:${address}`;
  }
}
