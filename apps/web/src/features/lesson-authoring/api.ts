// Lesson authoring, its data layer: the courses with their lessons' draft states, one lesson in the editor, the
// preview through the server's renderer, and what a teacher does (save, publish, reorder, offer). Every change
// reads the course list anew; the forms show their field errors themselves (meta.silentError).
import { useCallback } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  lessonAuthoringRoutes as routes,
  type AuthoredLesson,
  type CourseInput,
  type LessonDraftInput,
} from '@portal/contract/lesson-authoring';
import { apiFile, apiRequest } from '@/api/client.ts';
import { dataUrl } from '@/api/data-url.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

const ROOT = 'lesson-authoring';

export const coursesQuery = () =>
  queryOptions({
    queryKey: [ROOT, 'courses'],
    queryFn: async ({ signal }) => (await apiRequest(routes.listAuthoredCourses, { signal })).data,
    staleTime: 0,
  });

export const courseProgressQuery = (courseUuid: string) =>
  queryOptions({
    queryKey: [ROOT, 'progress', courseUuid],
    queryFn: async ({ signal }) =>
      (await apiRequest(routes.getCourseProgress, { params: { courseUuid }, signal })).data,
    staleTime: 0,
  });

export const authoredLessonQuery = (lessonUuid: string) =>
  queryOptions({
    queryKey: [ROOT, 'lesson', lessonUuid],
    queryFn: async ({ signal }) =>
      (await apiRequest(routes.getAuthoredLesson, { params: { lessonUuid }, signal })).data,
    staleTime: 0,
  });

/** The Markdown as the lesson page shows it, rendered and sanitised by the server (kept while typing on). */
export const previewQuery = (markdown: string) =>
  queryOptions({
    queryKey: [ROOT, 'preview', markdown],
    queryFn: async ({ signal }) =>
      (await apiRequest(routes.previewLesson, { body: { markdown }, signal })).data.html,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });

function useChanged() {
  const queryClient = useQueryClient();
  return (lesson?: AuthoredLesson) => {
    if (lesson) queryClient.setQueryData([ROOT, 'lesson', lesson.uuid], lesson);
    void queryClient.invalidateQueries({ queryKey: [ROOT, 'courses'] });
  };
}

/** Saves a course's title and offer: a new course without uuid. */
export function useSaveCourse() {
  const changed = useChanged();
  const toast = useToast();
  return useMutation({
    mutationFn: async ({ uuid, body }: { uuid: string | null; body: CourseInput }) =>
      (uuid
        ? await apiRequest(routes.updateCourse, { params: { courseUuid: uuid }, body })
        : await apiRequest(routes.createCourse, { body })
      ).data,
    meta: { silentError: true },
    onSuccess: () => {
      changed();
      toast.success(later('lessonAuthoring.courseSaved'));
    },
  });
}

export function useOrderLessons() {
  const changed = useChanged();
  return useMutation({
    mutationFn: async ({ courseUuid, lessonUuids }: { courseUuid: string; lessonUuids: string[] }) =>
      (await apiRequest(routes.orderCourseLessons, { params: { courseUuid }, body: { lessonUuids } })).data,
    onSettled: () => changed(),
  });
}

/** Saves a lesson's draft: a new lesson of `courseUuid` without uuid. */
export function useSaveLesson() {
  const changed = useChanged();
  return useMutation({
    mutationFn: async (input: { uuid: string | null; courseUuid: string; body: LessonDraftInput }) =>
      (input.uuid
        ? await apiRequest(routes.saveLessonDraft, { params: { lessonUuid: input.uuid }, body: input.body })
        : await apiRequest(routes.createLesson, {
            params: { courseUuid: input.courseUuid },
            body: input.body,
          })
      ).data,
    meta: { silentError: true },
    onSuccess: (lesson) => changed(lesson),
  });
}

export function usePublishLesson() {
  const changed = useChanged();
  const toast = useToast();
  return useMutation({
    mutationFn: async (lessonUuid: string) =>
      (await apiRequest(routes.publishLesson, { params: { lessonUuid } })).data,
    onSuccess: (lesson) => {
      changed(lesson);
      toast.success(later('lessonAuthoring.published'));
    },
  });
}

type LaterKey = Parameters<typeof later<'messages'>>[0];

/** A change from a row's menu: the list reads anew, a toast says what happened. */
function useRowChange<T>(run: (input: T) => Promise<unknown>, done: (input: T) => LaterKey) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: run,
    onSuccess: (_data, input) => {
      void queryClient.invalidateQueries({ queryKey: [ROOT] });
      toast.success(later(done(input)));
    },
  });
}

/** Takes a lesson back, or publishes it again as it was. */
export function useLessonPublished() {
  return useRowChange(
    ({ lessonUuid, published }: { lessonUuid: string; published: boolean }) =>
      apiRequest(published ? routes.publishLesson : routes.unpublishLesson, { params: { lessonUuid } }),
    ({ published }) =>
      published ? 'lessonAuthoring.actions.lessonRepublished' : 'lessonAuthoring.actions.lessonUnpublished',
  );
}

/** Takes a course back, or publishes it again. */
export function useCoursePublished() {
  return useRowChange(
    ({ courseUuid, published }: { courseUuid: string; published: boolean }) =>
      apiRequest(published ? routes.publishCourse : routes.unpublishCourse, { params: { courseUuid } }),
    ({ published }) =>
      published ? 'lessonAuthoring.actions.courseRepublished' : 'lessonAuthoring.actions.courseUnpublished',
  );
}

export function useDeleteLesson() {
  return useRowChange(
    (lessonUuid: string) => apiRequest(routes.deleteLesson, { params: { lessonUuid } }),
    () => 'lessonAuthoring.actions.lessonDeleted',
  );
}

export function useDeleteCourse() {
  return useRowChange(
    (courseUuid: string) => apiRequest(routes.deleteCourse, { params: { courseUuid } }),
    () => 'lessonAuthoring.actions.courseDeleted',
  );
}

/** The file's bytes in base64, as the upload sends them. */
function base64Of(file: File): Promise<string> {
  return dataUrl(file).then((url) => url.slice(url.indexOf(',') + 1));
}

/** Keeps an image for the lesson; the answer carries the Markdown to insert. The editor shows the field error. */
export function useUploadLessonImage(lessonUuid: string) {
  return useMutation({
    mutationFn: async (file: File) =>
      (
        await apiRequest(routes.uploadLessonImage, {
          params: { lessonUuid },
          body: { fileName: file.name, content: await base64Of(file) },
        })
      ).data,
    meta: { silentError: true },
  });
}

/** Loads lesson images for the preview, each once. */
export function useAuthorImages() {
  const queryClient = useQueryClient();
  return useCallback(
    (imageUuid: string) =>
      queryClient.fetchQuery({
        queryKey: [ROOT, 'image', imageUuid],
        queryFn: async ({ signal }) =>
          dataUrl((await apiFile(routes.getLessonImage, { params: { imageUuid }, signal })).blob),
        staleTime: Infinity,
      }),
    [queryClient],
  );
}
