-- The inbox's totals, kept as the notifications change (issue 24 item 5, decision 265). Every page of the inbox
-- shows its view's total (its pager: "1–25 of 41,234"), and counting it read one index entry per notification:
-- 41,000 for a person with 100,000, most of the page's time and of its tail. Here each person's notifications are
-- counted by account, type, archived or not and read or not; a view's total sums a few dozen of these rows.
-- Exact like the count it replaces: the counts change in the statement that changes the notifications.
create table notification_counts (
  user_uuid uuid not null,
  -- The notification's account, or the nil UUID for a personal one (no account), so that it can be in the key.
  account_key uuid not null,
  type text not null,
  archived boolean not null,
  unread boolean not null,
  count bigint not null,
  primary key (user_uuid, account_key, type, archived, unread)
);

-- Adds signed changes to the counts, in the key's order (two statements lock the same counts in the same order),
-- and removes those that reach zero (no row outlives its person or account). PL/pgSQL, so that a session plans
-- these statements once (a SQL function planned them on every call: 0.5 ms more for each notification written).
create function notification_counts_change(changes notification_counts[]) returns void language plpgsql as $$
begin
  insert into notification_counts as c (user_uuid, account_key, type, archived, unread, count)
  select user_uuid, account_key, type, archived, unread, sum(count) from unnest(changes)
   group by 1, 2, 3, 4, 5 having sum(count) <> 0 order by 1, 2, 3, 4, 5
  on conflict (user_uuid, account_key, type, archived, unread) do update set count = c.count + excluded.count;
  delete from notification_counts c using unnest(changes) d
   where c.count = 0 and (c.user_uuid, c.account_key, c.type, c.archived, c.unread)
         = (d.user_uuid, d.account_key, d.type, d.archived, d.unread);
end;
$$;

-- Once per statement, with the rows it inserted, deleted or changed (a fan-out to 50,000 people, a person's erasure
-- and an account's deletion cascading to its notifications included): their counts, added or taken away.
create function notification_counts_apply() returns trigger language plpgsql as $$
declare
  changes notification_counts[] := '{}';
begin
  if tg_op <> 'DELETE' then
    changes := array(select (x.*)::notification_counts from (
      select user_uuid, coalesce(account_uuid, '00000000-0000-0000-0000-000000000000'), type,
             archived_at is not null, read_at is null, count(*)
        from added group by 1, 2, 3, 4, 5) x);
  end if;
  if tg_op <> 'INSERT' then
    changes := changes || array(select (x.*)::notification_counts from (
      select user_uuid, coalesce(account_uuid, '00000000-0000-0000-0000-000000000000'), type,
             archived_at is not null, read_at is null, -count(*)
        from removed group by 1, 2, 3, 4, 5) x);
  end if;
  perform notification_counts_change(changes);
  return null;
end;
$$;

create trigger notification_counts_inserted after insert on notifications referencing new table as added
  for each statement execute function notification_counts_apply();
create trigger notification_counts_deleted after delete on notifications referencing old table as removed
  for each statement execute function notification_counts_apply();
create trigger notification_counts_updated after update on notifications
  referencing old table as removed new table as added for each statement execute function notification_counts_apply();

insert into notification_counts (user_uuid, account_key, type, archived, unread, count)
select user_uuid, coalesce(account_uuid, '00000000-0000-0000-0000-000000000000'), type, archived_at is not null,
       read_at is null, count(*)
  from notifications group by 1, 2, 3, 4, 5;
