// Syncs of an account's shop on the jobs runner: queued by "sync now" and by the scheduler when one is due (one at
// a time per account), then run kind by kind, page by page, each record upserted by its shop id.
import {
  SHOP_RECORD_KINDS,
  SHOP_SYNC_INTERVAL_MINUTES,
  type ShopProblem,
  type ShopRecordKind,
  type ShopState,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/client.ts';
import { conflict } from '../../http/errors.ts';
import type { AccountAccess } from '../../http/types.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { ShopError, type ShopAdapter } from './peppershop-adapter.ts';
import {
  adapterFor,
  openKey,
  readConnection,
  stateOf,
  type Counts,
  type ShopDeps,
} from './peppershop.service.ts';

/** A sync reads at most this many pages per kind, so a shop answering a cursor forever cannot keep it running. */
const MAX_PAGES_PER_KIND = 10_000;

const syncJobKey = (accountUuid: string) => `shop.sync:${accountUuid}`;

const COUNT_FIELD: Record<ShopRecordKind, keyof Counts> = {
  PRODUCTS: 'products',
  ORDERS: 'orders',
  CUSTOMERS: 'customers',
};

/** Marks the connection QUEUED and queues its sync (once: a queued or running sync is not queued again). */
async function queueSync(tx: Queryable, jobs: JobRunner, accountUuid: string): Promise<void> {
  const id = await jobs.enqueue('shop.sync', { accountUuid }, { tx, uniqueKey: syncJobKey(accountUuid) });
  if (id === null) return;
  await tx.query(
    `update shop_connections set last_sync_status = 'QUEUED', last_sync_started_at = now(),
            last_sync_finished_at = null, last_sync_error = null, last_sync_counts = null
      where account_uuid = $1`,
    [accountUuid],
  );
}

export async function syncShopNow(
  deps: ShopDeps,
  jobs: JobRunner,
  access: AccountAccess,
): Promise<ShopState> {
  return deps.db.transaction(async (tx) => {
    if (!(await readConnection(tx, access.accountUuid, true))) {
      throw conflict('No shop is configured for this account');
    }
    await queueSync(tx, jobs, access.accountUuid);
    return stateOf(tx, deps.config, access.accountUuid);
  });
}

/** Queues a sync for every connection whose time has come (the scheduler, once a minute). */
export async function queueDueSyncs(db: Db, jobs: JobRunner): Promise<number> {
  const { rows } = await db.query<{ account_uuid: string }>(
    `select account_uuid from shop_connections where enabled and next_sync_at <= now() order by next_sync_at
      limit 500`,
  );
  for (const { account_uuid } of rows) {
    await db.transaction((tx) => queueSync(tx, jobs, account_uuid));
  }
  return rows.length;
}

/**
 * One sync of an account's shop: every chosen kind, page by page, each record upserted by its shop id (running
 * twice leaves the same records); records the shop no longer lists are removed once their kind was read in
 * full. A shop problem is recorded on the connection (the job itself succeeds: retrying would not help before
 * the next scheduled run); a disconnect meanwhile ends the run without bringing anything back.
 */
export async function runShopSync(deps: ShopDeps, accountUuid: string): Promise<void> {
  const { db } = deps;
  const row = await readConnection(db, accountUuid);
  if (!row) return;
  const { rows: started } = await db.query<{ started_at: Date }>(
    `update shop_connections set last_sync_status = 'RUNNING', last_sync_started_at = now(),
            last_sync_finished_at = null, last_sync_error = null, last_sync_counts = null
      where uuid = $1 returning last_sync_started_at as started_at`,
    [row.uuid],
  );
  if (!started[0]) return;
  const startedAt = started[0].started_at;
  const counts: Counts = { products: 0, orders: 0, customers: 0 };
  const chosen: Record<ShopRecordKind, boolean> = {
    PRODUCTS: row.sync_products,
    ORDERS: row.sync_orders,
    CUSTOMERS: row.sync_customers,
  };
  let problem: ShopProblem | null = null;
  try {
    const apiKey = openKey(deps, row);
    const adapter = adapterFor(deps, row.url, apiKey);
    for (const kind of SHOP_RECORD_KINDS.filter((k) => chosen[k])) {
      counts[COUNT_FIELD[kind]] = await syncKind(db, adapter, row.uuid, accountUuid, kind, startedAt);
    }
  } catch (error) {
    if (!(error instanceof ShopError)) throw error;
    problem = error.problem;
  }
  await db.query(
    `update shop_connections set last_sync_status = $2, last_sync_finished_at = now(), last_sync_error = $3,
            last_sync_counts = $4::jsonb,
            next_sync_at = case when enabled and $5::int is not null
                                then now() + make_interval(mins => $5::int) end
      where uuid = $1`,
    [
      row.uuid,
      problem ? 'FAILED' : 'OK',
      problem,
      JSON.stringify(counts),
      SHOP_SYNC_INTERVAL_MINUTES[row.sync_interval],
    ],
  );
}

/**
 * The sync job: a run that fails for a reason other than the shop (the database) is retried by the runner; after
 * the last attempt the connection says FAILED, so the page does not wait for a sync that will never end.
 */
export async function runShopSyncJob(
  deps: ShopDeps,
  accountUuid: string,
  lastAttempt: boolean,
): Promise<void> {
  try {
    await runShopSync(deps, accountUuid);
  } catch (error) {
    if (lastAttempt) {
      await deps.db.query(
        `update shop_connections set last_sync_status = 'FAILED', last_sync_finished_at = now(), last_sync_error = null
          where account_uuid = $1 and last_sync_status in ('QUEUED', 'RUNNING')`,
        [accountUuid],
      );
    }
    throw error;
  }
}

async function syncKind(
  db: Db,
  adapter: ShopAdapter,
  connectionUuid: string,
  accountUuid: string,
  kind: ShopRecordKind,
  startedAt: Date,
): Promise<number> {
  let cursor: string | null = null;
  let count = 0;
  for (let page = 0; page < MAX_PAGES_PER_KIND; page++) {
    const page_ = await adapter.fetchPage(kind, cursor);
    // One row per shop id, even when a page repeats one.
    const items = [...new Map(page_.items.map((item) => [item.id, item])).values()];
    const { nextCursor } = page_;
    if (items.length) {
      // Only while the connection still exists: a disconnect during the run leaves no records behind.
      await db.query(
        `insert into shop_records (account_uuid, kind, shop_id, data, synced_at)
         select $1::uuid, $2, item.id, item.data, now()
           from jsonb_to_recordset($3::jsonb) as item(id text, data jsonb)
          where exists (select 1 from shop_connections where uuid = $4)
         on conflict (account_uuid, kind, shop_id) do update set data = excluded.data, synced_at = now()`,
        [accountUuid, kind, JSON.stringify(items), connectionUuid],
      );
      count += items.length;
    }
    cursor = nextCursor;
    if (cursor === null) {
      await db.query('delete from shop_records where account_uuid = $1 and kind = $2 and synced_at < $3', [
        accountUuid,
        kind,
        startedAt,
      ]);
      return count;
    }
  }
  throw new ShopError('NOT_A_SHOP');
}
