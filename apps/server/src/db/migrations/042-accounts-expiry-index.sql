-- The accounts past their scheduled deletion, found without reading every account (issue 24 item 5, decision 260).
-- The support queue leaves out their tickets by asking for these few accounts once per statement, rather than
-- joining every ticket it reads or counts with its account. Only accounts with a deletion date are in it.
create index accounts_expiry_idx on accounts (available_until) where available_until is not null;
