import Type from 'typebox';
import { DateTime, Entity, ErrorBody, List, Uuid, type UserRole } from './common.ts';
import { FileBytes, FileUpload } from './company.ts';
import { allowsUserRole, defineRoute, type UserRoleRule } from './route.ts';

// Lesson authoring: the provider's teachers write the courses the lesson page shows (issue 26 item 2). A course
// holds lessons in order; each lesson has a title, minutes and a Markdown text per language (German required, the
// others falling back to German). A teacher edits a draft; learners read only the published version, and
// publishing a new version keeps everyone's progress. A course is offered to every account or to the accounts on
// given plans. The overview counts who started and finished a course, never naming anyone.

/**
 * The user roles that write lessons: TEACHER and PORTAL_ADMIN only. The support roles rank between them in SPEC's
 * order but do not write lessons (decision 249).
 */
export const LESSON_AUTHOR_ROLES = ['TEACHER', 'PORTAL_ADMIN'] as const satisfies readonly UserRole[];

/** Every authoring route's rule (the server enforces it before the handler, the web's route table mirrors it). */
const AUTHOR: UserRoleRule = { oneOf: LESSON_AUTHOR_ROLES, denied: 'Writing lessons needs the TEACHER role' };

/** Whether a user role may write courses and lessons. */
export function mayAuthorLessons(role: UserRole | null | undefined): boolean {
  return allowsUserRole(AUTHOR, role);
}

export const COURSE_TITLE_MAX = 120;
export const LESSON_TITLE_MAX = 120;
export const LESSON_BODY_MAX = 20_000;
export const LESSON_MINUTES_MAX = 600;
/** Most lessons in one course, and most plans a course is offered to. */
export const COURSE_LESSONS_MAX = 200;
export const COURSE_PLANS_MAX = 50;

/** A lesson's image: PNG, JPEG, WebP or GIF (read from the content) up to 2 MB. */
export const LESSON_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const LESSON_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
/**
 * The one address a lesson's text may show an image from (`![alt](/api/lesson-authoring/v1/images/<uuid>)`): the
 * server's sanitiser drops every other image, and the pages load these through the API client.
 */
export const LESSON_IMAGE_PATH = '/api/lesson-authoring/v1/images/';

/** Offered to every account, or to the accounts whose subscription is on one of the named plans. */
export const COURSE_AUDIENCES = ['all', 'plans'] as const;
export type CourseAudience = (typeof COURSE_AUDIENCES)[number];

/**
 * `draft`: never published, learners do not see it; `published`: learners read what the teacher sees;
 * `changed`: published, with a draft not yet published (learners read the published version); `unpublished`:
 * published once, taken back: learners do not see it, their progress stays.
 */
export const LESSON_STATES = ['draft', 'published', 'changed', 'unpublished'] as const;
export type LessonState = (typeof LESSON_STATES)[number];

const text = (max: number) => Type.String({ maxLength: max });
/** One text per language; German required (not empty, the server checks), an empty one falls back to German. */
const texts = (max: number) =>
  Type.Object(
    { de: text(max), en: text(max), fr: text(max), it: text(max) },
    { additionalProperties: false },
  );
export const CourseTitles = texts(COURSE_TITLE_MAX);
export const LessonTitles = texts(LESSON_TITLE_MAX);
export const LessonBodies = texts(LESSON_BODY_MAX);
export type LessonTexts = Type.Static<typeof LessonTitles>;

/** What a teacher writes about a course: its title and to whom it is offered. */
export const CourseInput = Type.Object(
  {
    title: CourseTitles,
    audience: Type.Enum(COURSE_AUDIENCES),
    /** Plan codes of the catalogue; empty for `all`. */
    audiencePlans: Type.Array(Type.String({ maxLength: 64 }), { maxItems: COURSE_PLANS_MAX }),
  },
  { additionalProperties: false },
);
export type CourseInput = Type.Static<typeof CourseInput>;

/** What a teacher writes about a lesson (its draft): minutes, and a title and Markdown text per language. */
export const LessonDraftInput = Type.Object(
  {
    minutes: Type.Integer({ minimum: 1, maximum: LESSON_MINUTES_MAX }),
    title: LessonTitles,
    /** The lessons' Markdown, rendered and sanitised by the server as the lesson page shows it. */
    body: LessonBodies,
  },
  { additionalProperties: false },
);
export type LessonDraftInput = Type.Static<typeof LessonDraftInput>;

/** A lesson in the teacher's course list. */
export const AuthoredLessonSummary = Type.Object({
  uuid: Uuid,
  /** The German title of the draft (or of the published version when there is no draft). */
  title: Type.String(),
  /** Its title in every language ('' where not written: the list shows German there). */
  titles: LessonTitles,
  minutes: Type.Integer({ minimum: 1 }),
  state: Type.Enum(LESSON_STATES),
  /** Published versions so far; 0 for a lesson never published. */
  version: Type.Integer({ minimum: 0 }),
  publishedAt: Type.Union([DateTime, Type.Null()]),
});
export type AuthoredLessonSummary = Type.Static<typeof AuthoredLessonSummary>;

