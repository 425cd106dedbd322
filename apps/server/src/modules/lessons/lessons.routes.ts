import { lessonsRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import { getCourse, getLesson, markOpened, readerLanguage, setCompletion } from './lessons.service.ts';

/**
 * The lesson page's API: the account's course and one lesson, read by every member in their language, and the
 * caller's own progress (opened, completed). Progress is personal: it is not audited and nobody sees another's.
 */
export function registerLessonsRoutes({ db, route }: ModuleDeps) {
  route(lessonsRoutes.getLessonCourse, {
    handler: async ({ user, account, query }) => ({
      data: await getCourse(db, user, account, readerLanguage(user, query.lang)),
    }),
  });

  route(lessonsRoutes.getLesson, {
    handler: async ({ user, account, params, query }) => ({
      data: await getLesson(db, user, account, params.lessonUuid, readerLanguage(user, query.lang)),
    }),
  });

  route(lessonsRoutes.markLessonOpened, {
    handler: async ({ user, account, params, query }) => ({
      data: await markOpened(db, user, account, {
        lessonUuid: params.lessonUuid,
        language: readerLanguage(user, query.lang),
      }),
    }),
  });

  route(lessonsRoutes.setLessonCompletion, {
    handler: async ({ user, account, params, query, body }) => ({
      data: await setCompletion(db, user, account, {
        lessonUuid: params.lessonUuid,
        language: readerLanguage(user, query.lang),
        completed: body.completed,
      }),
    }),
  });
}
