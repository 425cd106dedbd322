-- Lessons: the provider's course content and each person's progress in it.

-- A lesson is offered to every account (account_uuid null) or to one account only. The course of an account is
-- every lesson offered to it, ordered by position.
create table lessons (
  uuid uuid primary key default gen_random_uuid(),
  -- A stable name for the provider's content (the demo course is seeded by it).
  slug text not null unique,
  account_uuid uuid references accounts (uuid) on delete cascade,
  position integer not null,
  -- Estimated minutes to read the lesson.
  minutes integer not null check (minutes between 1 and 600),
  created_at timestamptz not null default now()
);
create index lessons_account_idx on lessons (account_uuid, position);

-- The title and Markdown text of a lesson in one language; German is the one every lesson has.
create table lesson_translations (
  lesson_uuid uuid not null references lessons (uuid) on delete cascade,
  language text not null check (language in ('de', 'en', 'fr', 'it')),
  title text not null,
  content_md text not null,
  primary key (lesson_uuid, language)
);

-- One person's progress in one lesson of one account: when first and last opened (the last opened lesson is the
-- point to resume from) and when completed.
create table lesson_progress (
  user_uuid uuid not null references users (uuid) on delete cascade,
  account_uuid uuid not null references accounts (uuid) on delete cascade,
  lesson_uuid uuid not null references lessons (uuid) on delete cascade,
  opened_at timestamptz,
  last_opened_at timestamptz,
  completed_at timestamptz,
  primary key (user_uuid, account_uuid, lesson_uuid)
);
create index lesson_progress_account_idx on lesson_progress (account_uuid);
create index lesson_progress_lesson_idx on lesson_progress (lesson_uuid);
