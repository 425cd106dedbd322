// The account's online shop: its connection (address, sealed key, sync options), a test of address and key, and
// disconnecting; the key is sealed again after a key change. The syncs themselves are in shop-sync.ts.
import crypto from 'node:crypto';
import {
  SHOP_KEY_PROBLEMS,
  SHOP_KEY_SHOWN,
  SHOP_SYNC_INTERVAL_MINUTES,
  SHOP_URL_PROBLEMS,
  isOtherShopHost,
  shopKeyProblem,
  shopUrlProblem,
  type SaveShopBody,
  type ShopConnection,
  type ShopProblem,
  type ShopState,
  type ShopSyncInterval,
  type ShopSyncStatus,
  type ShopTestResult,
  type TestShopBody,
} from '@portal/contract';
import { writeAudit } from '../../audit/audit.ts';
import type { ShopConfig } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { HttpError, conflict } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { SecretsError, type Secrets } from '../../secrets/secrets.ts';
import { ShopError, type HttpShopOptions, type ShopAdapter } from './peppershop-adapter.ts';
import { ipLiteralOf, isReachableAddress } from './peppershop-address.ts';
import { iso } from '../../db/iso.ts';

/** Builds the adapter for a shop (tests may put another in place). */
export type ShopAdapterFactory = (options: HttpShopOptions) => ShopAdapter;

/** What the shop area needs besides the database. */
export interface ShopDeps {
  db: Db;
  secrets: Secrets;
  config: ShopConfig;
  adapter: ShopAdapterFactory;
}

const keyPurpose = (uuid: string) => `shop_connections:${uuid}`;

interface ConnectionRow {
  uuid: string;
  url: string;
  api_key_sealed: string;
  api_key_last_four: string;
  sync_products: boolean;
  sync_orders: boolean;
  sync_customers: boolean;
  sync_interval: ShopSyncInterval;
  enabled: boolean;
  updated_at: Date;
  next_sync_at: Date | null;
  last_sync_status: ShopSyncStatus | null;
  last_sync_started_at: Date | null;
  last_sync_finished_at: Date | null;
  last_sync_error: ShopProblem | null;
  last_sync_counts: Counts | null;
  records_products: number;
  records_orders: number;
  records_customers: number;
}

type SettingsRow = Pick<
  ConnectionRow,
  | 'url'
  | 'api_key_last_four'
  | 'sync_products'
  | 'sync_orders'
  | 'sync_customers'
  | 'sync_interval'
  | 'enabled'
>;

/** Records of each kind a sync brought in. */
export interface Counts {
  products: number;
  orders: number;
  customers: number;
}

export async function readConnection(
  q: Queryable,
  accountUuid: string,
  lock = false,
): Promise<ConnectionRow | null> {
  const { rows } = await q.query<ConnectionRow>(
    `select c.*,
            (select count(*)::int from shop_records r where r.account_uuid = c.account_uuid and r.kind = 'PRODUCTS')
              as records_products,
            (select count(*)::int from shop_records r where r.account_uuid = c.account_uuid and r.kind = 'ORDERS')
              as records_orders,
            (select count(*)::int from shop_records r where r.account_uuid = c.account_uuid and r.kind = 'CUSTOMERS')
              as records_customers
       from shop_connections c where c.account_uuid = $1${lock ? ' for update' : ''}`,
    [accountUuid],
  );
  return rows[0] ?? null;
}

/** The settings of a connection as the API answers them; the audit log keeps them too (the key only as its end). */
function settingsOf(row: SettingsRow) {
  return {
    url: row.url,
    apiKeyLastFour: row.api_key_last_four,
    syncProducts: row.sync_products,
    syncOrders: row.sync_orders,
    syncCustomers: row.sync_customers,
    interval: row.sync_interval,
    enabled: row.enabled,
  };
}

function toConnection(row: ConnectionRow): ShopConnection {
  return {
    ...settingsOf(row),
    updatedAt: iso(row.updated_at),
    nextSyncAt: row.next_sync_at ? iso(row.next_sync_at) : null,
    lastSync:
      row.last_sync_status && row.last_sync_started_at
        ? {
            status: row.last_sync_status,
            startedAt: iso(row.last_sync_started_at),
            finishedAt: row.last_sync_finished_at ? iso(row.last_sync_finished_at) : null,
            error: row.last_sync_status === 'FAILED' ? row.last_sync_error : null,
            counts: row.last_sync_counts ?? { products: 0, orders: 0, customers: 0 },
          }
        : null,
    records: {
      products: row.records_products,
      orders: row.records_orders,
      customers: row.records_customers,
    },
  };
}

