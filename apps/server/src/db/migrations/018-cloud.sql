-- The account's one connection to the provider's cloud (OAuth 2.0 authorization code with PKCE). The tokens are
-- sealed with the server's secrets key (purpose `cloud_connections:<uuid>`); a new connection replaces the row.
-- The refresh job finds connections whose access token is about to expire through the index on its expiry.
create table cloud_connections (
  uuid uuid primary key,
  account_uuid uuid not null unique references accounts (uuid) on delete cascade,
  status text not null default 'CONNECTED' check (status in ('CONNECTED', 'NEEDS_RECONNECT')),
  access_token text not null,
  refresh_token text,
  access_expires_at timestamptz not null,
  refresh_expires_at timestamptz,
  cloud_subject text not null,
  cloud_name text,
  cloud_email text,
  scopes text not null default '',
  connected_by uuid references users (uuid) on delete set null,
  connected_at timestamptz not null default now(),
  refreshed_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index cloud_connections_refresh_due on cloud_connections (access_expires_at) where status = 'CONNECTED';
