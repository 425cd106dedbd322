import type { Queryable } from '../db/client.ts';
import { createSecrets, developmentSecretsKey } from '../secrets/secrets.ts';
import { DEMO_ACCOUNTS } from './users.ts';

/**
 * Muster AG's online shop, configured and synchronised yesterday: 128 products, 342 orders, 87 customers. Its
 * address does not exist, so it syncs only when asked (interval MANUAL). The key is sealed with the development
 * key, which a demo start without SECRETS_KEYS uses; elsewhere the page asks for the key again.
 */
export async function seedDemoShop(tx: Queryable) {
  const uuid = '6f1c2b1e-0019-4000-8000-000000000001';
  const { rowCount } = await tx.query(
    `insert into shop_connections (uuid, account_uuid, url, api_key_sealed, api_key_last_four, sync_products,
                                   sync_orders, sync_customers, sync_interval, enabled, updated_at,
                                   last_sync_status, last_sync_started_at, last_sync_finished_at, last_sync_counts)
     values ($1, $2, 'https://shop.muster-ag.example', $3, '7421', true, true, true, 'MANUAL', true,
             now() - interval '12 days', 'OK', now() - interval '1 day 2 minutes', now() - interval '1 day',
             '{"products": 128, "orders": 342, "customers": 87}')
     on conflict (account_uuid) do nothing`,
    [
      uuid,
      DEMO_ACCOUNTS.muster,
      createSecrets([developmentSecretsKey()]).seal('demo-shop-key-7421', `shop_connections:${uuid}`),
    ],
  );
  if (!rowCount) return;
  const synced = "now() - interval '1 day'";
  await tx.query(
    `insert into shop_records (account_uuid, kind, shop_id, data, synced_at)
     select $1::uuid, 'PRODUCTS', 'P-' || n, jsonb_build_object('id', 'P-' || n, 'name', 'Artikel ' || n,
            'price', 490 + n * 125), ${synced} from generate_series(1001, 1128) n
     union all
     select $1::uuid, 'ORDERS', 'O-' || n, jsonb_build_object('id', 'O-' || n, 'total', 2450 + (n * 37) % 9000),
            ${synced} from generate_series(20001, 20342) n
     union all
     select $1::uuid, 'CUSTOMERS', 'C-' || n, jsonb_build_object('id', 'C-' || n), ${synced}
       from generate_series(501, 587) n`,
    [DEMO_ACCOUNTS.muster],
  );
}
