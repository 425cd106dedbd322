-- Who changed what also records from where: the client address of the request (null for jobs and seeds).
alter table audit_log add column client_address text;
