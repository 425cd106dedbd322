-- Lesson images (issue 26 item 2, decision 248): kept in the one file store, as files of no account (the provider's
-- own), each belonging to one lesson; a lesson's text shows only these.
alter table files alter column account_uuid drop not null;

create table lesson_images (
  file_uuid uuid primary key references files (uuid) on delete cascade,
  lesson_uuid uuid not null references lessons (uuid) on delete cascade,
  created_at timestamptz not null default now()
);
create index lesson_images_lesson_idx on lesson_images (lesson_uuid);
