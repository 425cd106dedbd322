-- A person's own sign-in security in the embedded sign-in service: a pending change of the email address, the
-- sign-in history and the browsers a person has signed in with before.

-- A link of kind 'email-change' goes to the new address (the row's `email`, as for every link: the address it was
-- sent to). `previous_email` is the address the identity had when the change was asked for: the change applies only
-- when the link is opened, and only if the identity still has that address.
alter table idp_action_tokens add column previous_email text;

-- Every sign-in attempt for a known identity: success, wrong password, locked out, a failed second factor. Kept for
-- 90 days (the purge job removes older rows).
create table idp_sign_ins (
  id bigserial primary key,
  identity_id uuid not null references idp_identities (id) on delete cascade,
  outcome text not null,
  method text not null,
  user_agent text,
  client_address text,
  created_at timestamptz not null default now()
);
create index idp_sign_ins_identity_idx on idp_sign_ins (identity_id, created_at desc, id desc);
create index idp_sign_ins_created_idx on idp_sign_ins (created_at);

-- The browsers (browser, system and device type parsed from the user agent) an identity has signed in with, so a
-- sign-in from a new one can be told by mail.
create table idp_known_browsers (
  identity_id uuid not null references idp_identities (id) on delete cascade,
  browser text not null,
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  primary key (identity_id, browser)
);
