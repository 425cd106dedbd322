import crypto from 'node:crypto';
import type {
  CloudAuthBody,
  CloudConnection,
  CloudConnectionStatus,
  CloudOrganization,
  CloudState,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { HttpError } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import type { Secrets } from '../../secrets/secrets.ts';
import { CloudCallError, type CloudClient, type CloudTokens } from './deepcloud.client.ts';
import { iso } from '../../db/iso.ts';

/** A logger of the request or the job: the cloud module never passes it a token. */
export interface CloudLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** An access token expiring within this time is refreshed before it is used. */
export const REFRESH_MARGIN_MS = 60_000;

interface ConnectionRow {
  uuid: string;
  account_uuid: string;
  status: CloudConnectionStatus;
  access_token: string;
  refresh_token: string | null;
  access_expires_at: Date;
  refresh_expires_at: Date | null;
  cloud_subject: string;
  cloud_name: string | null;
  cloud_email: string | null;
  scopes: string;
  connected_by: string | null;
  connected_by_name: string | null;
  connected_at: Date;
  refreshed_at: Date;
}

const SELECT = `select c.*, nullif(coalesce(nullif(u.name, ''), u.email), '') as connected_by_name
  from cloud_connections c left join users u on u.uuid = c.connected_by`;

const notConfigured = () =>
  new HttpError(409, 'CLOUD_NOT_CONFIGURED', 'No cloud is configured on this server');
const notConnected = () => new HttpError(409, 'CLOUD_NOT_CONNECTED', 'The account has no cloud connection');
const needsReconnect = () =>
  new HttpError(
    409,
    'CLOUD_NEEDS_RECONNECT',
    'The cloud refused the connection: an admin must connect again',
  );
const unreachable = () =>
  new HttpError(502, 'CLOUD_UNREACHABLE', 'The cloud cannot be reached right now; try again later');

/** A failed call to the cloud as the API answers it: only a refused code is the caller's problem. */
function answerFor(error: unknown): unknown {
  if (!(error instanceof CloudCallError)) return error;
  if (error.kind === 'refused') {
    return new HttpError(
      422,
      'CLOUD_CODE_REFUSED',
      'The cloud refused the sign-in (the code or the verifier is not valid any more); connect again',
    );
  }
  return unreachable();
}

const purposeOf = (uuid: string) => `cloud_connections:${uuid}`;

function toConnection(row: ConnectionRow): CloudConnection {
  return {
    uuid: row.uuid,
    status: row.status,
    connectedBy: row.connected_by ? { uuid: row.connected_by, name: row.connected_by_name ?? '' } : null,
    connectedAt: iso(row.connected_at),
    cloudUser: { subject: row.cloud_subject, name: row.cloud_name, email: row.cloud_email },
    scopes: row.scopes ? row.scopes.split(' ') : [],
    refreshedAt: iso(row.refreshed_at),
  };
}

/** What the audit log keeps of a connection: who at the cloud, what was granted; never a token. */
const auditView = (row: ConnectionRow) => ({
  uuid: row.uuid,
  status: row.status,
  cloudUser: { subject: row.cloud_subject, name: row.cloud_name, email: row.cloud_email },
  scopes: row.scopes,
});

async function loadRow(q: Queryable, accountUuid: string, lock = false): Promise<ConnectionRow | null> {
  const { rows } = await q.query<ConnectionRow>(
    `${SELECT} where c.account_uuid = $1${lock ? ' for update of c' : ''}`,
    [accountUuid],
  );
  return rows[0] ?? null;
}

export interface CloudServiceDeps {
  db: Db;
  secrets: Secrets;
  notifier: Notifier;
  /** Null when no cloud is configured. */
  client: CloudClient | null;
}

export function createCloudService({ db, secrets, notifier, client }: CloudServiceDeps) {
  /** Refreshes of one connection running in this instance: a second caller waits for the first. */
  const refreshing = new Map<string, Promise<ConnectionRow | null>>();

  const open = (row: ConnectionRow, sealed: string) => secrets.open(sealed, purposeOf(row.uuid));

  /** Revokes tokens at the cloud, best effort: a failure is logged (without the token) and does not stop the caller. */
  async function revokeAll(
    tokens: { access: string; refresh: string | null },
    connection: string,
    log: CloudLog,
  ): Promise<void> {
    if (!client) return;
    const pairs = [
      ['refresh_token', tokens.refresh],
      ['access_token', tokens.access],
    ] as const;
    for (const [hint, token] of pairs) {
      if (!token) continue;
      try {
        await client.revoke(token, hint);
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'unknown error';
        log.warn({ connection, tokenType: hint, reason }, 'cloud token could not be revoked');
      }
    }
  }

  /**
   * Refreshes the connection's tokens. A refresh token the cloud refuses (revoked, expired) marks the connection
   * NEEDS_RECONNECT and answers null; an unreachable cloud throws. When another caller changed the row meanwhile,
   * its result stands and is read again.
   */
  async function refreshRow(row: ConnectionRow, log: CloudLog): Promise<ConnectionRow | null> {
    const running = refreshing.get(row.uuid);
    if (running) return running;
    const work = (async () => {
      if (!client) throw notConfigured();
      if (!row.refresh_token) {
        await markNeedsReconnect(row, log, 'no refresh token');
        return null;
      }
      let tokens: CloudTokens;
      try {
        tokens = await client.refresh(open(row, row.refresh_token));
      } catch (error) {
        if (error instanceof CloudCallError && error.kind === 'refused') {
          await markNeedsReconnect(row, log, error.oauthError ?? 'refused');
          return null;
        }
        throw error;
      }
      const purpose = purposeOf(row.uuid);
      const { rowCount } = await db.query(
        `update cloud_connections set access_token = $3, refresh_token = $4, access_expires_at = $5,
           refresh_expires_at = coalesce($6, refresh_expires_at), scopes = coalesce($7, scopes),
           refreshed_at = now(), updated_at = now()
         where uuid = $1 and refresh_token = $2`,
        [
          row.uuid,
          row.refresh_token,
          secrets.seal(tokens.accessToken, purpose),
          // Without rotation the cloud keeps the refresh token as it was.
          tokens.refreshToken ? secrets.seal(tokens.refreshToken, purpose) : row.refresh_token,
          tokens.accessExpiresAt,
          tokens.refreshExpiresAt,
          tokens.scope,
        ],
      );
      if (!rowCount) log.info({ connection: row.uuid }, 'cloud connection changed while refreshing');
      else log.info({ connection: row.uuid }, 'cloud tokens refreshed');
      const fresh = await loadRow(db, row.account_uuid);
      return fresh?.uuid === row.uuid && fresh.status === 'CONNECTED' ? fresh : null;
    })();
    refreshing.set(row.uuid, work);
    try {
      return await work;
    } finally {
      refreshing.delete(row.uuid);
    }
  }

  /** The connection needs an admin to connect again: marked once, and its admins are told (in-app and by mail). */
  async function markNeedsReconnect(row: ConnectionRow, log: CloudLog, reason: string): Promise<void> {
    await db.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        `update cloud_connections set status = 'NEEDS_RECONNECT', updated_at = now()
         where uuid = $1 and status = 'CONNECTED' and refresh_token is not distinct from $2`,
        [row.uuid, row.refresh_token],
      );
      if (!rowCount) return;
      const { rows } = await tx.query<{ user_uuid: string; account_name: string }>(
        `select m.user_uuid, a.name as account_name from account_members m join accounts a on a.uuid = m.account_uuid
          where m.account_uuid = $1 and m.role in ('OWNER', 'ADMIN') and m.invitation_status = 'ACCEPTED'`,
        [row.account_uuid],
      );
      if (!rows.length) return;
      await notifier.notify(tx, {
        accountUuid: row.account_uuid,
        userUuids: rows.map((admin) => admin.user_uuid),
        type: 'cloud.needs_reconnect',
        params: { accountName: rows[0]!.account_name, connectionUuid: row.uuid },
      });
    });
    log.warn(
      { connection: row.uuid, account: row.account_uuid, reason },
      'cloud connection needs reconnecting',
    );
  }

  /** A usable access token: refreshed first when it expires within the margin; null when it cannot be. */
  async function accessTokenOf(row: ConnectionRow, log: CloudLog, force = false): Promise<string | null> {
    let current: ConnectionRow | null = row;
    if (force || new Date(row.access_expires_at).getTime() - Date.now() < REFRESH_MARGIN_MS) {
      current = await refreshRow(row, log);
    }
    return current ? open(current, current.access_token) : null;
  }

  return {
    async getState(access: AccountAccess): Promise<CloudState> {
      const row = await loadRow(db, access.accountUuid);
      let authorization: CloudState['authorization'] = null;
      if (client) {
        const discovery = await client.discovery().catch((error: unknown) => {
          throw answerFor(error);
        });
        authorization = {
          authorizationEndpoint: discovery.authorization_endpoint,
          clientId: client.config.clientId,
          scope: client.config.scopes,
          redirectUri: client.config.redirectUri,
        };
      }
      return { authorization, connection: row && toConnection(row) };
    },

    /**
     * Exchanges the code and verifier for tokens, learns who signed in at the cloud, and stores the connection in
     * place of an earlier one, whose tokens are revoked then. Nothing is stored when the cloud refuses.
     */
    async connect(
      user: PortalUser,
      access: AccountAccess,
      body: CloudAuthBody,
      log: CloudLog,
    ): Promise<CloudConnection> {
      if (!client) throw notConfigured();
      let tokens: CloudTokens;
      try {
        tokens = await client.exchangeCode(body.code, body.pkceCodeVerifier);
      } catch (error) {
        if (error instanceof CloudCallError) {
          log.warn({ account: access.accountUuid, reason: error.message }, 'cloud code exchange failed');
        }
        throw answerFor(error);
      }
      let identity;
      try {
        identity = await client.identity(tokens);
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'unknown error';
        log.warn({ account: access.accountUuid, reason }, 'cloud sign-in could not be verified');
        await revokeAll({ access: tokens.accessToken, refresh: tokens.refreshToken }, 'new', log);
        throw answerFor(error);
      }
      const uuid = crypto.randomUUID();
      const purpose = purposeOf(uuid);
      const { row, replaced } = await db.transaction(async (tx) => {
        // One connection per account: concurrent connects of one account wait for each other here.
        await tx.query('select uuid from accounts where uuid = $1 for update', [access.accountUuid]);
        const before = await loadRow(tx, access.accountUuid, true);
        if (before) await tx.query('delete from cloud_connections where uuid = $1', [before.uuid]);
        await tx.query(
          `insert into cloud_connections (uuid, account_uuid, access_token, refresh_token, access_expires_at,
             refresh_expires_at, cloud_subject, cloud_name, cloud_email, scopes, connected_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            uuid,
            access.accountUuid,
            secrets.seal(tokens.accessToken, purpose),
            tokens.refreshToken ? secrets.seal(tokens.refreshToken, purpose) : null,
            tokens.accessExpiresAt,
            tokens.refreshExpiresAt,
            identity.subject,
            identity.name,
            identity.email,
            tokens.scope ?? client.config.scopes,
            user.uuid,
          ],
        );
        const after = (await loadRow(tx, access.accountUuid))!;
        await writeAudit(tx, {
          accountUuid: access.accountUuid,
          actor: user,
          action: 'cloud.connected',
          target: `cloud_connection:${uuid}`,
          before: before ? auditView(before) : null,
          after: auditView(after),
        });
        return { row: after, replaced: before };
      });
      if (replaced) {
        await revokeAll(
          {
            access: open(replaced, replaced.access_token),
            refresh: replaced.refresh_token && open(replaced, replaced.refresh_token),
          },
          replaced.uuid,
          log,
        );
      }
      return toConnection(row);
    },

    /** The organisations the connection reaches; `signal` ends the call to the cloud when the caller goes away. */
    async organizations(
      access: AccountAccess,
      log: CloudLog,
      signal: AbortSignal,
    ): Promise<CloudOrganization[]> {
      if (!client) throw notConfigured();
      const row = await loadRow(db, access.accountUuid);
      if (!row) throw notConnected();
      if (row.status === 'NEEDS_RECONNECT') throw needsReconnect();
      try {
        const token = await accessTokenOf(row, log);
        if (!token) throw needsReconnect();
        try {
          return await client.organizations(token, signal);
        } catch (error) {
          // An access token the cloud no longer takes (revoked there early): one refresh, one more try.
          if (!(error instanceof CloudCallError && error.kind === 'unauthorized')) throw error;
          const again = await accessTokenOf(row, log, true);
          if (!again) throw needsReconnect();
          return await client.organizations(again, signal);
        }
      } catch (error) {
        if (error instanceof CloudCallError && error.kind !== 'aborted') {
          log.warn({ account: access.accountUuid, reason: error.message }, 'cloud organisations not read');
        }
        throw answerFor(error);
      }
    },

    /**
     * Revokes the tokens at the cloud (best effort) and deletes the connection. Without a connection there is
     * nothing to do: a repeated disconnect succeeds as well.
     */
    async disconnect(user: PortalUser, access: AccountAccess, log: CloudLog): Promise<void> {
      const row = await loadRow(db, access.accountUuid);
      if (!row) return;
      await revokeAll(
        { access: open(row, row.access_token), refresh: row.refresh_token && open(row, row.refresh_token) },
        row.uuid,
        log,
      );
      await db.transaction(async (tx) => {
        const { rowCount } = await tx.query('delete from cloud_connections where uuid = $1', [row.uuid]);
        if (!rowCount) return;
        await writeAudit(tx, {
          accountUuid: access.accountUuid,
          actor: user,
          action: 'cloud.disconnected',
          target: `cloud_connection:${row.uuid}`,
          before: auditView(row),
          after: null,
        });
      });
    },

    /**
     * The recurring refresh: every connection whose access token expires within `withinMs` gets new tokens, so an
     * idle connection stays alive and a refresh token revoked at the cloud shows as NEEDS_RECONNECT soon.
     */
    async refreshDue(withinMs: number, log: CloudLog): Promise<{ refreshed: number; failed: number }> {
      if (!client) return { refreshed: 0, failed: 0 };
      const { rows } = await db.query<ConnectionRow>(
        `${SELECT} where c.status = 'CONNECTED' and c.access_expires_at < now() + make_interval(secs => $1::float8)
         order by c.access_expires_at limit 100`,
        [withinMs / 1000],
      );
      let refreshed = 0;
      let failed = 0;
      for (const row of rows) {
        try {
          if (await refreshRow(row, log)) refreshed += 1;
        } catch (error) {
          failed += 1;
          const reason = error instanceof Error ? error.message : 'unknown error';
          log.warn(
            { connection: row.uuid, reason },
            'cloud tokens not refreshed; tried again on the next run',
          );
        }
      }
      return { refreshed, failed };
    },

    /**
     * After a change of SECRETS_KEYS: tokens still sealed with an older key are sealed again with the current one,
     * so that the old key can be dropped. A batch per run; the recurring job runs it.
     */
    async resealStale(): Promise<number> {
      const prefix = `enc:v1:${secrets.currentKeyId}:`;
      const { rows } = await db.query<ConnectionRow>(
        `${SELECT} where left(c.access_token, length($1)) <> $1 or left(c.refresh_token, length($1)) <> $1
         limit 100`,
        [prefix],
      );
      let resealed = 0;
      for (const row of rows) {
        const purpose = purposeOf(row.uuid);
        const access = secrets.reseal(row.access_token, purpose) ?? row.access_token;
        const refresh =
          row.refresh_token && (secrets.reseal(row.refresh_token, purpose) ?? row.refresh_token);
        // Only if no refresh changed the row meanwhile (its tokens are then sealed with the current key anyway).
        const { rowCount } = await db.query(
          `update cloud_connections set access_token = $4, refresh_token = $5, updated_at = now()
           where uuid = $1 and access_token = $2 and refresh_token is not distinct from $3`,
          [row.uuid, row.access_token, row.refresh_token, access, refresh],
        );
        resealed += rowCount ?? 0;
      }
      return resealed;
    },
  };
}
