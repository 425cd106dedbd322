-- The account directory (decisions 229 and 230): staff find any account by part of its name or of a member's
-- address through trigram indexes (pg_trgm: a trusted extension PostgreSQL ships in contrib, which PGlite loads as
-- one of its own, db/client.ts), by UID, invoice and ticket number through exact indexes, and page through every
-- account by name.
create extension if not exists pg_trgm;

create index accounts_name_trgm_idx on accounts using gin (lower(name) gin_trgm_ops);
create index accounts_name_sort_idx on accounts ((lower(name)), uuid);
create index users_email_trgm_idx on users using gin (lower(email) gin_trgm_ops);
create index company_profiles_uid_idx on company_profiles (uid) where uid is not null;
