-- Second factors of the embedded identity provider (apps/server/src/idp): an authenticator app (TOTP) with its
-- recovery codes, and passkeys (WebAuthn). A person has a second factor when a confirmed TOTP or a passkey exists.

-- One authenticator app per identity. The secret is sealed (secrets/secrets.ts, purpose 'idp_totp:<identity id>');
-- it counts only once confirmed with a first code. `last_step` is the time step of the last accepted code, so a code
-- cannot be used twice within its window.
create table idp_totp (
  identity_id uuid primary key references idp_identities (id) on delete cascade,
  secret text not null,
  confirmed_at timestamptz,
  last_step bigint,
  created_at timestamptz not null default now()
);

-- Single-use recovery codes, only a hash of each is kept; a new set replaces the old one.
create table idp_recovery_codes (
  id bigserial primary key,
  identity_id uuid not null references idp_identities (id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index idp_recovery_codes_identity_idx on idp_recovery_codes (identity_id);

-- Passkeys (WebAuthn credentials) of an identity, each with the name its owner gave it.
create table idp_passkeys (
  id uuid primary key,
  identity_id uuid not null references idp_identities (id) on delete cascade,
  credential_id text not null unique,
  public_key bytea not null,
  sign_count bigint not null default 0,
  transports text[] not null default '{}',
  device_type text not null default 'singleDevice',
  backed_up boolean not null default false,
  name text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index idp_passkeys_identity_idx on idp_passkeys (identity_id, created_at);
