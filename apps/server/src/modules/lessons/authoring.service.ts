import { LANGUAGES, type Language } from '@portal/contract';
import {
  COURSE_LESSONS_MAX,
  LESSON_IMAGE_MAX_BYTES,
  LESSON_IMAGE_PATH,
  LESSON_IMAGE_TYPES,
  mayAuthorLessons,
  type AuthoredCourse,
  type AuthoredLesson,
  type AuthoredLessonSummary,
  type CourseInput,
  type CourseOrderInput,
  type CourseProgress,
  type LessonDraftInput,
  type LessonImage,
  type LessonImageUpload,
  type LessonState,
  type LessonTexts,
} from '@portal/contract/lesson-authoring';
import type { Db, Queryable } from '../../db/client.ts';
import { iso } from '../../db/iso.ts';
import { wholeList, type ListPage } from '../../db/paging.ts';
import { checkUpload, UploadRefused, type FileStore } from '../../files/files.ts';
import { HttpError, forbidden, notFound } from '../../http/errors.ts';
import { renderMarkdown } from '../../http/markdown.ts';
import type { PortalUser } from '../../http/types.ts';

// The teachers' side of the lessons: courses, drafts, publishing, order, offer and the progress overview. The
// published version of a lesson is what the learners' side reads (lessons.minutes and lesson_translations); a draft
// lives in lesson_drafts until it is published. Progress rows name the lesson, so a new version keeps them.

/** Refuses (403) a caller below TEACHER: customers and DC coaches. */
function requireAuthor(user: PortalUser): void {
  if (!mayAuthorLessons(user.userRole)) throw forbidden('Writing lessons needs the TEACHER role');
}

/** A 422 with field errors whose texts are rule keys of the web's validation texts (validation.json). */
const invalid = (what: string, fields: Record<string, string>) =>
  new HttpError(422, 'VALIDATION_FAILED', `Invalid ${what}: ${Object.keys(fields).join(', ')}`, fields);

export interface AuthoringRules {
  /** The plan codes of the catalogue: a course offered by plan names only these. */
  planCodes: readonly string[];
}

/** Each language's text trimmed; the schema has limited the lengths. */
const trimmed = (texts: LessonTexts): LessonTexts =>
  Object.fromEntries(LANGUAGES.map((l) => [l, texts[l].trim()])) as LessonTexts;

function checkCourse(rules: AuthoringRules, input: CourseInput): CourseInput {
  const fields: Record<string, string> = {};
  const title = trimmed(input.title);
  if (title.de === '') fields['title.de'] = 'required';
  const plans = [...new Set(input.audiencePlans.map((code) => code.trim()))];
  if (input.audience === 'all' && plans.length > 0) fields.audiencePlans = 'courseAudienceAll';
  if (input.audience === 'plans' && plans.length === 0) fields.audiencePlans = 'courseAudienceEmpty';
  if (plans.some((code) => !rules.planCodes.includes(code))) fields.audiencePlans = 'courseUnknownPlan';
  if (Object.keys(fields).length > 0) throw invalid('course', fields);
  return { title, audience: input.audience, audiencePlans: plans };
}

function checkDraft(input: LessonDraftInput): LessonDraftInput {
  const fields: Record<string, string> = {};
  const title = trimmed(input.title);
  const body = trimmed(input.body);
  if (title.de === '') fields['title.de'] = 'required';
  if (body.de === '') fields['body.de'] = 'required';
  // A language is written whole or not at all: a title without its text (or the reverse) would read half German.
  for (const l of LANGUAGES) {
    if (l === 'de') continue;
    if (title[l] === '' && body[l] !== '') fields[`title.${l}`] = 'required';
    if (body[l] === '' && title[l] !== '') fields[`body.${l}`] = 'required';
  }
  if (Object.keys(fields).length > 0) throw invalid('lesson', fields);
  return { minutes: input.minutes, title, body };
}

