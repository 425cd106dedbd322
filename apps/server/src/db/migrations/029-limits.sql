-- The limits counted in the database, one hit per row (decision 203): at most a limit's maximum of hits per key
-- within its window, which slides. Replaces the AbaClik pairing's own counters per fixed window: its open windows
-- are dropped with them, so an address counts afresh once.
create table limit_hits (
  name text not null,
  key text not null,
  at timestamptz not null default now()
);
create index limit_hits_key_idx on limit_hits (name, key, at);
create index limit_hits_at_idx on limit_hits (at);

drop table abaclik_exchange_attempts;
