import { useTranslation } from 'react-i18next';
import type { AuthoredCourse, AuthoredLessonSummary } from '@portal/contract/lesson-authoring';
import { useConfirm } from '@/ui/confirm.tsx';
import { RowMenu, type RowMenuItem } from '@/ui/row-menu.tsx';
import { useCoursePublished, useDeleteCourse, useDeleteLesson, useLessonPublished } from './api.ts';

/**
 * A lesson's actions: take it back (learners stop seeing it, progress stays) or publish it again, and delete it
 * (with its images and everyone's progress in it) after a confirmation that names it.
 */
export function LessonMenu({ lesson, title }: { lesson: AuthoredLessonSummary; title: string }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const publication = useLessonPublished();
  const remove = useDeleteLesson();
  const items: RowMenuItem[] = [];
  if (lesson.state === 'published' || lesson.state === 'changed') {
    items.push({
      key: 'unpublish',
      label: t('lessonAuthoring.actions.unpublish'),
      run: async () => {
        const ok = await confirm({
          title: t('lessonAuthoring.actions.unpublishLessonTitle'),
          message: t('lessonAuthoring.actions.unpublishLessonMessage', { title }),
          confirmLabel: t('lessonAuthoring.actions.unpublish'),
        });
        if (ok) publication.mutate({ lessonUuid: lesson.uuid, published: false });
      },
    });
  }
  if (lesson.state === 'unpublished') {
    items.push({
      key: 'republish',
      label: t('lessonAuthoring.actions.republish'),
      run: async () => publication.mutate({ lessonUuid: lesson.uuid, published: true }),
    });
  }
  items.push({
    key: 'delete',
    label: t('lessonAuthoring.actions.delete'),
    destructive: true,
    run: async () => {
      const ok = await confirm({
        title: t('lessonAuthoring.actions.deleteLessonTitle', { title }),
        message: t('lessonAuthoring.actions.deleteLessonMessage', { title }),
        confirmLabel: t('lessonAuthoring.actions.delete'),
        destructive: true,
      });
      if (ok) remove.mutate(lesson.uuid);
    },
  });
  return (
    <RowMenu
      label={t('lessonAuthoring.actions.lessonMenu', { title })}
      items={items}
      busy={publication.isPending || remove.isPending}
    />
  );
}

/** A course's actions: take it back or publish it again, and delete it with its lessons after a confirmation. */
export function CourseMenu({ course, title }: { course: AuthoredCourse; title: string }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const publication = useCoursePublished();
  const remove = useDeleteCourse();
  const items: RowMenuItem[] = [
    course.published
      ? {
          key: 'unpublish',
          label: t('lessonAuthoring.actions.unpublish'),
          run: async () => {
            const ok = await confirm({
              title: t('lessonAuthoring.actions.unpublishCourseTitle'),
              message: t('lessonAuthoring.actions.unpublishCourseMessage', { title }),
              confirmLabel: t('lessonAuthoring.actions.unpublish'),
            });
            if (ok) publication.mutate({ courseUuid: course.uuid, published: false });
          },
        }
      : {
          key: 'republish',
          label: t('lessonAuthoring.actions.republish'),
          run: async () => publication.mutate({ courseUuid: course.uuid, published: true }),
        },
    {
      key: 'delete',
      label: t('lessonAuthoring.actions.delete'),
      destructive: true,
      run: async () => {
        const ok = await confirm({
          title: t('lessonAuthoring.actions.deleteCourseTitle', { title }),
          message: t('lessonAuthoring.actions.deleteCourseMessage', { title }),
          confirmLabel: t('lessonAuthoring.actions.delete'),
          destructive: true,
        });
        if (ok) remove.mutate(course.uuid);
      },
    },
  ];
  return (
    <RowMenu
      label={t('lessonAuthoring.actions.courseMenu', { title })}
      items={items}
      busy={publication.isPending || remove.isPending}
    />
  );
}
