-- Uploaded files (logos now; attachments and documents later): the bytes live in `content`, or, when the server
-- keeps files in a folder (FILES_DIR), in a file named by the uuid there.
create table files (
  uuid uuid primary key,
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  -- What the file is for, e.g. 'company-logo'.
  purpose text not null,
  -- Detected from the content when it was uploaded, never taken from the name.
  content_type text not null,
  size integer not null,
  sha256 text not null,
  file_name text not null,
  content bytea,
  created_by uuid references users (uuid) on delete set null,
  created_at timestamptz not null default now()
);
create index files_account_idx on files (account_uuid);

-- The company profile of an account. Its legal name and country are the account's name and country.
create table company_profiles (
  account_uuid uuid primary key references accounts (uuid) on delete cascade,
  street text,
  postcode text,
  city text,
  -- Swiss companies: the UID as CHE-123.456.789; others: their VAT number.
  uid text,
  vat_number text,
  billing_email text,
  phone text,
  website text,
  logo_file_uuid uuid references files (uuid) on delete set null,
  updated_at timestamptz not null default now()
);
