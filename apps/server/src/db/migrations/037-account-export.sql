-- The account's data export (issue 27 item 2, decision 240): the same table, job and download as a person's own
-- export (033, decision 231). A row with an account is the account's export, asked for by its owner (user_uuid);
-- without one it is the person's. The once-a-day rule counts per account for the one and per person for the other.
alter table data_exports add column account_uuid uuid references accounts (uuid) on delete cascade;
-- The card's latest export of the account and the once-per-day rule.
create index data_exports_account_idx on data_exports (account_uuid, requested_at desc) where account_uuid is not null;
