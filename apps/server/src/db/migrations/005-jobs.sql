-- The jobs runner's queue: scheduled and queued work (mails, purges, later invoices and syncs).
-- A job is pending until an instance claims it (running, with a lease until locked_until); a job done is deleted,
-- a job out of attempts stays as failed with its last error.
create table jobs (
  id bigserial primary key,
  kind text not null,
  payload jsonb not null default '{}'::jsonb,
  -- At most one pending or running job per key (a recurring job's next occurrence, a deduplicated task).
  unique_key text,
  state text not null default 'pending' check (state in ('pending', 'running', 'failed')),
  run_at timestamptz not null default now(),
  attempts integer not null default 0,
  max_attempts integer not null check (max_attempts > 0),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create unique index jobs_unique_open on jobs (unique_key) where state in ('pending', 'running');
create index jobs_due on jobs (run_at, id) where state = 'pending';
create index jobs_leases on jobs (locked_until) where state = 'running';
