-- Who changed what also records from where: the client address and browser (user agent) of the request; null for
-- jobs and seeds.
alter table audit_log add column client_address text;
alter table audit_log add column user_agent text;
