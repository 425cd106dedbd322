-- Portal data: users (provisioned from token claims), accounts, memberships, terms, audit log.

create table users (
  uuid uuid primary key,
  -- The token's `sub`; with the embedded provider it is the identity's id.
  subject text not null unique,
  email text not null,
  name text not null default '',
  user_role text not null default 'STANDARD',
  language text not null default 'de',
  email_verified boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table accounts (
  uuid uuid primary key,
  name text not null,
  country text not null,
  preferred_language text not null default 'de',
  -- Set while deletion is scheduled: the account is gone after this instant.
  available_until timestamptz,
  created_by uuid references users (uuid),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table account_members (
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  user_uuid uuid not null references users (uuid) on delete cascade,
  role text not null,
  invitation_status text not null default 'ACCEPTED',
  invited_by uuid references users (uuid),
  invited_at timestamptz not null default now(),
  accepted_at timestamptz,
  primary key (account_uuid, user_uuid)
);
create index account_members_user_idx on account_members (user_uuid);
-- One owner per account; the server keeps isOwner and the OWNER role consistent.
create unique index account_members_one_owner on account_members (account_uuid) where role = 'OWNER';

create table terms_acceptances (
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  -- 'agb' (terms) or 'privacy' (privacy policy)
  kind text not null,
  version text not null,
  accepted_by uuid not null references users (uuid),
  accepted_at timestamptz not null default now(),
  primary key (account_uuid, kind, version)
);

create table account_migrations (
  uuid uuid primary key,
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  state text not null default 'REQUESTED',
  requested_by uuid not null references users (uuid),
  requested_at timestamptz not null default now()
);

create table audit_log (
  id bigserial primary key,
  -- No foreign key: the history of an account outlives its deletion.
  account_uuid uuid,
  actor_uuid uuid references users (uuid) on delete set null,
  action text not null,
  target text,
  before jsonb,
  after jsonb,
  created_at timestamptz not null default now()
);
create index audit_log_account_idx on audit_log (account_uuid, id desc);

-- Creating POSTs with an Idempotency-Key return the first result on retry.
create table idempotency_keys (
  user_uuid uuid not null references users (uuid) on delete cascade,
  key text not null,
  route text not null,
  -- Hash of the first request; the same key with another body is refused.
  request_hash text not null,
  -- 0 while the first request runs.
  status integer not null,
  body jsonb not null,
  created_at timestamptz not null default now(),
  primary key (user_uuid, key)
);
