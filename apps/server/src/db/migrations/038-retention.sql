-- The one retention job (issue 27 item 4, decision 242): each entry of the retention table is found by its age
-- without a scan.
create index notifications_created_idx on notifications (created_at, id);
create index mail_outbox_created_idx on mail_outbox (created_at, id);
create index users_deleted_idx on users (deleted_at, uuid) where deleted_at is not null;
create index jobs_failed_idx on jobs (updated_at, id) where state = 'failed';

-- The purges it replaces were recurring jobs of their own; their pending occurrences would wait for ever, since no
-- instance runs those kinds any more.
delete from jobs where kind in ('audit.purge', 'jobs.purge-failed') and state in ('pending', 'running');
