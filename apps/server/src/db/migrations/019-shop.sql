-- The shop configuration: one online shop per account, its sealed API key, what to synchronise and how often,
-- the outcome of the last synchronisation, and the records it brought in.

create table shop_connections (
  uuid uuid primary key,
  account_uuid uuid not null unique references accounts (uuid) on delete cascade,
  url text not null,
  -- Sealed with the secrets keyring for 'shop_connections:<uuid>'; never stored in plain text.
  api_key_sealed text not null,
  -- The only part of the key ever shown again.
  api_key_last_four text not null,
  sync_products boolean not null,
  sync_orders boolean not null,
  sync_customers boolean not null,
  sync_interval text not null
    check (sync_interval in ('MINUTES_15', 'HOURS_1', 'HOURS_6', 'HOURS_24', 'MANUAL')),
  enabled boolean not null,
  updated_at timestamptz not null default now(),
  -- When the scheduler queues the next synchronisation; null: never on its own (MANUAL or disabled).
  next_sync_at timestamptz,
  last_sync_status text check (last_sync_status in ('QUEUED', 'RUNNING', 'OK', 'FAILED')),
  last_sync_started_at timestamptz,
  last_sync_finished_at timestamptz,
  last_sync_error text,
  -- Records read per kind in the last run: {"products": n, "orders": n, "customers": n}.
  last_sync_counts jsonb
);
-- The scheduler looks for connections that are due.
create index shop_connections_next_sync_idx on shop_connections (next_sync_at) where next_sync_at is not null;

-- Records synchronised from the shop, one per kind and shop id: a run upserts them, so running twice is harmless.
create table shop_records (
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  kind text not null check (kind in ('PRODUCTS', 'ORDERS', 'CUSTOMERS')),
  shop_id text not null,
  data jsonb not null,
  synced_at timestamptz not null default now(),
  primary key (account_uuid, kind, shop_id)
);
