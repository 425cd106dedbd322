-- Lesson images (issue 26 item 2, decision 248): kept in the one file store, as files of no account (the provider's
-- own), each belonging to one lesson; a lesson's text shows only these.
alter table files alter column account_uuid drop not null;

create table lesson_images (
  file_uuid uuid primary key references files (uuid) on delete cascade,
  lesson_uuid uuid not null references lessons (uuid) on delete cascade,
  created_at timestamptz not null default now()
);
create index lesson_images_lesson_idx on lesson_images (lesson_uuid);

-- Unpublishing (decision 249): a lesson or a course learners no longer see, its progress kept; published again, it
-- is back as it was. A deleted lesson or course goes with its progress and images.
alter table lessons add column unpublished_at timestamptz;
alter table courses add column unpublished_at timestamptz;
-- The demo seed adds its lessons and course by slug at each demo start: one a teacher deleted stays deleted.
create table deleted_seed_slugs (
  slug text primary key,
  deleted_at timestamptz not null default now()
);