interface LessonRow {
  uuid: string;
  course_uuid: string;
  position: number;
  version: number;
  published_at: Date | string | null;
  unpublished_at: Date | string | null;
  minutes: number;
  draft_minutes: number | null;
  draft_title: LessonTexts | null;
  draft_body: LessonTexts | null;
  /** The published texts: { de: { title, body }, … } for the languages written. */
  published: Partial<Record<Language, { title: string; body: string }>> | null;
}

const LESSON_SELECT = `
  select l.uuid, l.course_uuid, l.position, l.version, l.published_at, l.unpublished_at, l.minutes,
         d.minutes as draft_minutes, d.title as draft_title, d.body as draft_body,
         (select jsonb_object_agg(t.language, jsonb_build_object('title', t.title, 'body', t.content_md))
            from lesson_translations t where t.lesson_uuid = l.uuid) as published
    from lessons l
    left join lesson_drafts d on d.lesson_uuid = l.uuid`;

const stateOf = (row: LessonRow): LessonState =>
  row.version === 0
    ? 'draft'
    : row.unpublished_at !== null
      ? 'unpublished'
      : row.draft_title
        ? 'changed'
        : 'published';

/** The texts a teacher edits: the draft's, else the published version's (a missing language as ''). */
function textsOf(row: LessonRow): { minutes: number; title: LessonTexts; body: LessonTexts } {
  if (row.draft_title && row.draft_body) {
    return { minutes: row.draft_minutes ?? row.minutes, title: row.draft_title, body: row.draft_body };
  }
  const pick = (key: 'title' | 'body') =>
    Object.fromEntries(LANGUAGES.map((l) => [l, row.published?.[l]?.[key] ?? ''])) as LessonTexts;
  return { minutes: row.minutes, title: pick('title'), body: pick('body') };
}

function toSummary(row: LessonRow): AuthoredLessonSummary {
  const texts = textsOf(row);
  return {
    uuid: row.uuid,
    title: texts.title.de,
    titles: texts.title,
    minutes: texts.minutes,
    state: stateOf(row),
    version: row.version,
    publishedAt: row.published_at === null ? null : iso(row.published_at),
  };
}

function toLesson(row: LessonRow): AuthoredLesson {
  return { ...toSummary(row), courseUuid: row.course_uuid, ...textsOf(row) };
}

interface CourseRow {
  uuid: string;
  title: Partial<LessonTexts>;
  audience: CourseInput['audience'];
  audience_plans: string[];
  unpublished_at: Date | string | null;
}

async function courseRows(q: Queryable, courseUuid: string | null): Promise<AuthoredCourse[]> {
  const { rows: courses } = await q.query<CourseRow>(
    `select uuid, title, audience, audience_plans, unpublished_at from courses
      where $1::uuid is null or uuid = $1::uuid order by position, uuid`,
    [courseUuid],
  );
  const { rows: lessons } = await q.query<LessonRow>(
    `${LESSON_SELECT} where $1::uuid is null or l.course_uuid = $1::uuid order by l.position, l.uuid`,
    [courseUuid],
  );
  return courses.map((c) => ({
    uuid: c.uuid,
    title: { de: '', en: '', fr: '', it: '', ...c.title },
    audience: c.audience,
    audiencePlans: c.audience_plans,
    published: c.unpublished_at === null,
    lessons: lessons.filter((l) => l.course_uuid === c.uuid).map(toSummary),
  }));
}

async function oneCourse(q: Queryable, courseUuid: string): Promise<AuthoredCourse> {
  const [course] = await courseRows(q, courseUuid);
  if (!course) throw notFound('No such course');
  return course;
}

async function lessonRow(q: Queryable, lessonUuid: string, lock = false): Promise<LessonRow> {
  const { rows } = await q.query<LessonRow>(
    `${LESSON_SELECT} where l.uuid = $1${lock ? ' for update of l' : ''}`,
    [lessonUuid],
  );
  if (!rows[0]) throw notFound('No such lesson');
  return rows[0];
}

export async function listCourses(db: Db, user: PortalUser): Promise<ListPage<AuthoredCourse>> {
  requireAuthor(user);
  return wholeList(await courseRows(db, null));
}

