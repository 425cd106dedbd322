-- The log stays append-only (decision 097), with one more door: the erasure of a person (decision 232) replaces
-- their name and address inside an entry's before/after with ''. Only a transaction that set
-- `portal.audit_erasure` to 'on' (modules/security/erasure.ts, nothing else) may do it, and only before and after
-- may differ; who acted, what, on what and when stay as they were.
create or replace function audit_log_append_only() returns trigger language plpgsql as $$
declare
  purge_before timestamptz;
begin
  if tg_op = 'UPDATE' then
    if old.actor_uuid is not null and new.actor_uuid is null
       and to_jsonb(new) - 'actor_uuid' = to_jsonb(old) - 'actor_uuid' then
      return new;
    end if;
    if coalesce(current_setting('portal.audit_erasure', true), '') = 'on'
       and to_jsonb(new) - 'before' - 'after' = to_jsonb(old) - 'before' - 'after' then
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
