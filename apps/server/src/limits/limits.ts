import { ABACLIK_EXCHANGE_WINDOW_SECONDS, INVITATIONS_PER_HOUR } from '@portal/contract';
import type { Db, Queryable } from '../db/client.ts';
import { HttpError } from '../http/errors.ts';

// The limits the portal counts in the database, so that they hold across instances (decision 203): one table of
// limits, one table of hits (`limit_hits`), one way to check. The sign-in lockout (idp/brute-force.ts) is no such
// limit: its waits grow with each failure.

/** A limit: at most `max` hits per key within any `windowSeconds`, refused with `refusal` beyond. */
export interface Limit {
  max: number;
  windowSeconds: number;
  /** What the refused caller is answered (429), with the seconds until a hit leaves the window. */
  refusal: (retryAfter: number) => LimitReached;
}

/** 429: a limit is reached. `retryAfter` is set when the answer tells it (a Retry-After header), else undefined. */
export class LimitReached extends HttpError {
  constructor(
    code: string,
    message: string,
    readonly retryAfter?: number,
    fields?: Record<string, string>,
  ) {
    super(429, code, message, fields);
  }
}

const pairingRefused = (retryAfter: number) =>
  new LimitReached('TOO_MANY_REQUESTS', 'Too many pairing attempts; try again later', retryAfter);

/** The limits, by name; the key says whose hits count (an account, an identity, a client address). */
export const LIMITS = {
  /** Invitation mails an account sends (every mail, a resent one too); key: the account. */
  invitations: {
    max: INVITATIONS_PER_HOUR,
    windowSeconds: 60 * 60,
    refusal: () =>
      new LimitReached(
        'TOO_MANY_REQUESTS',
        `An account may send at most ${INVITATIONS_PER_HOUR} invitations per hour; try again later`,
      ),
  },
  /**
   * Email change requests of an identity, a link to the new address or a notice to its holder; key: the identity.
   * One a minute, as the sign-in pages send their links (MAIL_INTERVAL_SECONDS in idp/mails.ts).
   */
  'email-change': {
    max: 1,
    windowSeconds: 60,
    refusal: () =>
      new LimitReached('TOO_MANY_MAILS', 'Wait a minute before asking for another link', undefined, {
        newEmail: 'tooManyMails',
      }),
  },
  /** AbaClik code exchanges of one client address (ABACLIK_ATTEMPTS_PER_ADDRESS overrides max); key: the address. */
  'abaclik-pairing': { max: 10, windowSeconds: ABACLIK_EXCHANGE_WINDOW_SECONDS, refusal: pairingRefused },
  /**
   * Failed AbaClik code exchanges of all addresses together, against guessing from many addresses
   * (ABACLIK_FAILURES_GLOBAL overrides max); key: 'all'.
   */
  'abaclik-failures': { max: 200, windowSeconds: ABACLIK_EXCHANGE_WINDOW_SECONDS, refusal: pairingRefused },
} satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/** Hits older than the longest window count for nothing and are deleted as new ones come. */
const LONGEST_WINDOW = Math.max(...Object.values(LIMITS).map((limit) => limit.windowSeconds));

export interface LimitOptions {
  /** Hits this use takes (an invitation of 20 addresses takes 20); 1 unless said. */
  hits?: number;
  /** The configured maximum, where the configuration may change the table's. */
  max?: number;
  /** false: only check (a failure is counted later with {@link countHit}); true unless said. */
  take?: boolean;
}

/** Runs `fn` in `q`'s transaction, or in one of its own when `q` is the database itself. */
const inTransaction = <T>(q: Queryable | Db, fn: (tx: Queryable) => Promise<T>): Promise<T> =>
  'transaction' in q ? q.transaction(fn) : fn(q);

/**
 * Refuses (429, the limit's answer) when `hits` more would pass the limit for `key` within its window, and takes
 * them otherwise. The check and the take hold a transaction lock on (name, key), so two instances never both take
 * the last one; inside a caller's transaction the hits count only if it commits.
 */
export async function checkLimit(
  q: Queryable | Db,
  name: LimitName,
  key: string,
  { hits = 1, max = LIMITS[name].max, take = true }: LimitOptions = {},
): Promise<void> {
  const limit: Limit = LIMITS[name];
  await inTransaction(q, async (tx) => {
    await tx.query('select pg_advisory_xact_lock(hashtext($1), hashtext($2))', [name, key]);
    await tx.query('delete from limit_hits where at < now() - make_interval(secs => $1)', [LONGEST_WINDOW]);
    const { rows } = await tx.query<{ used: string | number; retry_after: number | null }>(
      `select count(*) as used,
              greatest(1, ceil(extract(epoch from min(at)) + $3 - extract(epoch from now())))::int as retry_after
         from limit_hits where name = $1 and key = $2 and at > now() - make_interval(secs => $3)`,
      [name, key, limit.windowSeconds],
    );
    const used = Number(rows[0]?.used ?? 0);
    if (used + hits > max) throw limit.refusal(rows[0]?.retry_after ?? 1);
    if (take && hits > 0) await countHit(tx, name, key, hits);
  });
}

/** Counts `hits` for `key` under the limit without checking it (a failure, after the attempt was allowed). */
export async function countHit(q: Queryable, name: LimitName, key: string, hits = 1): Promise<void> {
  await q.query('insert into limit_hits (name, key, at) select $1, $2, now() from generate_series(1, $3)', [
    name,
    key,
    hits,
  ]);
}
