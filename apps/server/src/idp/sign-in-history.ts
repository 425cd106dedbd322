import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/client.ts';
import { browserKey, shortBrowser } from '../http/user-agent.ts';
import type { Mailer } from '../mail/mailer.ts';
import { findIdentityById } from './identities.ts';
import { securityMail } from './security-mails.ts';

/**
 * The sign-in history of the embedded sign-in service: every attempt for a known identity, shown for
 * {@link SIGN_IN_HISTORY_DAYS} days and kept as long as the retention says (RETENTION_SIGN_INS_DAYS, default 90; the
 * retention job removes older ones), and the browsers each identity signed in with, so that a sign-in from a new
 * one is told by mail.
 */

export const SIGN_IN_HISTORY_DAYS = 90;

/** How an attempt ended. */
export type SignInOutcome = 'success' | 'wrong-password' | 'locked' | 'second-factor-failed';

/** What was checked: the password, an authenticator-app code, a recovery code or a passkey. */
export type SignInMethod = 'password' | 'totp' | 'recovery-code' | 'passkey';

export interface SignInAttempt {
  identityId: string;
  outcome: SignInOutcome;
  method: SignInMethod;
  userAgent?: string | null;
  ip?: string | null;
}

/** With these, a successful sign-in from a browser the identity has not used before is told by mail. */
export interface NewBrowserMail {
  mailer: Mailer;
  config: Pick<Config, 'productName'>;
}

/**
 * Records one sign-in attempt of a known identity. On success it remembers the browser; when `mail` is given and the
 * identity had signed in before but never with this browser, the identity gets the new-browser mail (the first
 * sign-in ever does not mail). Whether the browser was new.
 */
export async function recordSignIn(
  db: Db,
  attempt: SignInAttempt,
  mail?: NewBrowserMail,
): Promise<{ newBrowser: boolean }> {
  const userAgent = attempt.userAgent ? attempt.userAgent.slice(0, 512) : null;
  await db.query(
    `insert into idp_sign_ins (identity_id, outcome, method, user_agent, client_address) values ($1, $2, $3, $4, $5)`,
    [attempt.identityId, attempt.outcome, attempt.method, userAgent, attempt.ip ?? null],
  );
  if (attempt.outcome !== 'success') return { newBrowser: false };
  const newBrowser = await rememberBrowser(db, attempt.identityId, browserKey(userAgent));
  if (newBrowser && mail) {
    const identity = await findIdentityById(db, attempt.identityId);
    if (identity) {
      const origin = { at: new Date(), browser: shortBrowser(userAgent), address: attempt.ip ?? null };
      await mail.mailer.send(securityMail('newBrowser', identity, origin, mail.config.productName));
    }
  }
  return { newBrowser };
}

/**
 * Remembers `browser` for the identity. New means: not seen before while another browser was — so the very first
 * browser of an identity is not "new".
 */
async function rememberBrowser(db: Db, identityId: string, browser: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ known: boolean; others: boolean }>(
      `select exists (select 1 from idp_known_browsers where identity_id = $1 and browser = $2) as known,
              exists (select 1 from idp_known_browsers where identity_id = $1 and browser <> $2) as others`,
      [identityId, browser],
    );
    await tx.query(
      `insert into idp_known_browsers (identity_id, browser) values ($1, $2)
       on conflict (identity_id, browser) do update set last_seen_at = now()`,
      [identityId, browser],
    );
    return !rows[0]?.known && Boolean(rows[0]?.others);
  });
}

export interface SignInRow {
  id: string;
  outcome: SignInOutcome;
  method: SignInMethod;
  user_agent: string | null;
  client_address: string | null;
  created_at: string;
}

/**
 * A page of the identity's attempts of the last {@link SIGN_IN_HISTORY_DAYS} days, newest first, after the keyset
 * position `after` (the created_at and id of the previous page's last row); one row more than `limit` tells that
 * another page exists.
 */
export async function readSignIns(
  db: Queryable,
  identityId: string,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<SignInRow[]> {
  const { rows } = await db.query<SignInRow>(
    `select id::text as id, outcome, method, user_agent, client_address,
            to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at
     from idp_sign_ins
     where identity_id = $1 and created_at > now() - make_interval(days => $2)
       and ($3::timestamptz is null or (created_at, id) < ($3::timestamptz, $4::bigint))
     order by created_at desc, id desc limit $5`,
    [identityId, SIGN_IN_HISTORY_DAYS, after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
  return rows;
}
