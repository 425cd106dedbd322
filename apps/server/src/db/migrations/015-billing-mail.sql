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

-- Sums of an account's invoices per issue year, status, kind and currency, kept by a trigger in the transaction
-- that changes an invoice: the invoices list shows the sums over its filter (status, year) from a few of these rows
-- instead of adding up every invoice of the account on each request.
create table invoice_sums (
  account_uuid uuid not null,
  year integer not null,
  status text not null,
  kind text not null,
  currency text not null,
  invoices integer not null,
  total_minor bigint not null,
  paid_minor bigint not null,
  primary key (account_uuid, year, status, kind, currency)
);

create function invoice_sums_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update invoice_sums
       set invoices = invoices - 1, total_minor = total_minor - old.total_minor, paid_minor = paid_minor - old.paid_minor
     where account_uuid = old.account_uuid and year = extract(year from old.issued_on)::integer
       and status = old.status and kind = old.kind and currency = old.currency;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into invoice_sums (account_uuid, year, status, kind, currency, invoices, total_minor, paid_minor)
    values (new.account_uuid, extract(year from new.issued_on)::integer, new.status, new.kind, new.currency, 1,
            new.total_minor, new.paid_minor)
    on conflict (account_uuid, year, status, kind, currency) do update
       set invoices = invoice_sums.invoices + 1, total_minor = invoice_sums.total_minor + excluded.total_minor,
           paid_minor = invoice_sums.paid_minor + excluded.paid_minor;
  end if;
  return null;
end;
$$;

create trigger invoice_sums_kept after insert or delete
  or update of account_uuid, issued_on, status, kind, currency, total_minor, paid_minor on invoices
  for each row execute function invoice_sums_apply();

insert into invoice_sums (account_uuid, year, status, kind, currency, invoices, total_minor, paid_minor)
select account_uuid, extract(year from issued_on)::integer, status, kind, currency, count(*), sum(total_minor),
       sum(paid_minor)
  from invoices group by 1, 2, 3, 4, 5;
