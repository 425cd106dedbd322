-- Invoice mails carry the invoice as a PDF: the outbox keeps the attachments' names, types and file references
-- (the bytes stay in the files store), so the demo outbox shows what a real mail would have carried.
alter table mail_outbox add column attachments jsonb;

-- The invoices list filtered by status reads the newest of that status first without scanning the others.
create index invoices_account_status_idx on invoices (account_uuid, status, issued_on desc, sequence desc);

-- The invoice's PDF as it was first rendered and mailed, kept in the files store: a download serves that same
-- document. No foreign key: invoices outlive the account, its files do not.
alter table invoices add column pdf_file_uuid uuid;

-- When the invoice mail was queued: the job that mails a new invoice runs at least once, the mail goes out once.
alter table invoices add column mailed_at timestamptz;
