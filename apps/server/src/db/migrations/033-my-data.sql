-- A person's own data (issue 27, decisions 231 and 232).

-- A deleted login: the row stays as the author of what the person wrote (support messages, the log's actor), with
-- the name and address emptied, so the pages say "Gelöschte Person"; its subject is never provisioned again
-- (a token still valid for a minute is refused), and a new registration with the address gets a new identity.
alter table users add column deleted_at timestamptz;

-- Exports of a person's data: a job gathers the documents (JSON and the README) and the references to the files
-- that go along, frozen at that moment; the download writes the ZIP from them as it streams (files/zip.ts).
create table data_exports (
  uuid uuid primary key,
  user_uuid uuid not null references users (uuid) on delete cascade,
  state text not null default 'preparing' check (state in ('preparing', 'ready', 'failed')),
  -- [{ "name": "profile.json", "text": "…" } | { "name": "tickets/…/x.pdf", "accountUuid": …, "fileUuid": … }]
  entries jsonb,
  requested_at timestamptz not null default now(),
  ready_at timestamptz,
  expires_at timestamptz
);
-- The card's latest export and the once-per-day rule read a person's newest.
create index data_exports_user_idx on data_exports (user_uuid, requested_at desc);
-- The retention removes expired exports.
create index data_exports_expires_idx on data_exports (expires_at);
