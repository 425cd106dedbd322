-- Embedded identity provider (apps/server/src/idp) and mail outbox (apps/server/src/mail).

-- People who can sign in. `id` is the token `sub` (= users.subject).
create table idp_identities (
  id uuid primary key,
  email text not null,
  name text not null default '',
  password_hash text not null,
  email_verified boolean not null default false,
  locale text not null default 'de',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index idp_identities_email_idx on idp_identities (lower(email));

-- Every oidc-provider artefact (Session, Interaction, Grant, AuthorizationCode, RefreshToken, …), one row each,
-- so that a restart or a second instance loses nothing.
create table idp_payloads (
  model text not null,
  id text not null,
  payload jsonb not null,
  grant_id text,
  uid text,
  user_code text,
  expires_at timestamptz,
  primary key (model, id)
);
create index idp_payloads_grant_idx on idp_payloads (model, grant_id) where grant_id is not null;
create index idp_payloads_uid_idx on idp_payloads (model, uid) where uid is not null;
create index idp_payloads_user_code_idx on idp_payloads (model, user_code) where user_code is not null;
create index idp_payloads_expires_idx on idp_payloads (expires_at);

-- Signing keys (private JWKs) and cookie keys, created once so that every instance agrees.
create table idp_secrets (
  name text primary key,
  value jsonb not null,
  created_at timestamptz not null default now()
);

-- Brute-force protection: failed sign-ins per identity ('identity:<id>') and per client address ('address:<ip>').
create table idp_login_failures (
  key text primary key,
  failures integer not null,
  last_failure_at timestamptz not null,
  locked_until timestamptz
);

-- One-time links sent by mail (email verification, password reset); only a hash of the token is kept.
create table idp_action_tokens (
  token_hash text primary key,
  kind text not null,
  identity_id uuid not null references idp_identities (id) on delete cascade,
  -- The address the link was sent to: verifying it is void once the identity's email changed.
  email text not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index idp_action_tokens_identity_idx on idp_action_tokens (identity_id, kind, created_at desc);

-- Mails kept in the database when no SMTP server is configured (demo mode lists them at /dev/mail).
create table mail_outbox (
  id bigserial primary key,
  recipient text not null,
  subject text not null,
  text_body text not null,
  html_body text,
  created_at timestamptz not null default now()
);