export async function createCourse(
  db: Db,
  rules: AuthoringRules,
  user: PortalUser,
  input: CourseInput,
): Promise<AuthoredCourse> {
  requireAuthor(user);
  const course = checkCourse(rules, input);
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ uuid: string }>(
      `insert into courses (position, title, audience, audience_plans)
       values ((select coalesce(max(position), 0) + 10 from courses), $1, $2, $3) returning uuid`,
      [JSON.stringify(course.title), course.audience, course.audiencePlans],
    );
    return oneCourse(tx, rows[0]!.uuid);
  });
}

export async function updateCourse(
  db: Db,
  rules: AuthoringRules,
  user: PortalUser,
  courseUuid: string,
  input: CourseInput,
): Promise<AuthoredCourse> {
  requireAuthor(user);
  const course = checkCourse(rules, input);
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `update courses set title = $2, audience = $3, audience_plans = $4, updated_at = now() where uuid = $1`,
      [courseUuid, JSON.stringify(course.title), course.audience, course.audiencePlans],
    );
    if (!rowCount) throw notFound('No such course');
    return oneCourse(tx, courseUuid);
  });
}

/** The new order must name every lesson of the course exactly once (422 otherwise: someone else added one). */
export async function orderLessons(
  db: Db,
  user: PortalUser,
  courseUuid: string,
  { lessonUuids }: CourseOrderInput,
): Promise<AuthoredCourse> {
  requireAuthor(user);
  return db.transaction(async (tx) => {
    const { rows: course } = await tx.query('select 1 from courses where uuid = $1 for update', [courseUuid]);
    if (!course[0]) throw notFound('No such course');
    const { rows } = await tx.query<{ uuid: string }>('select uuid from lessons where course_uuid = $1', [
      courseUuid,
    ]);
    const current = new Set(rows.map((row) => row.uuid));
    const named = new Set(lessonUuids);
    if (
      named.size !== lessonUuids.length ||
      named.size !== current.size ||
      lessonUuids.some((uuid) => !current.has(uuid))
    ) {
      throw invalid('order', { lessonUuids: 'courseOrderStale' });
    }
    await tx.query(
      `update lessons l set position = o.position * 10
         from unnest($2::uuid[]) with ordinality as o(uuid, position)
        where l.uuid = o.uuid and l.course_uuid = $1`,
      [courseUuid, lessonUuids],
    );
    return oneCourse(tx, courseUuid);
  });
}

export async function getLesson(db: Db, user: PortalUser, lessonUuid: string): Promise<AuthoredLesson> {
  requireAuthor(user);
  return toLesson(await lessonRow(db, lessonUuid));
}

async function writeDraft(tx: Queryable, user: PortalUser, lessonUuid: string, draft: LessonDraftInput) {
  await tx.query(
    `insert into lesson_drafts (lesson_uuid, minutes, title, body, updated_by) values ($1, $2, $3, $4, $5)
     on conflict (lesson_uuid) do update
       set minutes = excluded.minutes, title = excluded.title, body = excluded.body,
           updated_by = excluded.updated_by, updated_at = now()`,
    [lessonUuid, draft.minutes, JSON.stringify(draft.title), JSON.stringify(draft.body), user.uuid],
  );
}

export async function createLesson(
  db: Db,
  user: PortalUser,
  courseUuid: string,
  input: LessonDraftInput,
): Promise<AuthoredLesson> {
  requireAuthor(user);
  const draft = checkDraft(input);
  return db.transaction(async (tx) => {
    const { rows: course } = await tx.query('select 1 from courses where uuid = $1 for update', [courseUuid]);
    if (!course[0]) throw notFound('No such course');
    const { rows: count } = await tx.query<{ n: number | string }>(
      'select count(*) as n from lessons where course_uuid = $1',
      [courseUuid],
    );
    if (Number(count[0]!.n) >= COURSE_LESSONS_MAX) throw invalid('lesson', { courseUuid: 'courseFull' });
    const { rows } = await tx.query<{ uuid: string }>(
      `insert into lessons (course_uuid, position, minutes)
       values ($1, (select coalesce(max(position), 0) + 10 from lessons where course_uuid = $1), $2)
       returning uuid`,
      [courseUuid, draft.minutes],
    );
    const uuid = rows[0]!.uuid;
    await writeDraft(tx, user, uuid, draft);
    return toLesson(await lessonRow(tx, uuid));
  });
}

