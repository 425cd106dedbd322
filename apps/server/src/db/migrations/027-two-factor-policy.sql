-- An account's rule that its members must use a second factor. One row per account once its owner switched the
-- rule on; switching it off keeps the row (enabled false) so the log of who did what stays in the audit log only.
-- `grace_until`: members without a second factor are reminded until then and refused the account's areas after it.
create table account_two_factor_policies (
  account_uuid uuid primary key references accounts (uuid) on delete cascade,
  enabled boolean not null default false,
  enabled_at timestamptz,
  enabled_by uuid references users (uuid) on delete set null,
  grace_days integer not null default 7,
  grace_until timestamptz,
  updated_at timestamptz not null default now()
);

-- The reminders sent during a grace period: one per member, grace period and step, however often the job runs.
create table two_factor_reminders (
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  user_uuid uuid not null references users (uuid) on delete cascade,
  grace_until timestamptz not null,
  step text not null,
  sent_at timestamptz not null default now(),
  primary key (account_uuid, user_uuid, grace_until, step)
);
