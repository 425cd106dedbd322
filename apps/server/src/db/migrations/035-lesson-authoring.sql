-- Lesson authoring (issue 26 item 2, decision 238): courses, and a draft and a published version of each lesson.

-- A course: its lessons in order, offered to every account or to the accounts on given plans.
create table courses (
  uuid uuid primary key default gen_random_uuid(),
  -- A stable name for the provider's content (the demo course is seeded by it); null for a teacher's course.
  slug text unique,
  position integer not null,
  -- { "de": "...", "en": "", ... }: German always, an empty one falls back to German.
  title jsonb not null,
  -- all, or plans: the accounts whose subscription is on one of `audience_plans`.
  audience text not null default 'all' check (audience in ('all', 'plans')),
  audience_plans text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The lessons a database already has (the demo's) become the onboarding course, offered to every account.
insert into courses (slug, position, title)
select 'onboarding', 10,
       '{"de": "Einführung ins Portal", "en": "Getting started", "fr": "Premiers pas", "it": "Primi passi"}'::jsonb
 where exists (select 1 from lessons);

alter table lessons add column course_uuid uuid references courses (uuid) on delete cascade;
update lessons set course_uuid = (select uuid from courses where slug = 'onboarding');
alter table lessons alter column course_uuid set not null;
create index lessons_course_idx on lessons (course_uuid, position);
-- A teacher's lesson has no slug.
alter table lessons alter column slug drop not null;

-- The published version: lesson_translations and lessons.minutes hold it; `version` counts the publications (0:
-- never published, learners do not see the lesson). Progress names the lesson, not a version, so it stays.
alter table lessons add column version integer not null default 0;
alter table lessons add column published_at timestamptz;
alter table lessons add column published_by uuid references users (uuid) on delete set null;
update lessons set version = 1, published_at = created_at;

-- The draft a teacher works on, at most one per lesson; publishing copies it to the published version and drops it.
create table lesson_drafts (
  lesson_uuid uuid primary key references lessons (uuid) on delete cascade,
  minutes integer not null check (minutes between 1 and 600),
  -- { "de": "...", "en": "", "fr": "", "it": "" } each
  title jsonb not null,
  body jsonb not null,
  updated_by uuid references users (uuid) on delete set null,
  updated_at timestamptz not null default now()
);
