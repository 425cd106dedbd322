-- Indexes of two lists that grow (issue 24 item 5, decision 259), found by their benches.

-- The inbox at 100,000 notifications per person. Each page also counts its view's total, and the inbox's filters
-- (the account or none, a type) were in no index: every count read the person's rows in the table (30 ms), and the
-- archived view, without an index in its order, sorted the person's whole archive (57 ms).
-- The inbox's count (and a type's): read off this index alone. Its entries repeat (a person, an account, a type),
-- so the index stores each once with its row list, and reading 40,000 of them takes a millisecond or two.
create index notifications_inbox_count_idx on notifications (user_uuid, account_uuid, type)
  where archived_at is null;
-- The archived view, the most recently archived first, and its count (the filtered columns carried).
create index notifications_archive_idx on notifications (user_uuid, archived_at desc, id desc)
  include (account_uuid, type) where archived_at is not null;

-- The support queue at 50,000 tickets: one status (closed holds most tickets) reads its page off the index in the
-- queue's whole order (longest waiting first, then by last change and number) instead of sorting every ticket of
-- that status with its account and people (53 ms). No index in that order without the status: the planner took it
-- for the active tickets with a rare filter too, and read most of it to find them (decision 259).
drop index support_tickets_queue_idx;
create index support_tickets_queue_idx on support_tickets (status, awaiting_agent_since, updated_at, number);
