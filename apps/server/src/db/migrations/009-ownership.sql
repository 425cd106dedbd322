-- Transfers of an account's ownership: the owner offers it to an admin, who accepts or declines within 7 days.
create table ownership_transfers (
  uuid uuid primary key,
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  from_user_uuid uuid not null references users (uuid) on delete cascade,
  to_user_uuid uuid not null references users (uuid) on delete cascade,
  -- PENDING until accepted, declined or cancelled; a pending one past expires_at counts as EXPIRED.
  status text not null default 'PENDING',
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  decided_at timestamptz
);
create index ownership_transfers_account_idx on ownership_transfers (account_uuid, created_at desc);
create index ownership_transfers_to_idx on ownership_transfers (to_user_uuid) where status = 'PENDING';
-- One pending transfer per account.
create unique index ownership_transfers_one_pending on ownership_transfers (account_uuid) where status = 'PENDING';

-- Terms are accepted by an owner: after a transfer the new owner accepts them too, while the old owner's
-- acceptance stays on record. The key therefore names who accepted.
alter table terms_acceptances drop constraint terms_acceptances_pkey;
alter table terms_acceptances add primary key (account_uuid, kind, version, accepted_by);
