import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db, Queryable } from '../db/client.ts';

/** Models whose artefacts belong to a grant (revoked together when the grant is). */
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

/**
 * oidc-provider storage adapter over the `idp_payloads` table: one row per artefact. A realm other than the portal's
 * keeps its artefacts under its own model names (`cloud:Session`), so the realms never find each other's.
 */
export class DbAdapter implements Adapter {
  private readonly model: string;

  constructor(
    private readonly db: Db,
    private readonly baseModel: string,
    realm?: string,
  ) {
    this.model = realm ? `${realm}:${baseModel}` : baseModel;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await this.db.query(
      `insert into idp_payloads (model, id, payload, grant_id, uid, user_code, expires_at)
       values ($1, $2, $3::jsonb, $4, $5, $6,
               case when $7::float8 is null then null else now() + make_interval(secs => $7::float8) end)
       on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
         uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
      [
        this.model,
        id,
        JSON.stringify(payload),
        GRANTABLE.has(this.baseModel) ? (payload.grantId ?? null) : null,
        this.baseModel === 'Session' ? (payload.uid ?? null) : null,
        payload.userCode ?? null,
        typeof expiresIn === 'number' ? expiresIn : null,
      ],
    );
  }

  private async findOne(column: 'id' | 'uid' | 'user_code', value: string) {
    const { rows } = await this.db.query<{ payload: AdapterPayload }>(
      `select payload from idp_payloads
       where model = $1 and ${column} = $2 and (expires_at is null or expires_at > now())`,
      [this.model, value],
    );
    return rows[0]?.payload;
  }

  find(id: string) {
    return this.findOne('id', id);
  }

  findByUid(uid: string) {
    return this.findOne('uid', uid);
  }

  findByUserCode(userCode: string) {
    return this.findOne('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.db.query(
      `update idp_payloads set payload = payload || jsonb_build_object('consumed', floor(extract(epoch from now())))
       where model = $1 and id = $2`,
      [this.model, id],
    );
  }

  async destroy(id: string): Promise<void> {
    await this.db.query('delete from idp_payloads where model = $1 and id = $2', [this.model, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.query('delete from idp_payloads where model = $1 and grant_id = $2', [this.model, grantId]);
  }
}

/**
 * Ends sign-in sessions of an identity: its SSO sessions and the grants of every client signed in through them, with
 * everything issued under those grants (refresh tokens, codes), so a browser of an ended session is signed out at its
 * next token refresh. `only` ends that one session (by uid), `except` spares that one (the caller's own); without
 * either, every session and every grant of the identity ends. Returns how many sessions ended.
 */
export async function endIdentitySessions(
  db: Queryable,
  identityId: string,
  options: { only?: string; except?: string } = {},
): Promise<number> {
  const { rows } = await db.query<{ payload: { authorizations?: Record<string, { grantId?: string }> } }>(
    `delete from idp_payloads where model = 'Session' and payload->>'accountId' = $1
       and ($2::text is null or uid = $2) and ($3::text is null or uid <> $3)
     returning payload`,
    [identityId, options.only ?? null, options.except ?? null],
  );
  const grantIds = rows.flatMap(({ payload }) =>
    Object.values(payload.authorizations ?? {}).flatMap((authorization) =>
      authorization.grantId ? [authorization.grantId] : [],
    ),
  );
  if (!options.only && !options.except) {
    // Everywhere: grants outside any session too (their sessions may have expired while the grant lives on).
    await db.query(
      `delete from idp_payloads where grant_id in
         (select id from idp_payloads where model = 'Grant' and payload->>'accountId' = $1)`,
      [identityId],
    );
    await db.query(`delete from idp_payloads where model = 'Grant' and payload->>'accountId' = $1`, [
      identityId,
    ]);
  } else if (grantIds.length) {
    await db.query(
      `delete from idp_payloads where grant_id = any($1::text[]) or (model = 'Grant' and id = any($1::text[]))`,
      [grantIds],
    );
  }
  return rows.length;
}

/** Removes the details kept of sessions that no longer exist (ended, or expired and purged). */
export async function forgetEndedSessions(db: Queryable): Promise<void> {
  await db.query(
    `delete from idp_session_details d
     where not exists (select 1 from idp_payloads p where p.model = 'Session' and p.uid = d.session_uid)`,
  );
}

/** Removes long-expired artefacts, one-time links and stale brute-force counters. */
export async function purgeExpired(db: Db): Promise<void> {
  await db.query(`delete from idp_payloads where expires_at < now() - interval '1 hour'`);
  await forgetEndedSessions(db);
  await db.query(`delete from idp_action_tokens where expires_at < now() - interval '1 day'`);
  await db.query(
    `delete from idp_login_failures where last_failure_at < now() - interval '1 day'
     and (locked_until is null or locked_until < now())`,
  );
}