export async function stateOf(q: Queryable, config: ShopConfig, accountUuid: string): Promise<ShopState> {
  const row = await readConnection(q, accountUuid);
  return { allowsLocalShops: config.allowLocalShops, connection: row ? toConnection(row) : null };
}

export function getShopState(db: Db, config: ShopConfig, access: AccountAccess): Promise<ShopState> {
  return stateOf(db, config, access.accountUuid);
}

/**
 * The server's rule for a shop address: the form's rule, and no IP literal the server may not reach (a name is
 * checked where it is resolved, on every connection). Answers the normalised URL or throws the 422 field error.
 */
function checkUrl(value: string, config: ShopConfig): string {
  const problem = shopUrlProblem(value, config.allowLocalShops);
  if (problem) throw fieldError('url', problem);
  const url = new URL(value.trim());
  const literal = ipLiteralOf(url);
  if (literal !== null && !isReachableAddress(literal, config.allowLocalShops)) {
    throw fieldError('url', SHOP_URL_PROBLEMS.address);
  }
  return url.toString().replace(/\/+$/, '');
}

function fieldError(field: string, messageKey: string) {
  return new HttpError(422, 'VALIDATION_FAILED', `${field} is not valid`, { [field]: messageKey });
}

/** When the scheduler should queue the next sync after `from`; null when it never does. */
function nextSyncAfter(interval: ShopSyncInterval, enabled: boolean, from = new Date()): Date | null {
  const minutes = SHOP_SYNC_INTERVAL_MINUTES[interval];
  return enabled && minutes !== null ? new Date(from.getTime() + minutes * 60_000) : null;
}

/**
 * Saves the connection: address, sync options and, when one is entered, a new key (sealed; an empty key keeps
 * the stored one, and is required when none is stored). All field problems are answered at once.
 */
export async function saveShopConnection(
  deps: ShopDeps,
  user: PortalUser,
  access: AccountAccess,
  body: SaveShopBody,
): Promise<ShopState> {
  const { db, secrets, config } = deps;
  const problems: Record<string, string> = {};
  let url = '';
  try {
    url = checkUrl(body.url, config);
  } catch (error) {
    if (!(error instanceof HttpError) || !error.fields) throw error;
    Object.assign(problems, error.fields);
  }
  const apiKey = body.apiKey.trim();
  const keyProblem = shopKeyProblem(apiKey);
  if (keyProblem) problems.apiKey = keyProblem;

  return db.transaction(async (tx) => {
    const before = await readConnection(tx, access.accountUuid, true);
    if (apiKey === '' && !problems.apiKey) {
      if (!before) problems.apiKey = SHOP_KEY_PROBLEMS.required;
      else if (url && isOtherShopHost(url, before.url)) problems.apiKey = SHOP_KEY_PROBLEMS.newAddress;
    }
    if (Object.keys(problems).length) {
      throw new HttpError(422, 'VALIDATION_FAILED', 'The shop configuration is not valid', problems);
    }
    const uuid = before?.uuid ?? crypto.randomUUID();
    const sealed = apiKey ? secrets.seal(apiKey, keyPurpose(uuid)) : before!.api_key_sealed;
    const lastFour = apiKey ? apiKey.slice(-SHOP_KEY_SHOWN) : before!.api_key_last_four;
    const next = nextSyncAfter(body.interval, body.enabled);
    await tx.query(
      `insert into shop_connections (uuid, account_uuid, url, api_key_sealed, api_key_last_four, sync_products,
                                     sync_orders, sync_customers, sync_interval, enabled, next_sync_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       on conflict (account_uuid) do update set
         url = excluded.url, api_key_sealed = excluded.api_key_sealed,
         api_key_last_four = excluded.api_key_last_four, sync_products = excluded.sync_products,
         sync_orders = excluded.sync_orders, sync_customers = excluded.sync_customers,
         sync_interval = excluded.sync_interval, enabled = excluded.enabled,
         next_sync_at = excluded.next_sync_at, updated_at = now()`,
      [
        uuid,
        access.accountUuid,
        url,
        sealed,
        lastFour,
        body.syncProducts,
        body.syncOrders,
        body.syncCustomers,
        body.interval,
        body.enabled,
        next,
      ],
    );
    // Another address is another shop: what was brought in from the old one, and its last sync, are dropped.
    if (before && before.url !== url) {
      await tx.query('delete from shop_records where account_uuid = $1', [access.accountUuid]);
      await tx.query(
        `update shop_connections set last_sync_status = null, last_sync_started_at = null,
                last_sync_finished_at = null, last_sync_error = null, last_sync_counts = null
          where account_uuid = $1`,
        [access.accountUuid],
      );
    }
    const after = {
      url,
      api_key_last_four: lastFour,
      sync_products: body.syncProducts,
      sync_orders: body.syncOrders,
      sync_customers: body.syncCustomers,
      sync_interval: body.interval,
      enabled: body.enabled,
    };
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'shop.save',
      target: 'shop',
      before: before ? settingsOf(before) : null,
      after: { ...settingsOf(after), keyChanged: apiKey !== '' },
    });
    return stateOf(tx, config, access.accountUuid);
  });
}