export async function saveDraft(
  db: Db,
  user: PortalUser,
  lessonUuid: string,
  input: LessonDraftInput,
): Promise<AuthoredLesson> {
  requireAuthor(user);
  const draft = checkDraft(input);
  return db.transaction(async (tx) => {
    await lessonRow(tx, lessonUuid, true);
    await writeDraft(tx, user, lessonUuid, draft);
    return toLesson(await lessonRow(tx, lessonUuid));
  });
}

/**
 * Publishes the draft as the lesson's next version: its minutes and texts replace the published ones (a language
 * left empty is dropped, so learners read German there), the draft goes. Nothing to publish: answers as it is.
 */
export async function publishLesson(db: Db, user: PortalUser, lessonUuid: string): Promise<AuthoredLesson> {
  requireAuthor(user);
  return db.transaction(async (tx) => {
    const row = await lessonRow(tx, lessonUuid, true);
    if (!row.draft_title || !row.draft_body) {
      // Nothing new to publish: a lesson taken back is published again as it was.
      if (row.unpublished_at === null || row.version === 0) return toLesson(row);
      await tx.query('update lessons set unpublished_at = null where uuid = $1', [lessonUuid]);
      return toLesson(await lessonRow(tx, lessonUuid));
    }
    const draft = checkDraft({
      minutes: row.draft_minutes ?? row.minutes,
      title: row.draft_title,
      body: row.draft_body,
    });
    await tx.query('delete from lesson_translations where lesson_uuid = $1', [lessonUuid]);
    for (const l of LANGUAGES) {
      if (draft.title[l] === '') continue;
      await tx.query(
        'insert into lesson_translations (lesson_uuid, language, title, content_md) values ($1, $2, $3, $4)',
        [lessonUuid, l, draft.title[l], draft.body[l]],
      );
    }
    await tx.query(
      `update lessons set minutes = $2, version = version + 1, published_at = now(), published_by = $3,
                         unpublished_at = null
        where uuid = $1`,
      [lessonUuid, draft.minutes, user.uuid],
    );
    await tx.query('delete from lesson_drafts where lesson_uuid = $1', [lessonUuid]);
    return toLesson(await lessonRow(tx, lessonUuid));
  });
}

/** Takes a published lesson back: learners no longer see it, their progress stays. A draft never published: as is. */
export async function unpublishLesson(db: Db, user: PortalUser, lessonUuid: string): Promise<AuthoredLesson> {
  requireAuthor(user);
  return db.transaction(async (tx) => {
    await lessonRow(tx, lessonUuid, true);
    await tx.query(
      'update lessons set unpublished_at = coalesce(unpublished_at, now()) where uuid = $1 and version > 0',
      [lessonUuid],
    );
    return toLesson(await lessonRow(tx, lessonUuid));
  });
}

/** Takes a course back (learners see none of its lessons; progress stays), or publishes it again. */
export async function setCoursePublished(
  db: Db,
  user: PortalUser,
  courseUuid: string,
  published: boolean,
): Promise<AuthoredCourse> {
  requireAuthor(user);
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `update courses set unpublished_at = case when $2::boolean then null else coalesce(unpublished_at, now()) end,
              updated_at = now()
        where uuid = $1`,
      [courseUuid, published],
    );
    if (!rowCount) throw notFound('No such course');
    return oneCourse(tx, courseUuid);
  });
}

/**
 * Deletes the lessons' rows (with their drafts, translations, images' rows and everyone's progress in them, by the
 * foreign keys) and their images' files; a demo lesson's slug is remembered so the demo seed does not bring it back.
 * Answers what to do once the transaction has committed (remove the image files' bytes).
 */
