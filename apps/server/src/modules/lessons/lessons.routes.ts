import { lessonsRoutes } from '@portal/contract';
import { LESSON_IMAGE_MAX_BYTES, lessonAuthoringRoutes } from '@portal/contract/lesson-authoring';
import { notFound } from '../../http/errors.ts';
import { sendFile } from '../../files/files.ts';
import type { ModuleDeps } from '../deps.ts';
import {
  courseProgress,
  createCourse,
  createLesson,
  deleteCourse,
  deleteLesson,
  getLesson as getAuthoredLesson,
  listCourses,
  orderLessons,
  previewLesson,
  publishLesson,
  readAuthorImage,
  readLessonImage,
  saveDraft,
  setCoursePublished,
  unpublishLesson,
  updateCourse,
  uploadLessonImage,
} from './authoring.service.ts';
import {
  assertInCourse,
  getCourse,
  getLesson,
  markOpened,
  readerLanguage,
  setCompletion,
} from './lessons.service.ts';

/** An upload's JSON carries the image in base64 (4 characters per 3 bytes), plus its name. */
const IMAGE_BODY_LIMIT = Math.ceil(LESSON_IMAGE_MAX_BYTES * 1.5);

/**
 * The lesson page's API: the account's course and one lesson, read by every member in their language, and the
 * caller's own progress (opened, completed). Progress is personal: it is not audited and nobody sees another's.
 */
export function registerLessonsRoutes({ db, route, config, files }: ModuleDeps) {
  const rules = { planCodes: config.billing.plans.map((plan) => plan.code) };

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

  // A lesson's image, for whoever may read the lesson in this account (404 for any other image or lesson).
  route(lessonsRoutes.getLessonImage, {
    handler: async (request, reply) => {
      const { lessonUuid, imageUuid } = request.params;
      await assertInCourse(db, request.account.accountUuid, lessonUuid);
      const found = await readLessonImage(db, files, imageUuid, lessonUuid);
      if (!found) throw notFound('No such image');
      return sendFile(request, reply, found);
    },
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

  // The teachers' side (TEACHER and above; each service refuses others with 403).
  const authoring = lessonAuthoringRoutes;
  route(authoring.listAuthoredCourses, { handler: async ({ user }) => listCourses(db, user) });
  route(authoring.createCourse, {
    idempotent: true,
    handler: async ({ user, body }, reply) => {
      const data = await createCourse(db, rules, user, body);
      reply.code(201);
      return { data };
    },
  });
  route(authoring.updateCourse, {
    handler: async ({ user, params, body }) => ({
      data: await updateCourse(db, rules, user, params.courseUuid, body),
    }),
  });
  route(authoring.orderCourseLessons, {
    handler: async ({ user, params, body }) => ({
      data: await orderLessons(db, user, params.courseUuid, body),
    }),
  });
  route(authoring.unpublishCourse, {
    handler: async ({ user, params }) => ({
      data: await setCoursePublished(db, user, params.courseUuid, false),
    }),
  });
  route(authoring.publishCourse, {
    handler: async ({ user, params }) => ({
      data: await setCoursePublished(db, user, params.courseUuid, true),
    }),
  });
  route(authoring.deleteCourse, {
    handler: async ({ user, params }, reply) => {
      await deleteCourse(db, files, user, params.courseUuid);
      reply.code(204);
      return null;
    },
  });
  route(authoring.getCourseProgress, {
    handler: async ({ user, params }) => ({ data: await courseProgress(db, user, params.courseUuid) }),
  });
  route(authoring.createLesson, {
    idempotent: true,
    handler: async ({ user, params, body }, reply) => {
      const data = await createLesson(db, user, params.courseUuid, body);
      reply.code(201);
      return { data };
    },
  });
  route(authoring.getAuthoredLesson, {
    handler: async ({ user, params }) => ({ data: await getAuthoredLesson(db, user, params.lessonUuid) }),
  });
  route(authoring.saveLessonDraft, {
    handler: async ({ user, params, body }) => ({
      data: await saveDraft(db, user, params.lessonUuid, body),
    }),
  });
  route(authoring.publishLesson, {
    handler: async ({ user, params }) => ({ data: await publishLesson(db, user, params.lessonUuid) }),
  });
  route(authoring.unpublishLesson, {
    handler: async ({ user, params }) => ({ data: await unpublishLesson(db, user, params.lessonUuid) }),
  });
  route(authoring.deleteLesson, {
    handler: async ({ user, params }, reply) => {
      await deleteLesson(db, files, user, params.lessonUuid);
      reply.code(204);
      return null;
    },
  });
  route(authoring.uploadLessonImage, {
    bodyLimit: IMAGE_BODY_LIMIT,
    handler: async ({ user, params, body }, reply) => {
      const data = await uploadLessonImage(db, files, user, params.lessonUuid, body);
      reply.code(201);
      return { data };
    },
  });
  route(authoring.getLessonImage, {
    handler: async (request, reply) =>
      sendFile(request, reply, await readAuthorImage(db, files, request.user, request.params.imageUuid)),
  });
  route(authoring.previewLesson, {
    handler: async ({ user, body }) => ({ data: previewLesson(user, body.markdown) }),
  });
}
