-- The account's log page lists entries newest first with a keyset on (created_at, id), filtered by actor, by action
-- or by a user named as target; each filter has an index that serves its first page without sorting.
create index audit_log_account_time_idx on audit_log (account_uuid, created_at desc, id desc);
create index audit_log_account_actor_idx on audit_log (account_uuid, actor_uuid, created_at desc, id desc);
create index audit_log_account_action_idx on audit_log (account_uuid, action, created_at desc, id desc);
create index audit_log_account_target_idx on audit_log (account_uuid, target, created_at desc, id desc);
-- The retention purge finds the oldest entries by time.
create index audit_log_created_idx on audit_log (created_at, id);

-- The log is append-only. UPDATE is refused, except the one change the database itself makes when a user is
-- deleted (the actor reference becomes null; nothing else of the entry may change). DELETE is refused, except in
-- a transaction of the retention purge: it sets `portal.audit_purge_before` to its cut-off instant, and only
-- entries older than that instant go, and never one younger than 30 days, whatever the setting says.
create function audit_log_append_only() returns trigger language plpgsql as $$
declare
  purge_before timestamptz;
begin
  if tg_op = 'UPDATE' then
    if old.actor_uuid is not null and new.actor_uuid is null
       and to_jsonb(new) - 'actor_uuid' = to_jsonb(old) - 'actor_uuid' then
      return new;
    end if;
    raise exception 'audit_log is append-only: UPDATE refused' using errcode = 'insufficient_privilege';
  end if;
  if tg_op = 'DELETE' then
    purge_before := nullif(current_setting('portal.audit_purge_before', true), '')::timestamptz;
    if purge_before is not null and old.created_at < purge_before
       and old.created_at < now() - interval '30 days' then
      return old;
    end if;
    raise exception 'audit_log is append-only: DELETE refused' using errcode = 'insufficient_privilege';
  end if;
  raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end;
$$;

create trigger audit_log_append_only_rows before update or delete on audit_log
  for each row execute function audit_log_append_only();
create trigger audit_log_append_only_truncate before truncate on audit_log
  for each statement execute function audit_log_append_only();
