-- Subscriptions, invoices, billing details and bank payments. Money is integer minor units (Rappen, cents) with
-- the currency beside it. Periods and due dates are calendar days in the provider's time zone.

-- One subscription per account: its plan (a code of the configured catalogue), period, seats and state.
create table subscriptions (
  account_uuid uuid primary key references accounts (uuid) on delete cascade,
  plan_code text not null,
  billing_period text not null check (billing_period in ('MONTHLY', 'YEARLY')),
  currency text not null check (currency in ('CHF', 'EUR')),
  seats integer not null check (seats >= 1),
  -- TRIALING, ACTIVE or CANCELLED; "past due" is read from the account's overdue invoices, never stored.
  status text not null check (status in ('TRIALING', 'ACTIVE', 'CANCELLED')),
  trial_ends_on date,
  -- The period runs from its start up to, not including, its end; the next invoice is issued on the end day.
  current_period_start date not null,
  current_period_end date not null check (current_period_end > current_period_start),
  -- The day of the month periods start on (31 starts each period on the month's last day when it is shorter).
  billing_anchor_day smallint not null check (billing_anchor_day between 1 and 31),
  cancel_at_period_end boolean not null default false,
  cancel_reason text,
  cancel_comment text,
  -- A downgrade waits for the period end: the plan, period and seats it then switches to.
  pending_plan_code text,
  pending_billing_period text check (pending_billing_period in ('MONTHLY', 'YEARLY')),
  pending_seats integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- The scheduler finds the periods that ended.
create index subscriptions_period_end_idx on subscriptions (current_period_end);

-- Invoice numbers are gapless per year: the counter row is incremented in the transaction that inserts the
-- invoice, so a rolled-back issue gives its number back and concurrent issuers queue on the row.
create table invoice_number_counters (
  year integer primary key,
  last_number integer not null
);

-- Invoices and credit notes. They outlive the account (bookkeeping records are kept for years), so the account
-- is referenced without a foreign key and the billed party is kept as it was when the invoice was issued.
create table invoices (
  uuid uuid primary key,
  account_uuid uuid not null,
  number text not null unique,
  year integer not null,
  sequence integer not null,
  kind text not null check (kind in ('INVOICE', 'CREDIT_NOTE')),
  reason text not null check (reason in ('PERIOD', 'CHANGE', 'VOID')),
  status text not null check (status in ('OPEN', 'PAID', 'OVERDUE', 'VOID')),
  currency text not null check (currency in ('CHF', 'EUR')),
  issued_on date not null,
  due_on date not null,
  period_start date not null,
  period_end date not null,
  -- InvoiceLine[] and InvoiceTotals of the contract.
  lines jsonb not null,
  totals jsonb not null,
  net_minor bigint not null,
  vat_minor bigint not null,
  total_minor bigint not null,
  paid_minor bigint not null default 0,
  -- QR reference (27 digits) or creditor reference (RF…), unique so a bank credit finds exactly one invoice.
  reference text not null unique,
  -- {name, address, vatNumber, purchaseOrder, recipients, language} at issue time.
  billed_to jsonb not null,
  -- The credit note of a voided invoice points at it, and the voided invoice at its credit note.
  related_invoice_uuid uuid references invoices (uuid),
  -- What issued it, unique per account: a renewal ('period:2026-11-01') or a change ('change:<uuid>'), so running
  -- the scheduler twice issues nothing twice.
  source_key text not null,
  reminders_sent integer not null default 0,
  last_reminded_on date,
  paid_at timestamptz,
  voided_at timestamptz,
  void_reason text,
  created_at timestamptz not null default now(),
  unique (year, sequence),
  unique (account_uuid, source_key)
);
create index invoices_account_idx on invoices (account_uuid, issued_on desc, sequence desc);
create index invoices_due_idx on invoices (status, due_on);

-- Payments booked against an invoice: from a bank file, by hand (staff), or by card.
create table invoice_payments (
  uuid uuid primary key,
  invoice_uuid uuid not null references invoices (uuid),
  account_uuid uuid not null,
  booked_on date not null,
  amount_minor bigint not null,
  source text not null check (source in ('CAMT', 'MANUAL', 'CARD')),
  note text,
  bank_payment_uuid uuid,
  created_by uuid references users (uuid) on delete set null,
  created_at timestamptz not null default now()
);
create index invoice_payments_invoice_idx on invoice_payments (invoice_uuid);

-- Billing details of an account; missing until an admin saves them (the company profile fills the form first).
create table billing_details (
  account_uuid uuid primary key references accounts (uuid) on delete cascade,
  street text not null,
  building_number text,
  postcode text not null,
  city text not null,
  country text not null,
  vat_number text,
  recipients jsonb not null,
  purchase_order text,
  payment_method text not null default 'INVOICE' check (payment_method in ('INVOICE', 'CARD')),
  updated_at timestamptz not null default now()
);

-- Bank files (camt.054) staff imported; the same file (by content) is booked once.
create table bank_payment_imports (
  uuid uuid primary key,
  file_sha256 text not null unique,
  file_name text not null,
  message_id text,
  imported_by uuid references users (uuid) on delete set null,
  imported_at timestamptz not null default now(),
  matched integer not null default 0,
  partial integer not null default 0,
  unmatched integer not null default 0,
  duplicates integer not null default 0
);
create index bank_payment_imports_time_idx on bank_payment_imports (imported_at desc);

-- Credits of the bank files. `entry_key` identifies a credit across files (the bank's reference for it), so a
-- credit in two overlapping files is booked once.
create table bank_payments (
  uuid uuid primary key,
  import_uuid uuid not null references bank_payment_imports (uuid),
  entry_key text not null unique,
  status text not null check (status in ('MATCHED', 'PARTIAL', 'UNMATCHED', 'RESOLVED')),
  booked_on date not null,
  amount_minor bigint not null,
  currency text not null,
  reference text,
  debtor_name text,
  invoice_uuid uuid references invoices (uuid),
  note text,
  resolved_by uuid references users (uuid) on delete set null,
  resolved_at timestamptz,
  created_at timestamptz not null default now()
);
create index bank_payments_status_idx on bank_payments (status, booked_on desc);
