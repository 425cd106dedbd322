-- AbaClik pairing. A device belongs to one person in one account (everyone pairs their own phone); the app calls
-- with a device token of which only the SHA-256 hash is kept. An activation code is kept hashed as well, lives ten
-- minutes and is used once; a person has at most one code at a time (a new one replaces it).
create table abaclik_devices (
  uuid uuid primary key,
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  user_uuid uuid not null references users (uuid) on delete cascade,
  name text not null,
  platform text not null check (platform in ('IOS', 'ANDROID')),
  app_version text not null,
  token_hash text not null unique,
  paired_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now()
);
-- The lists: an account's devices and a person's devices, newest pairing first.
create index abaclik_devices_account_idx on abaclik_devices (account_uuid, paired_at desc, uuid);
create index abaclik_devices_user_idx on abaclik_devices (account_uuid, user_uuid, paired_at desc, uuid);

create table abaclik_codes (
  uuid uuid primary key,
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  user_uuid uuid not null references users (uuid) on delete cascade,
  code_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  -- The device the code paired; the dialog that shows the code waits for it.
  device_uuid uuid references abaclik_devices (uuid) on delete set null
);
create unique index abaclik_codes_one_per_person on abaclik_codes (user_uuid);

-- Exchange attempts per fixed window, shared by every instance: per client address (`address:<ip>`) and the
-- failed ones of all addresses together (`failures`). Old windows are deleted as new ones start.
create table abaclik_exchange_attempts (
  bucket text not null,
  window_start timestamptz not null,
  attempts integer not null,
  primary key (bucket, window_start)
);
create index abaclik_exchange_attempts_window_idx on abaclik_exchange_attempts (window_start);
