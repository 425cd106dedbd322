import type { Db, Queryable } from '../db/client.ts';
import { endIdentitySessions, forgetEndedSessions } from './adapter.ts';

/**
 * A person's sign-in sessions as they see them: the provider's SSO sessions (model 'Session' in idp_payloads) with
 * the details kept next to them (idp_session_details): the browser and address a session was last used from, when
 * it started and when it was last active.
 */

/** The browser and address of the request that used a session. */
export interface SessionActivity {
  userAgent?: string;
  clientAddress?: string;
}

/** Bounded: the header is the client's to choose. */
const USER_AGENT_MAX = 512;

/**
 * Records that the session `sessionUid` was used (it signed a client in, or its tokens were refreshed): one statement,
 * so a refresh costs one write. With `extend`, the same statement keeps the session alive for its idle time, never
 * beyond its maximum from the sign-in (Keycloak's "SSO Session Idle" and "SSO Session Max"). A session that does not
 * exist (or has expired) is left alone.
 */
export async function recordSessionUse(
  db: Queryable,
  sessionUid: string,
  activity: SessionActivity,
  extend?: { idleSeconds: number; maxSeconds: number },
): Promise<void> {
  await db.query(
    `with target as (
       select id, uid, payload->>'accountId' as account_id,
              to_timestamp(coalesce((payload->>'loginTs')::float8, extract(epoch from now()))) as started,
              least(now() + make_interval(secs => $4::float8),
                    to_timestamp(coalesce((payload->>'loginTs')::float8, extract(epoch from now())) + $5::float8))
                as until
       from idp_payloads where model = 'Session' and uid = $1 and expires_at > now()
     ),
     extended as (
       update idp_payloads p
       set expires_at = target.until,
           payload = jsonb_set(p.payload, '{exp}', to_jsonb(floor(extract(epoch from target.until))))
       from target where $6 and p.model = 'Session' and p.id = target.id
     )
     insert into idp_session_details (session_uid, identity_id, user_agent, client_address, started_at)
     select uid, account_id::uuid, $2, $3, started from target where account_id is not null
     on conflict (session_uid) do update set
       identity_id = excluded.identity_id,
       started_at = excluded.started_at,
       last_active_at = now(),
       user_agent = coalesce(excluded.user_agent, idp_session_details.user_agent),
       client_address = coalesce(excluded.client_address, idp_session_details.client_address)`,
    [
      sessionUid,
      activity.userAgent?.slice(0, USER_AGENT_MAX) || null,
      activity.clientAddress || null,
      extend?.idleSeconds ?? 0,
      extend?.maxSeconds ?? 0,
      Boolean(extend),
    ],
  );
}

export interface SessionRow {
  uid: string;
  userAgent: string | null;
  clientAddress: string | null;
  startedAt: Date;
  lastActiveAt: Date;
  /** The clients signed in through the session (client ids). */
  clients: string[];
}

/** At most this many sessions are listed, the most recently active first (the total is told). */
export const SESSIONS_LISTED = 100;

/** The identity's sessions that have not expired, the most recently active first, and how many there are. */
export async function listSessions(
  db: Queryable,
  identityId: string,
): Promise<{ sessions: SessionRow[]; total: number }> {
  const { rows } = await db.query<{
    uid: string;
    user_agent: string | null;
    client_address: string | null;
    started_at: Date;
    last_active_at: Date;
    clients: string[] | null;
    total: number | string;
  }>(
    `select s.uid, d.user_agent, d.client_address,
            coalesce(d.started_at, to_timestamp((s.payload->>'loginTs')::float8)) as started_at,
            coalesce(d.last_active_at, d.started_at, to_timestamp((s.payload->>'loginTs')::float8)) as last_active_at,
            (select array_agg(key order by key) from jsonb_object_keys(coalesce(s.payload->'authorizations', '{}'))
               as key) as clients,
            count(*) over () as total
     from idp_payloads s
     left join idp_session_details d on d.session_uid = s.uid
     where s.model = 'Session' and s.payload->>'accountId' = $1 and s.expires_at > now()
       and s.payload->>'loginTs' is not null
     order by last_active_at desc, s.uid
     limit ${SESSIONS_LISTED}`,
    [identityId],
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    sessions: rows.map((row) => ({
      uid: row.uid,
      userAgent: row.user_agent,
      clientAddress: row.client_address,
      startedAt: row.started_at,
      lastActiveAt: row.last_active_at,
      clients: row.clients ?? [],
    })),
  };
}

/**
 * Ends the identity's session `sessionUid` with the refresh tokens issued in it; false when the identity has no such
 * session (another person's session is never touched).
 */
export async function endOwnSession(db: Db, identityId: string, sessionUid: string): Promise<boolean> {
  const ended = await endIdentitySessions(db, identityId, { only: sessionUid });
  await forgetEndedSessions(db);
  return ended > 0;
}

/** Ends every session of the identity but `keep` (the caller's own); returns how many ended. */
export async function endOtherSessions(
  db: Db,
  identityId: string,
  keep: string | undefined,
): Promise<number> {
  // Without a session of its own (a token from elsewhere) every session is another one; '' names none.
  const ended = await endIdentitySessions(db, identityId, { except: keep ?? '' });
  await forgetEndedSessions(db);
  return ended;
}
