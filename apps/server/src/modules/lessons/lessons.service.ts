import {
  LESSON_FALLBACK_LANGUAGE,
  isLanguage,
  type Language,
  type LessonCourse,
  type LessonDetail,
  type LessonSummary,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import type { AccountAccess, PortalUser } from '../../http/types.ts';
import { renderMarkdown } from '../../http/markdown.ts';
import { iso } from '../../db/iso.ts';

interface LessonRow {
  uuid: string;
  minutes: number;
  language: Language;
  title: string;
  content_md: string;
  opened_at: Date | null;
  last_opened_at: Date | null;
  completed_at: Date | null;
}

/**
 * The lessons account `$2` reads: published and not taken back (nor their course), offered to every account or to this one, in a course offered to every
 * account or to its plan. Needs `lessons l` and `courses c`.
 */
const OFFERED = `l.published_at is not null and l.unpublished_at is null and c.unpublished_at is null
  and (l.account_uuid is null or l.account_uuid = $2)
  and (c.audience = 'all'
       or exists (select 1 from subscriptions s where s.account_uuid = $2 and s.plan_code = any(c.audience_plans)))`;

const isoOrNull = (value: Date | null) => (value ? iso(value) : null);

/** The language to read in: the one asked for, else the caller's own, else German. */
export function readerLanguage(user: PortalUser, asked: Language | undefined): Language {
  if (asked) return asked;
  return isLanguage(user.language) ? user.language : LESSON_FALLBACK_LANGUAGE;
}

/**
 * The published lessons offered to the account (OFFERED), course by course in their order, each in the reader's
 * language or German, with the caller's own progress in this account. A lesson without either text is left out.
 */
async function courseRows(
  q: Queryable,
  user: PortalUser,
  access: AccountAccess,
  language: Language,
): Promise<LessonRow[]> {
  const { rows } = await q.query<LessonRow>(
    `select l.uuid, l.minutes, t.language, t.title, t.content_md,
            p.opened_at, p.last_opened_at, p.completed_at
       from lessons l
       join courses c on c.uuid = l.course_uuid
       join lateral (
         select language, title, content_md from lesson_translations
          where lesson_uuid = l.uuid and language in ($3, $4)
          order by language = $3 desc limit 1
       ) t on true
       left join lesson_progress p
         on p.lesson_uuid = l.uuid and p.user_uuid = $1 and p.account_uuid = $2
      where ${OFFERED}
      order by c.position, c.uuid, l.position, l.uuid`,
    [user.uuid, access.accountUuid, language, LESSON_FALLBACK_LANGUAGE],
  );
  return rows;
}

function toSummary(row: LessonRow, index: number): LessonSummary {
  return {
    uuid: row.uuid,
    number: index + 1,
    title: row.title,
    minutes: row.minutes,
    language: row.language,
    openedAt: isoOrNull(row.opened_at),
    completedAt: isoOrNull(row.completed_at),
  };
}

/**
 * Where to go on: the lesson last opened while it is not completed; otherwise the next one not completed after
 * it, or the first one not completed from the start; null when every lesson is completed.
 */
export function resumePoint(rows: readonly LessonRow[]): string | null {
  let last = -1;
  rows.forEach((row, i) => {
    const at = row.last_opened_at?.valueOf() ?? null;
    if (at !== null && (last < 0 || at > rows[last]!.last_opened_at!.valueOf())) last = i;
  });
  if (last >= 0 && !rows[last]!.completed_at) return rows[last]!.uuid;
  const open = (row: LessonRow) => !row.completed_at;
  return (rows.slice(last + 1).find(open) ?? rows.find(open))?.uuid ?? null;
}

function toCourse(accountName: string, rows: LessonRow[]): LessonCourse {
  const done = rows.filter((row) => row.completed_at);
  return {
    accountName,
    lessons: rows.map(toSummary),
    completed: done.length,
    total: rows.length,
    minutesLeft: rows.reduce((sum, row) => sum + (row.completed_at ? 0 : row.minutes), 0),
    resumeLessonUuid: resumePoint(rows),
  };
}

async function accountName(q: Queryable, accountUuid: string): Promise<string> {
  const { rows } = await q.query<{ name: string }>('select name from accounts where uuid = $1', [
    accountUuid,
  ]);
  if (!rows[0]) throw notFound();
  return rows[0].name;
}

export async function getCourse(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  language: Language,
): Promise<LessonCourse> {
  const [name, rows] = await Promise.all([
    accountName(db, access.accountUuid),
    courseRows(db, user, access, language),
  ]);
  return toCourse(name, rows);
}

/** One lesson of the account's course with its rendered text and its neighbours; 404 when not in the course. */
export async function getLesson(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  lessonUuid: string,
  language: Language,
): Promise<LessonDetail> {
  const rows = await courseRows(db, user, access, language);
  const index = rows.findIndex((row) => row.uuid === lessonUuid);
  if (index < 0) throw notFound('No such lesson');
  const row = rows[index]!;
  return {
    ...toSummary(row, index),
    html: renderMarkdown(row.content_md, { lessonImages: true }),
    previousUuid: rows[index - 1]?.uuid ?? null,
    nextUuid: rows[index + 1]?.uuid ?? null,
  };
}

/** Refuses (404) a lesson that is not offered to the account. */
export async function assertInCourse(q: Queryable, accountUuid: string, lessonUuid: string): Promise<void> {
  const { rows } = await q.query(
    `select 1 from lessons l join courses c on c.uuid = l.course_uuid where l.uuid = $1 and ${OFFERED}`,
    [lessonUuid, accountUuid],
  );
  if (!rows[0]) throw notFound('No such lesson');
}

/** A lesson of the course, and the language to answer the course in. */
export interface LessonRef {
  lessonUuid: string;
  language: Language;
}

/**
 * Changes the caller's own progress in a lesson of the account's course (404 for any other lesson) with one
 * upsert, `$1`–`$3` being user, account and lesson; answers the course as it is then.
 */
async function changeProgress(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  change: LessonRef & { upsert: string; values?: unknown[] },
): Promise<LessonCourse> {
  await db.transaction(async (tx) => {
    await assertInCourse(tx, access.accountUuid, change.lessonUuid);
    await tx.query(change.upsert, [
      user.uuid,
      access.accountUuid,
      change.lessonUuid,
      ...(change.values ?? []),
    ]);
  });
  return getCourse(db, user, access, change.language);
}

/** Records that the caller opened the lesson: the first time once, the last time always (the resume point). */
export function markOpened(db: Db, user: PortalUser, access: AccountAccess, lesson: LessonRef) {
  return changeProgress(db, user, access, {
    ...lesson,
    upsert: `insert into lesson_progress (user_uuid, account_uuid, lesson_uuid, opened_at, last_opened_at)
             values ($1, $2, $3, clock_timestamp(), clock_timestamp())
             on conflict (user_uuid, account_uuid, lesson_uuid) do update
               set opened_at = coalesce(lesson_progress.opened_at, excluded.opened_at),
                   last_opened_at = excluded.last_opened_at`,
  });
}

/** Marks the lesson complete (keeping the first completion's time) or not complete, for the caller only. */
export function setCompletion(
  db: Db,
  user: PortalUser,
  access: AccountAccess,
  { completed, ...lesson }: LessonRef & { completed: boolean },
) {
  return changeProgress(db, user, access, {
    ...lesson,
    upsert: `insert into lesson_progress (user_uuid, account_uuid, lesson_uuid, opened_at, completed_at)
             values ($1, $2, $3, clock_timestamp(), case when $4::boolean then clock_timestamp() end)
             on conflict (user_uuid, account_uuid, lesson_uuid) do update
               set opened_at = coalesce(lesson_progress.opened_at, excluded.opened_at),
                   completed_at = case when $4::boolean
                                       then coalesce(lesson_progress.completed_at, excluded.completed_at) end`,
    values: [completed],
  });
}
