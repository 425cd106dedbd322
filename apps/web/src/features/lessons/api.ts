// The lessons area's data layer (see features/accounts/api.ts for the shape every area's api.ts follows): the
// course of the account the page's address names (not this tab's account: the lesson page lies outside account
// selection), one lesson, and the hooks that record the reader's own progress. Every read and change names that
// account and the reading language; a change answers the whole course, which replaces the cached one.
import { useCallback } from 'react';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { lessonsRoutes, type Language, type LessonCourse } from '@portal/contract';
import { apiFile, apiRequest } from '@/api/client.ts';
import { dataUrl } from '@/api/data-url.ts';
import { later } from '@/i18n/later.ts';
import { useToast } from '@/ui/toast.tsx';

const courseKey = (accountUuid: string, lang: Language) => ['lessons', accountUuid, lang, 'course'] as const;

/** The course with the reader's progress: read anew on each visit (progress changes in other tabs too). */
export function lessonCourseQuery(accountUuid: string, lang: Language) {
  return queryOptions({
    queryKey: courseKey(accountUuid, lang),
    queryFn: async ({ signal }) =>
      (await apiRequest(lessonsRoutes.getLessonCourse, { accountUuid, query: { lang }, signal })).data,
    staleTime: 0,
  });
}

/** One lesson's text and neighbours; the progress shown comes from the course. */
export function lessonQuery(accountUuid: string, lessonUuid: string, lang: Language) {
  return queryOptions({
    queryKey: ['lessons', accountUuid, lang, 'lesson', lessonUuid] as const,
    queryFn: async ({ signal }) =>
      (
        await apiRequest(lessonsRoutes.getLesson, {
          accountUuid,
          params: { lessonUuid },
          query: { lang },
          signal,
        })
      ).data,
    staleTime: 5 * 60 * 1000,
  });
}

/** Loads the lesson's images (as the page's reader, in the account the address names), each once. */
export function useLessonImages(accountUuid: string, lessonUuid: string) {
  const queryClient = useQueryClient();
  return useCallback(
    (imageUuid: string) =>
      queryClient.fetchQuery({
        queryKey: ['lessons', accountUuid, 'image', lessonUuid, imageUuid],
        queryFn: async ({ signal }) =>
          dataUrl(
            (
              await apiFile(lessonsRoutes.getLessonImage, {
                accountUuid,
                params: { lessonUuid, imageUuid },
                signal,
              })
            ).blob,
          ),
        staleTime: Infinity,
      }),
    [queryClient, accountUuid, lessonUuid],
  );
}

function useStoreCourse(accountUuid: string, lang: Language) {
  const queryClient = useQueryClient();
  return (course: LessonCourse) => queryClient.setQueryData(courseKey(accountUuid, lang), course);
}

/** Records that the reader opened a lesson (where the course resumes next time); quiet, no toast. */
export function useMarkLessonOpened(accountUuid: string, lang: Language) {
  const store = useStoreCourse(accountUuid, lang);
  return useMutation({
    mutationFn: async (lessonUuid: string) =>
      (
        await apiRequest(lessonsRoutes.markLessonOpened, {
          accountUuid,
          params: { lessonUuid },
          query: { lang },
        })
      ).data,
    onSuccess: store,
    meta: { silentError: true },
  });
}

/** Marks a lesson complete or not complete for the reader. */
export function useSetLessonCompletion(accountUuid: string, lang: Language) {
  const store = useStoreCourse(accountUuid, lang);
  const toast = useToast();
  return useMutation({
    mutationFn: async ({ lessonUuid, completed }: { lessonUuid: string; completed: boolean }) =>
      (
        await apiRequest(lessonsRoutes.setLessonCompletion, {
          accountUuid,
          params: { lessonUuid },
          query: { lang },
          body: { completed },
        })
      ).data,
    onSuccess: (course, { completed }) => {
      store(course);
      toast.success(later(completed ? 'lessons.markedComplete' : 'lessons.markedNotComplete'));
    },
  });
}
