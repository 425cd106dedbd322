-- The demo data's version (decision 253): the hash of the seed's sources, the migrations and the billing settings
-- that last seeded this database. A demo start whose version is the stored one does not seed again.
create table demo_data_version (
  singleton boolean primary key default true check (singleton),
  version text not null,
  seeded_at timestamptz not null default now()
);