/** A course as the teacher sees it: title, offer and its lessons in order. */
export const AuthoredCourse = Type.Object({
  uuid: Uuid,
  ...CourseInput.properties,
  /** False once unpublished: learners see none of its lessons (their progress stays). */
  published: Type.Boolean(),
  lessons: Type.Array(AuthoredLessonSummary),
});
export type AuthoredCourse = Type.Static<typeof AuthoredCourse>;

/** One lesson in the editor: the draft (or the published version when there is none) and its state. */
export const AuthoredLesson = Type.Object({
  ...AuthoredLessonSummary.properties,
  courseUuid: Uuid,
  ...LessonDraftInput.properties,
});
export type AuthoredLesson = Type.Static<typeof AuthoredLesson>;

/** The new order of a course's lessons: every lesson of the course exactly once. */
export const CourseOrderInput = Type.Object(
  { lessonUuids: Type.Array(Uuid, { maxItems: COURSE_LESSONS_MAX }) },
  { additionalProperties: false },
);
export type CourseOrderInput = Type.Static<typeof CourseOrderInput>;

/** How many people (in how many accounts) started and finished: counts only, never names. */
const Counts = {
  startedPeople: Type.Integer({ minimum: 0 }),
  startedAccounts: Type.Integer({ minimum: 0 }),
  finishedPeople: Type.Integer({ minimum: 0 }),
  finishedAccounts: Type.Integer({ minimum: 0 }),
};

/**
 * A course's progress: started = opened at least one of its published lessons; finished = completed every one of
 * them. Per lesson: opened and completed. A person counts once per account they learn in.
 */
export const CourseProgress = Type.Object({
  courseUuid: Uuid,
  ...Counts,
  lessons: Type.Array(Type.Object({ uuid: Uuid, title: Type.String(), ...Counts })),
});
export type CourseProgress = Type.Static<typeof CourseProgress>;

/** A Markdown text to see as the lesson page shows it. */
export const LessonPreviewInput = Type.Object(
  { markdown: Type.String({ maxLength: LESSON_BODY_MAX }) },
  { additionalProperties: false },
);
export const LessonPreview = Type.Object({
  /** Rendered and sanitised by the same gate as the lesson page's text. */
  html: Type.String(),
});

export const LessonImageUpload = FileUpload(LESSON_IMAGE_MAX_BYTES);
export type LessonImageUpload = Type.Static<typeof LessonImageUpload>;

/** An image kept for a lesson; `markdown` is what the editor inserts at the cursor. */
export const LessonImage = Type.Object({
  uuid: Uuid,
  lessonUuid: Uuid,
  fileName: Type.String(),
  contentType: Type.Enum(LESSON_IMAGE_TYPES),
  size: Type.Integer({ minimum: 1 }),
  /** `![name](/api/lesson-authoring/v1/images/<uuid>)` */
  markdown: Type.String(),
});
export type LessonImage = Type.Static<typeof LessonImage>;

const CourseParams = Type.Object({ courseUuid: Uuid });
const LessonParams = Type.Object({ lessonUuid: Uuid });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const tags = ['lesson-authoring'];