async function deleteLessons(
  tx: Queryable,
  files: FileStore,
  where: { lessonUuid: string } | { courseUuid: string },
): Promise<Array<() => Promise<void>>> {
  const [column, value] =
    'lessonUuid' in where ? ['l.uuid', where.lessonUuid] : ['l.course_uuid', where.courseUuid];
  const { rows: images } = await tx.query<{ file_uuid: string }>(
    `select i.file_uuid from lesson_images i join lessons l on l.uuid = i.lesson_uuid where ${column} = $1`,
    [value],
  );
  const cleanups: Array<() => Promise<void>> = [];
  for (const image of images) cleanups.push(await files.remove(tx, null, image.file_uuid));
  await tx.query(
    `insert into deleted_seed_slugs (slug)
     select l.slug from lessons l where ${column} = $1 and l.slug is not null on conflict do nothing`,
    [value],
  );
  await tx.query(`delete from lessons l where ${column} = $1`, [value]);
  return cleanups;
}

async function runAll(cleanups: Array<() => Promise<void>>): Promise<void> {
  for (const cleanup of cleanups) await cleanup();
}

/** Deletes a lesson, its draft, its images and everyone's progress in it (decision 249). */
export async function deleteLesson(db: Db, files: FileStore, user: PortalUser, lessonUuid: string) {
  requireAuthor(user);
  const cleanups = await db.transaction(async (tx) => {
    await lessonRow(tx, lessonUuid, true);
    return deleteLessons(tx, files, { lessonUuid });
  });
  await runAll(cleanups);
}

/** Deletes a course with its lessons, their images and everyone's progress in them (decision 249). */
export async function deleteCourse(db: Db, files: FileStore, user: PortalUser, courseUuid: string) {
  requireAuthor(user);
  const cleanups = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ slug: string | null }>(
      'select slug from courses where uuid = $1 for update',
      [courseUuid],
    );
    if (!rows[0]) throw notFound('No such course');
    const done = await deleteLessons(tx, files, { courseUuid });
    if (rows[0].slug) {
      await tx.query('insert into deleted_seed_slugs (slug) values ($1) on conflict do nothing', [
        rows[0].slug,
      ]);
    }
    await tx.query('delete from courses where uuid = $1', [courseUuid]);
    return done;
  });
  await runAll(cleanups);
}

interface CountRow {
  lesson_uuid: string | null;
  started_people: number | string;
  started_accounts: number | string;
  finished_people: number | string;
  finished_accounts: number | string;
}

/**
 * Counts of the course's published lessons: per lesson who opened and who completed it, and for the course who
 * opened any and who completed all. A person is counted per account they learn in; no one is named.
 */
export async function courseProgress(db: Db, user: PortalUser, courseUuid: string): Promise<CourseProgress> {
  requireAuthor(user);
  const course = await oneCourse(db, courseUuid);
  const published = course.lessons.filter((l) => l.version > 0);
  const { rows } = await db.query<CountRow>(
    `with p as (
       select p.user_uuid, p.account_uuid, p.lesson_uuid, p.opened_at, p.completed_at
         from lesson_progress p join lessons l on l.uuid = p.lesson_uuid
        where l.course_uuid = $1 and l.published_at is not null
     ), people as (
       select user_uuid, account_uuid, count(completed_at) as done
         from p group by user_uuid, account_uuid
     )
     select lesson_uuid,
            count(*) filter (where opened_at is not null or completed_at is not null) as started_people,
            count(distinct account_uuid) as started_accounts,
            count(completed_at) as finished_people,
            count(distinct account_uuid) filter (where completed_at is not null) as finished_accounts
       from p group by lesson_uuid
     union all
     select null,
            count(*), count(distinct account_uuid),
            count(*) filter (where done >= $2), count(distinct account_uuid) filter (where done >= $2)
       from people`,
    [courseUuid, Math.max(published.length, 1)],
  );
  const counts = (row: CountRow | undefined) => ({
    startedPeople: Number(row?.started_people ?? 0),
    startedAccounts: Number(row?.started_accounts ?? 0),
    finishedPeople: Number(row?.finished_people ?? 0),
    finishedAccounts: Number(row?.finished_accounts ?? 0),
  });
  return {
    courseUuid,
    ...counts(rows.find((row) => row.lesson_uuid === null)),
    lessons: published.map((l) => ({
      uuid: l.uuid,
      title: l.title,
      ...counts(rows.find((row) => row.lesson_uuid === l.uuid)),
    })),
  };
}

