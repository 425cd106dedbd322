-- Announcements of the provider to its customers (issue 26 item 1, decision 226): a title and a Markdown text per
-- language (German required), a kind, an audience and a window. Published ones reach every person of the audience
-- as a notification of type `announcement.published`, written in batches by the jobs runner once the window starts.
create table announcements (
  uuid uuid primary key default gen_random_uuid(),
  -- info, maintenance or incident
  kind text not null check (kind in ('info', 'maintenance', 'incident')),
  -- { "de": "...", "en": "...", ... }: German always, the others where written (they fall back to German).
  title jsonb not null,
  body jsonb not null,
  -- all, plans, countries or accounts; `audience_values` holds the plan codes, country codes or account uuids.
  audience text not null check (audience in ('all', 'plans', 'countries', 'accounts')),
  audience_values text[] not null default '{}',
  -- everyone in those accounts, or their owners and admins only
  roles text not null check (roles in ('everyone', 'admins')),
  starts_at timestamptz not null,
  ends_at timestamptz check (ends_at is null or ends_at > starts_at),
  -- draft, published or withdrawn
  status text not null default 'draft' check (status in ('draft', 'published', 'withdrawn')),
  -- Counts each change of a published one before its start, so a fan-out queued for an older start does nothing.
  revision integer not null default 0,
  -- The fan-out's progress: the last recipient (user uuid) written, and when every recipient had it.
  fanout_after uuid,
  fanned_out_at timestamptz,
  created_by uuid references users (uuid) on delete set null,
  updated_by uuid references users (uuid) on delete set null,
  published_by uuid references users (uuid) on delete set null,
  published_at timestamptz,
  withdrawn_by uuid references users (uuid) on delete set null,
  withdrawn_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- The staff's list, newest first.
create index announcements_created_idx on announcements (created_at desc, uuid);
-- The shell's bar: published maintenance and incident announcements whose window is open.
create index announcements_window_idx on announcements (starts_at, ends_at)
  where status = 'published' and kind in ('maintenance', 'incident');

-- The notifications of one announcement: its reach and read counts, and what a withdrawal removes.
create index notifications_announcement_idx on notifications ((params ->> 'announcementUuid'))
  where type = 'announcement.published';

-- A person closed the bar of an announcement: it stays closed for them, on every device.
create table announcement_dismissals (
  announcement_uuid uuid not null references announcements (uuid) on delete cascade,
  user_uuid uuid not null references users (uuid) on delete cascade,
  dismissed_at timestamptz not null default now(),
  primary key (user_uuid, announcement_uuid)
);