/** The teachers' side: TEACHER and PORTAL_ADMIN (`userRole`, 403 for everyone else). */
export const lessonAuthoringRoutes = {
  listAuthoredCourses: defineRoute({
    method: 'GET',
    path: '/lesson-authoring/v1/courses',
    summary: 'Every course with its offer and its lessons in order, each with its draft state (TEACHER)',
    tags,
    userRole: AUTHOR,
    response: { 200: List(AuthoredCourse), ...errors },
  }),
  createCourse: defineRoute({
    method: 'POST',
    path: '/lesson-authoring/v1/courses',
    summary: 'Start a course, after the others (TEACHER)',
    tags,
    userRole: AUTHOR,
    body: CourseInput,
    response: { 201: Entity(AuthoredCourse), ...errors },
  }),
  updateCourse: defineRoute({
    method: 'PUT',
    path: '/lesson-authoring/v1/courses/{courseUuid}',
    summary: "Change a course's title and to whom it is offered (TEACHER)",
    tags,
    userRole: AUTHOR,
    params: CourseParams,
    body: CourseInput,
    response: { 200: Entity(AuthoredCourse), ...errors },
  }),
  orderCourseLessons: defineRoute({
    method: 'PUT',
    path: '/lesson-authoring/v1/courses/{courseUuid}/order',
    summary: "Put a course's lessons in a new order (TEACHER)",
    tags,
    userRole: AUTHOR,
    params: CourseParams,
    body: CourseOrderInput,
    response: { 200: Entity(AuthoredCourse), ...errors },
  }),
  unpublishCourse: defineRoute({
    method: 'DELETE',
    path: '/lesson-authoring/v1/courses/{courseUuid}/publication',
    summary: 'Take a course back: learners no longer see its lessons; their progress stays (TEACHER)',
    tags,
    userRole: AUTHOR,
    params: CourseParams,
    response: { 200: Entity(AuthoredCourse), ...errors },
  }),
  publishCourse: defineRoute({
    method: 'POST',
    path: '/lesson-authoring/v1/courses/{courseUuid}/publication',
    summary: 'Publish a course taken back: learners see its published lessons again (TEACHER)',
    tags,
    userRole: AUTHOR,
    params: CourseParams,
    response: { 200: Entity(AuthoredCourse), ...errors },
  }),
  deleteCourse: defineRoute({
    method: 'DELETE',
    path: '/lesson-authoring/v1/courses/{courseUuid}',
    summary: "Delete a course with its lessons, their images and everyone's progress in them (TEACHER)",
    tags,
    userRole: AUTHOR,
    params: CourseParams,
    response: { 204: Type.Null(), ...errors },
  }),
  getCourseProgress: defineRoute({
    method: 'GET',
    path: '/lesson-authoring/v1/courses/{courseUuid}/progress',
    summary: 'How many people in how many accounts started and finished the course and each lesson (TEACHER)',
    tags,
    userRole: AUTHOR,
    params: CourseParams,
    response: { 200: Entity(CourseProgress), ...errors },
  }),
  createLesson: defineRoute({
    method: 'POST',
    path: '/lesson-authoring/v1/courses/{courseUuid}/lessons',
    summary: 'Write a new lesson at the end of the course, as a draft learners do not see (TEACHER)',
    tags,
    userRole: AUTHOR,
    params: CourseParams,
    body: LessonDraftInput,
    response: { 201: Entity(AuthoredLesson), ...errors },
  }),
  getAuthoredLesson: defineRoute({
    method: 'GET',
    path: '/lesson-authoring/v1/lessons/{lessonUuid}',
    summary: 'A lesson in the editor: its draft, or its published version when it has no draft (TEACHER)',
    tags,
    userRole: AUTHOR,
    params: LessonParams,
    response: { 200: Entity(AuthoredLesson), ...errors },
  }),
  saveLessonDraft: defineRoute({
    method: 'PUT',
    path: '/lesson-authoring/v1/lessons/{lessonUuid}',
    summary: "Save a lesson's draft; learners keep reading the published version (TEACHER)",
    tags,
    userRole: AUTHOR,
    params: LessonParams,
    body: LessonDraftInput,
    response: { 200: Entity(AuthoredLesson), ...errors },
  }),
  publishLesson: defineRoute({
    method: 'POST',
    path: '/lesson-authoring/v1/lessons/{lessonUuid}/publication',
    summary:
      "Publish a lesson's draft as its new version, or a lesson taken back as it was; everyone's progress stays (TEACHER)",
    tags,
    userRole: AUTHOR,
    params: LessonParams,
    response: { 200: Entity(AuthoredLesson), ...errors },
  }),
  uploadLessonImage: defineRoute({
    method: 'POST',
    path: '/lesson-authoring/v1/lessons/{lessonUuid}/images',
    summary: "Keep an image for a lesson's text: PNG, JPEG, WebP or GIF by its content, up to 2 MB (TEACHER)",
    tags,
    userRole: AUTHOR,
    params: LessonParams,
    body: LessonImageUpload,
    response: { 201: Entity(LessonImage), ...errors },
  }),
  getLessonImage: defineRoute({
    method: 'GET',
    path: '/lesson-authoring/v1/images/{imageUuid}',
    summary: "A lesson's image, for the editor's preview (TEACHER)",
    tags,
    userRole: AUTHOR,
    params: Type.Object({ imageUuid: Uuid }),
    response: { 200: FileBytes, ...errors },
  }),
  unpublishLesson: defineRoute({
    method: 'DELETE',
    path: '/lesson-authoring/v1/lessons/{lessonUuid}/publication',
    summary: 'Take a lesson back: learners no longer see it; their progress stays (TEACHER)',
    tags,
    userRole: AUTHOR,
    params: LessonParams,
    response: { 200: Entity(AuthoredLesson), ...errors },
  }),
  deleteLesson: defineRoute({
    method: 'DELETE',
    path: '/lesson-authoring/v1/lessons/{lessonUuid}',
    summary: "Delete a lesson with its draft, its images and everyone's progress in it (TEACHER)",
    tags,
    userRole: AUTHOR,
    params: LessonParams,
    response: { 204: Type.Null(), ...errors },
  }),
  previewLesson: defineRoute({
    method: 'POST',
    path: '/lesson-authoring/v1/preview',
    summary: 'A Markdown text rendered and sanitised as the lesson page shows it (TEACHER)',
    tags,
    userRole: AUTHOR,
    body: LessonPreviewInput,
    response: { 200: Entity(LessonPreview), ...errors },
  }),
};
