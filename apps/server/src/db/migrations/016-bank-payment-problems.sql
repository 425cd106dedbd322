-- Why a bank credit could not be booked, so staff see it at once (no reference, unknown reference, other currency,
-- invoice no longer open), and by how much a credit paid more than its invoice owed (to refund or credit it).
alter table bank_payments add column problem text
  check (problem in ('NO_REFERENCE', 'UNKNOWN_REFERENCE', 'CURRENCY', 'NOT_OPEN'));
alter table bank_payments add column overpaid_minor bigint not null default 0;
-- The credits still to handle, newest first, and the credits of one import.
create index bank_payments_import_idx on bank_payments (import_uuid);
