-- Notifications: one row per recipient and account, stored as a type key and its parameters; the reader's
-- language renders them at display time, so nothing here is text a user reads.
create table notifications (
  -- The order of creation: the inbox's tiebreak, and the id of the live stream's events (Last-Event-ID).
  id bigserial primary key,
  uuid uuid not null unique default gen_random_uuid(),
  -- The account the notification belongs to; null for one about the person (an invitation to another account,
  -- a removal from one), which the inbox of each of their accounts shows.
  account_uuid uuid references accounts (uuid) on delete cascade,
  user_uuid uuid not null references users (uuid) on delete cascade,
  -- Dotted type key, e.g. `invitation.received`; the contract lists the known ones.
  type text not null,
  params jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  archived_at timestamptz
);
-- The inbox: a user's notifications, unread first, then newest.
create index notifications_inbox_idx on notifications (user_uuid, (read_at is null) desc, id desc)
  where archived_at is null;
-- The unread badge counts these.
create index notifications_unread_idx on notifications (user_uuid, account_uuid)
  where read_at is null and archived_at is null;
-- Replay after a reconnect: the user's notifications after the last event id the stream delivered.
create index notifications_user_id_idx on notifications (user_uuid, id);

-- Per user and notification type: also send an email. A missing row means the type's default.
create table notification_preferences (
  user_uuid uuid not null references users (uuid) on delete cascade,
  type text not null,
  email boolean not null,
  primary key (user_uuid, type)
);
