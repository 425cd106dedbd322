-- Support tickets of an account, their conversation and attachments. Agents (support staff) work them across
-- accounts; internal notes are messages only agents ever read.

-- Ticket numbers are global and never reused; customers quote them.
create sequence support_ticket_number_seq start with 10001;

create table support_tickets (
  uuid uuid primary key default gen_random_uuid(),
  number bigint not null unique default nextval('support_ticket_number_seq'),
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  created_by uuid references users (uuid) on delete set null,
  -- Keys the contract lists (category, severity); the web shows localised labels.
  category text not null,
  severity text not null,
  subject text not null,
  status text not null default 'OPEN'
    check (status in ('OPEN', 'WAITING_FOR_CUSTOMER', 'SOLVED', 'CLOSED')),
  -- The customer allows support staff to open the account while this ticket is not closed or solved.
  staff_access_consent boolean not null default false,
  assignee_uuid uuid references users (uuid) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Set while the customer's last word is unanswered by an agent: the queue's waiting time.
  awaiting_agent_since timestamptz default now(),
  -- When the ticket was last solved: it can be reopened within a period after this.
  solved_at timestamptz
);
create index support_tickets_account_idx on support_tickets (account_uuid, created_at desc);
create index support_tickets_creator_idx on support_tickets (created_by, created_at desc);
create index support_tickets_queue_idx on support_tickets (status, awaiting_agent_since);
create index support_tickets_assignee_idx on support_tickets (assignee_uuid, status);

create table support_messages (
  id bigserial primary key,
  uuid uuid not null unique default gen_random_uuid(),
  ticket_uuid uuid not null references support_tickets (uuid) on delete cascade,
  author_uuid uuid references users (uuid) on delete set null,
  -- CUSTOMER (a member of the account) or AGENT (support staff).
  author_kind text not null check (author_kind in ('CUSTOMER', 'AGENT')),
  -- An agent's note to other agents: never shown to the customer, never in the customer's notifications.
  internal boolean not null default false check (not internal or author_kind = 'AGENT'),
  body text not null,
  created_at timestamptz not null default now()
);
create index support_messages_ticket_idx on support_messages (ticket_uuid, id);

-- Files attached to a message (kept in the account's file store).
create table support_attachments (
  file_uuid uuid primary key references files (uuid) on delete cascade,
  message_id bigint not null references support_messages (id) on delete cascade,
  ticket_uuid uuid not null references support_tickets (uuid) on delete cascade,
  -- The order in which the files were attached to the message.
  position smallint not null default 0
);
create index support_attachments_message_idx on support_attachments (message_id);