/** The Markdown as the lesson page would show it: the same renderer and sanitiser (lesson images too). */
export function previewLesson(user: PortalUser, markdown: string): { html: string } {
  requireAuthor(user);
  return { html: renderMarkdown(markdown, { lessonImages: true }) };
}

/** What a lesson image's file is kept as in the store. */
const LESSON_IMAGE_PURPOSE = 'lesson-image';

const IMAGE_PROBLEMS = {
  fileTooLarge: 'lessonImageTooLarge',
  fileType: 'lessonImageType',
  fileEmpty: 'lessonImageEmpty',
} as const;

/** The upload's bytes; base64 that does not round-trip is no image at all. */
function decodeImage(content: string): Buffer {
  const bytes = Buffer.from(content, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== content.replace(/\s/g, '').replace(/=+$/, '')) {
    throw invalid('image', { file: IMAGE_PROBLEMS.fileType });
  }
  return bytes;
}

/**
 * Keeps an image for a lesson in the one file store (a file of no account): PNG, JPEG, WebP or GIF by its content,
 * up to LESSON_IMAGE_MAX_BYTES, else a 422 on `file`. Answers the Markdown that shows it.
 */
export async function uploadLessonImage(
  db: Db,
  files: FileStore,
  user: PortalUser,
  lessonUuid: string,
  body: LessonImageUpload,
): Promise<LessonImage> {
  requireAuthor(user);
  let upload;
  try {
    upload = await checkUpload(decodeImage(body.content), body.fileName, {
      types: LESSON_IMAGE_TYPES,
      maxBytes: LESSON_IMAGE_MAX_BYTES,
    });
  } catch (error) {
    if (error instanceof UploadRefused) throw invalid('image', { file: IMAGE_PROBLEMS[error.problem] });
    throw error;
  }
  return db.transaction(async (tx) => {
    await lessonRow(tx, lessonUuid, true);
    const stored = await files.put(tx, {
      ...upload,
      accountUuid: null,
      purpose: LESSON_IMAGE_PURPOSE,
      createdBy: user.uuid,
    });
    await tx.query('insert into lesson_images (file_uuid, lesson_uuid) values ($1, $2)', [
      stored.uuid,
      lessonUuid,
    ]);
    // The name without what Markdown would read as the end of the alternative text.
    const alt = stored.fileName.replace(/\.[^.]*$/, '').replace(/[[\]\\]/g, ' ');
    return {
      uuid: stored.uuid,
      lessonUuid,
      fileName: stored.fileName,
      contentType: stored.contentType as LessonImage['contentType'],
      size: stored.size,
      markdown: `![${alt}](${LESSON_IMAGE_PATH}${stored.uuid})`,
    };
  });
}

/** A lesson image for the editor's preview (any lesson's: teachers see every lesson); 404 for any other file. */
export async function readAuthorImage(db: Db, files: FileStore, user: PortalUser, imageUuid: string) {
  requireAuthor(user);
  const found = await readLessonImage(db, files, imageUuid, null);
  if (!found) throw notFound('No such image');
  return found;
}

/**
 * A lesson image's file, when it is an image of `lessonUuid` (of any lesson with null), else null. The caller
 * decides first whether its reader may read that lesson.
 */
export async function readLessonImage(
  q: Queryable,
  files: FileStore,
  imageUuid: string,
  lessonUuid: string | null,
) {
  const { rows } = await q.query(
    'select 1 from lesson_images where file_uuid = $1 and ($2::uuid is null or lesson_uuid = $2::uuid)',
    [imageUuid, lessonUuid],
  );
  return rows[0] ? files.read(q, null, imageUuid) : null;
}
