import Type from 'typebox';
import { DateTime, Entity, ErrorBody, LanguageSchema, Uuid, type Language } from './common.ts';
import { FileBytes } from './company.ts';
import { defineRoute } from './route.ts';

// Lessons: the provider's course for an account (ncr/lesson/{accountUuid}) and each person's own progress in it.
// The course is the lessons offered to every account plus those offered to this account only, in their order;
// each reads in the reader's language, German when a lesson has no text in it. Progress belongs to one person in
// one account: nobody sees another person's progress.

/** The language a lesson falls back to when it has no text in the reader's. */
export const LESSON_FALLBACK_LANGUAGE: Language = 'de';

/** One lesson in the course outline, with the caller's progress in it. */
export const LessonSummary = Type.Object({
  uuid: Uuid,
  /** 1, 2, 3 … in the course's order. */
  number: Type.Integer({ minimum: 1 }),
  title: Type.String(),
  /** Estimated minutes to read it. */
  minutes: Type.Integer({ minimum: 1 }),
  /** The language the title and text are in (the reader's, or German when the lesson lacks it). */
  language: LanguageSchema,
  /** First opened by the caller; null when never opened. */
  openedAt: Type.Union([DateTime, Type.Null()]),
  completedAt: Type.Union([DateTime, Type.Null()]),
});
export type LessonSummary = Type.Static<typeof LessonSummary>;

/** The course of an account as the caller sees it: the outline, the overall progress and where to go on. */
export const LessonCourse = Type.Object({
  accountName: Type.String(),
  lessons: Type.Array(LessonSummary),
  /** Lessons the caller completed. */
  completed: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
  /** Estimated minutes of the lessons not yet completed. */
  minutesLeft: Type.Integer({ minimum: 0 }),
  /**
   * The lesson to go on with: the one last opened while it is not completed, otherwise the next lesson not
   * completed after it (from the start when none follows); the first lesson for a newcomer; null when every
   * lesson is completed.
   */
  resumeLessonUuid: Type.Union([Uuid, Type.Null()]),
});
export type LessonCourse = Type.Static<typeof LessonCourse>;

/** One lesson to read: its text as sanitised HTML, and its neighbours in the course. */
export const LessonDetail = Type.Object({
  ...LessonSummary.properties,
  /** The Markdown text rendered to HTML and sanitised by the server: safe to insert as it is. */
  html: Type.String(),
  previousUuid: Type.Union([Uuid, Type.Null()]),
  nextUuid: Type.Union([Uuid, Type.Null()]),
});
export type LessonDetail = Type.Static<typeof LessonDetail>;

/** The language to read in; the caller's own language when left out. */
export const LessonLanguageQuery = Type.Object(
  { lang: Type.Optional(LanguageSchema) },
  { additionalProperties: false },
);
export type LessonLanguageQuery = Type.Static<typeof LessonLanguageQuery>;

export const LessonParams = Type.Object({ lessonUuid: Uuid });

export const LessonCompletionBody = Type.Object(
  { completed: Type.Boolean() },
  { additionalProperties: false },
);
export type LessonCompletionBody = Type.Static<typeof LessonCompletionBody>;

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
/** Every member of the account reads the course and keeps their own progress. */
const MEMBER = { min: 'EMPLOYEE' } as const;

export const lessonsRoutes = {
  getLessonCourse: defineRoute({
    method: 'GET',
    path: '/lessons/v1/course',
    summary:
      "The account's course: lessons in order with the caller's progress, overall progress, where to resume",
    tags: ['lessons'],
    accountScoped: true,
    accountRole: MEMBER,
    querystring: LessonLanguageQuery,
    response: { 200: Entity(LessonCourse), ...errors },
  }),
  getLesson: defineRoute({
    method: 'GET',
    path: '/lessons/v1/lessons/{lessonUuid}',
    summary: 'One lesson of the course with its text rendered to sanitised HTML',
    tags: ['lessons'],
    accountScoped: true,
    accountRole: MEMBER,
    params: LessonParams,
    querystring: LessonLanguageQuery,
    response: { 200: Entity(LessonDetail), ...errors },
  }),
  getLessonImage: defineRoute({
    method: 'GET',
    path: '/lessons/v1/lessons/{lessonUuid}/images/{imageUuid}',
    summary: 'An image of a lesson the account reads, for every member who may read the lesson',
    tags: ['lessons'],
    accountScoped: true,
    accountRole: MEMBER,
    params: Type.Object({ lessonUuid: Uuid, imageUuid: Uuid }),
    response: { 200: FileBytes, ...errors },
  }),
  markLessonOpened: defineRoute({
    method: 'POST',
    path: '/lessons/v1/lessons/{lessonUuid}/opened',
    summary: 'Record that the caller opened the lesson (the point to resume from); answers the course',
    tags: ['lessons'],
    accountScoped: true,
    accountRole: MEMBER,
    params: LessonParams,
    querystring: LessonLanguageQuery,
    response: { 200: Entity(LessonCourse), ...errors },
  }),
  setLessonCompletion: defineRoute({
    method: 'PUT',
    path: '/lessons/v1/lessons/{lessonUuid}/completion',
    summary: 'Mark the lesson complete or not complete for the caller; answers the course',
    tags: ['lessons'],
    accountScoped: true,
    accountRole: MEMBER,
    params: LessonParams,
    querystring: LessonLanguageQuery,
    body: LessonCompletionBody,
    response: { 200: Entity(LessonCourse), ...errors },
  }),
};
