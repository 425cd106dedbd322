-- Invitations: the one record of "someone was asked to join an account", for any email address (the person may
-- have no portal user yet). The mail's link carries a one-time token; only its SHA-256 hash is stored. A member
-- is a row of account_members from the moment an invitation is accepted.
create table invitations (
  uuid uuid primary key,
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  -- Trimmed and lower case; compared with the signed-in user's address.
  email text not null,
  role text not null,
  -- A note to the invited person (digital coaches), carried by the mail.
  note text,
  -- PENDING until answered or withdrawn: ACCEPTED, DECLINED, REVOKED (withdrawn), EXPIRED (replaced after expiry).
  status text not null default 'PENDING',
  token_hash text not null unique,
  expires_at timestamptz not null,
  invited_by uuid references users (uuid) on delete set null,
  invited_at timestamptz not null default now(),
  -- When the current link was sent (the rate limit counts sends).
  sent_at timestamptz not null default now(),
  answered_by uuid references users (uuid) on delete set null,
  answered_at timestamptz
);
-- One open invitation per address and account.
create unique index invitations_open_email on invitations (account_uuid, email) where status = 'PENDING';
-- A user's open invitations (the accounts list) by address.
create index invitations_email_idx on invitations (email) where status = 'PENDING';
-- The rate limit counts an account's recent sends.
create index invitations_sent_idx on invitations (account_uuid, sent_at);

-- The members list sorts by name (the address while the name is empty): its first page walks this index.
create index users_sort_key_idx on users ((lower(case when name = '' then email else name end)), uuid);
-- The members list counts an account's members (by role) from this index alone.
create index account_members_account_role_idx on account_members (account_uuid, role) where invitation_status = 'ACCEPTED';
-- Invitations compare addresses with users' (an invitation's mail language, "already a member").
create index users_email_lower_idx on users (lower(email));

-- The last sign-in the portal saw (the members list shows it).
alter table users add column last_sign_in_at timestamptz;

-- Pending memberships become invitations (without a mail link: they are answered from the accounts list);
-- declined ones are history in the audit log. Memberships are accepted ones from now on.
insert into invitations (uuid, account_uuid, email, role, status, token_hash, expires_at, invited_by, invited_at, sent_at)
select gen_random_uuid(), m.account_uuid, lower(trim(u.email)), m.role, 'PENDING',
       md5(gen_random_uuid()::text) || md5(gen_random_uuid()::text), now() + interval '7 days', m.invited_by,
       m.invited_at, m.invited_at
  from account_members m join users u on u.uuid = m.user_uuid
 where m.invitation_status = 'PENDING' and u.email <> ''
on conflict do nothing;
delete from account_members where invitation_status <> 'ACCEPTED';