/**
 * Tries address and key against the shop: the entered ones, or the stored ones where a field is left empty. A
 * result, not an error: the page shows it beside the form. An address the form's rule refuses is a 422.
 */
export async function testShopConnection(
  deps: ShopDeps,
  access: AccountAccess,
  body: TestShopBody,
): Promise<ShopTestResult> {
  const stored = await readConnection(deps.db, access.accountUuid);
  const url = body.url.trim() === '' ? stored?.url : checkUrl(body.url, deps.config);
  const enteredKey = body.apiKey.trim();
  if (!url || (enteredKey === '' && !stored)) {
    throw conflict('Enter the shop address and API key to test, or save a configuration first');
  }
  if (enteredKey === '' && isOtherShopHost(url, stored!.url)) {
    throw fieldError('apiKey', SHOP_KEY_PROBLEMS.newAddress);
  }
  try {
    const apiKey = enteredKey || openKey(deps, stored!);
    const { name } = await adapterFor(deps, url, apiKey).test();
    return { result: 'OK', shopName: name };
  } catch (error) {
    if (error instanceof ShopError) return { result: error.problem, shopName: null };
    throw error;
  }
}

/** The stored key in plain text, for the request to the shop only. */
export function openKey(deps: ShopDeps, row: ConnectionRow): string {
  try {
    return deps.secrets.open(row.api_key_sealed, keyPurpose(row.uuid));
  } catch (error) {
    if (error instanceof SecretsError) throw new ShopError('KEY_UNREADABLE');
    throw error;
  }
}

export function adapterFor(deps: ShopDeps, url: string, apiKey: string): ShopAdapter {
  return deps.adapter({
    url,
    apiKey,
    timeoutMs: deps.config.timeoutMs,
    allowLocal: deps.config.allowLocalShops,
  });
}

/** Deletes the connection, its sealed key and every synchronised record. */
export async function disconnectShop(db: Db, user: PortalUser, access: AccountAccess): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await readConnection(tx, access.accountUuid, true);
    if (!before) return;
    await tx.query('delete from shop_records where account_uuid = $1', [access.accountUuid]);
    await tx.query('delete from shop_connections where account_uuid = $1', [access.accountUuid]);
    await writeAudit(tx, {
      accountUuid: access.accountUuid,
      actor: user,
      action: 'shop.disconnect',
      target: 'shop',
      before: settingsOf(before),
      after: null,
    });
  });
}

/**
 * Seals stored shop keys again with the current key after a change of SECRETS_KEYS (a batch per run of the
 * scheduler), so the old key can be removed without asking admins for their keys again.
 */
export async function resealStaleKeys(db: Db, secrets: Secrets): Promise<number> {
  const prefix = `enc:v1:${secrets.currentKeyId}:`;
  const { rows } = await db.query<{ uuid: string; api_key_sealed: string }>(
    `select uuid, api_key_sealed from shop_connections where left(api_key_sealed, length($1)) <> $1 limit 100`,
    [prefix],
  );
  let resealed = 0;
  for (const row of rows) {
    let sealed: string | null;
    try {
      sealed = secrets.reseal(row.api_key_sealed, keyPurpose(row.uuid));
    } catch (error) {
      if (error instanceof SecretsError) continue; // a key nobody holds any more: the page asks for it again
      throw error;
    }
    if (!sealed) continue;
    // Only if no save replaced the key meanwhile (that one is sealed with the current key anyway).
    const { rowCount } = await db.query(
      'update shop_connections set api_key_sealed = $3 where uuid = $1 and api_key_sealed = $2',
      [row.uuid, row.api_key_sealed, sealed],
    );
    resealed += rowCount ?? 0;
  }
  return resealed;
}
