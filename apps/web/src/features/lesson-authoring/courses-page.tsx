import { useState } from 'react';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import SchoolOutlined from '@mui/icons-material/SchoolOutlined';
import { LANGUAGES, announcementText, type Language } from '@portal/contract';
import {
  COURSE_AUDIENCES,
  COURSE_TITLE_MAX,
  type AuthoredCourse,
  type CourseAudience,
} from '@portal/contract/lesson-authoring';
import { href } from '@/app/href.ts';
import { FormSelect, FormTextField, RuleForm, serverFieldErrors, useRuleForm } from '@/forms/index.ts';
import { DotChip } from '@/ui/dot-chip.tsx';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import { useToast } from '@/ui/toast.tsx';
import { courseProgressQuery, coursesQuery, useOrderLessons, useSaveCourse } from './api.ts';
import { STATE_COLORS, ruleText } from './labels.ts';
import { CourseMenu, LessonMenu } from './row-menu.tsx';

/**
 * provider/lessons: every course with its offer and its lessons in order (state, minutes), buttons to move a lesson
 * up or down, a dialog for a course's title and offer, and the course's progress overview (counts, no names).
 */
export default function CoursesPage() {
  const { t } = useTranslation();
  const courses = useQuery(coursesQuery());
  const [editing, setEditing] = useState<AuthoredCourse | 'new' | null>(null);
  const newButton = (
    <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setEditing('new')}>
      {t('lessonAuthoring.newCourse')}
    </Button>
  );
  const list = courses.data ?? [];
  return (
    <Page title={t('routes.lessonAuthoring')} actions={newButton}>
      <Typography sx={{ color: 'text.secondary', mb: 3, maxWidth: 760 }}>
        {t('lessonAuthoring.intro')}
      </Typography>
      {courses.isPending && <CircularProgress aria-label={t('lessonAuthoring.loading')} />}
      {courses.isError && <EmptyState icon={SchoolOutlined} title={t('lessonAuthoring.loadFailed')} />}
      {courses.isSuccess && list.length === 0 && (
        <EmptyState
          icon={SchoolOutlined}
          title={t('lessonAuthoring.emptyTitle')}
          text={t('lessonAuthoring.emptyText')}
        />
      )}
      <Stack spacing={3}>
        {list.map((course) => (
          <CourseCard key={course.uuid} course={course} onEdit={() => setEditing(course)} />
        ))}
      </Stack>
      {editing && (
        <CourseDialog course={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Page>
  );
}

function useLanguage(): Language {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  return (LANGUAGES as readonly string[]).includes(language ?? '') ? (language as Language) : 'de';
}

function CourseCard({ course, onEdit }: { course: AuthoredCourse; onEdit: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const language = useLanguage();
  const order = useOrderLessons();
  const [showProgress, setShowProgress] = useState(false);
  const title = announcementText(course.title, language);
  const headingId = `course-${course.uuid}`;

  const move = (index: number, by: -1 | 1) => {
    const uuids = course.lessons.map((l) => l.uuid);
    const [moved] = uuids.splice(index, 1);
    uuids.splice(index + by, 0, moved!);
    order.mutate(
      { courseUuid: course.uuid, lessonUuids: uuids },
      { onError: (error) => toast.error(ruleText(t, serverFieldErrors(error).lessonUuids) ?? String(error)) },
    );
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ p: { xs: 1.5, sm: 2.5 } }}
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        sx={{ gap: 1.5, justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1.5 }}
      >
        <div>
          <Typography id={headingId} component="h2" variant="h6">
            {title}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {course.audience === 'all'
              ? t('lessonAuthoring.offer.all')
              : t('lessonAuthoring.offer.plans', { plans: course.audiencePlans.join(', ') })}
          </Typography>
          {!course.published && (
            <Typography variant="body2" sx={{ fontWeight: 600, mt: 0.5 }}>
              {t('lessonAuthoring.courseHidden')}
            </Typography>
          )}
        </div>
        <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <Button variant="outlined" onClick={onEdit}>
            {t('lessonAuthoring.editCourse')}
          </Button>
          <Button
            variant="contained"
            component={RouterLink}
            to={href('lesson-authoring-new', { courseUuid: course.uuid })}
            startIcon={<AddOutlined />}
          >
            {t('lessonAuthoring.newLesson')}
          </Button>
          <CourseMenu course={course} title={title} />
        </Stack>
      </Stack>
      {course.lessons.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', py: 2 }}>{t('lessonAuthoring.noLessons')}</Typography>
      ) : (
        <Stack
          component="ol"
          aria-label={t('lessonAuthoring.lessonsOf', { course: title })}
          sx={{ p: 0, m: 0 }}
        >
          {course.lessons.map((lesson, index) => {
            const lessonTitle = announcementText(lesson.titles, language);
            return (
              <Stack
                component="li"
                key={lesson.uuid}
                direction="row"
                sx={{
                  listStyle: 'none',
                  alignItems: 'center',
                  // On a phone the buttons take a line of their own under the title, which keeps the width.
                  flexWrap: { xs: 'wrap', sm: 'nowrap' },
                  gap: 1,
                  py: 1,
                  borderTop: index === 0 ? 0 : 1,
                  borderColor: 'divider',
                }}
              >
                <Typography sx={{ color: 'text.secondary', minWidth: 24 }}>{index + 1}.</Typography>
                <Stack sx={{ flex: { xs: '1 1 calc(100% - 40px)', sm: 1 }, minWidth: 0 }}>
                  <Link
                    component={RouterLink}
                    to={href('lesson-authoring-edit', { lessonUuid: lesson.uuid })}
                    sx={{ fontWeight: 500, overflowWrap: 'break-word' }}
                  >
                    {lessonTitle}
                  </Link>
                  <Stack direction="row" sx={{ gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
                    <DotChip
                      color={STATE_COLORS[lesson.state]}
                      label={t(`lessonAuthoring.states.${lesson.state}`)}
                    />
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {t('lessonAuthoring.minutesShort', { count: lesson.minutes })}
                    </Typography>
                  </Stack>
                </Stack>
                <Stack direction="row" sx={{ ml: 'auto' }}>
                  <IconButton
                    aria-label={t('lessonAuthoring.moveUp', { title: lessonTitle })}
                    disabled={index === 0 || order.isPending}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUpward />
                  </IconButton>
                  <IconButton
                    aria-label={t('lessonAuthoring.moveDown', { title: lessonTitle })}
                    disabled={index === course.lessons.length - 1 || order.isPending}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDownward />
                  </IconButton>
                  <LessonMenu lesson={lesson} title={lessonTitle} />
                </Stack>
              </Stack>
            );
          })}
        </Stack>
      )}
      <Button
        sx={{ mt: 1.5 }}
        onClick={() => setShowProgress((shown) => !shown)}
        aria-expanded={showProgress}
      >
        {t(showProgress ? 'lessonAuthoring.progress.hide' : 'lessonAuthoring.progress.show')}
      </Button>
      {showProgress && <ProgressOverview course={course} language={language} />}
    </Paper>
  );
}

/** How many people in how many accounts started and finished the course and each lesson; never who. */
function ProgressOverview({ course, language }: { course: AuthoredCourse; language: Language }) {
  const { t } = useTranslation();
  const progress = useQuery(courseProgressQuery(course.uuid));
  const titleOf = (uuid: string, german: string) => {
    const lesson = course.lessons.find((l) => l.uuid === uuid);
    return lesson ? announcementText(lesson.titles, language) : german;
  };
  if (progress.isPending) return <CircularProgress size={24} aria-label={t('lessonAuthoring.loading')} />;
  if (!progress.data) return <Typography>{t('lessonAuthoring.loadFailed')}</Typography>;
  const p = progress.data;
  return (
    <Stack spacing={1.5} sx={{ mt: 1 }}>
      <Typography>
        {t('lessonAuthoring.progress.started', { count: p.startedPeople, accounts: p.startedAccounts })}{' '}
        {t('lessonAuthoring.progress.finished', { count: p.finishedPeople, accounts: p.finishedAccounts })}
      </Typography>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" aria-label={t('lessonAuthoring.progress.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('lessonAuthoring.progress.lesson')}</TableCell>
              <TableCell align="right">{t('lessonAuthoring.progress.startedColumn')}</TableCell>
              <TableCell align="right">{t('lessonAuthoring.progress.finishedColumn')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {p.lessons.map((lesson) => (
              <TableRow key={lesson.uuid}>
                <TableCell sx={{ minWidth: 160 }}>{titleOf(lesson.uuid, lesson.title)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {t('lessonAuthoring.progress.cell', {
                    people: lesson.startedPeople,
                    accounts: lesson.startedAccounts,
                  })}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {t('lessonAuthoring.progress.cell', {
                    people: lesson.finishedPeople,
                    accounts: lesson.finishedAccounts,
                  })}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('lessonAuthoring.progress.noNames')}
      </Typography>
    </Stack>
  );
}

interface CourseValues {
  title: Record<Language, string>;
  audience: CourseAudience;
  /** Plan codes separated by commas or spaces. */
  plans: string;
}

/** A course's title per language (German required) and to whom it is offered. */
function CourseDialog({ course, onClose }: { course: AuthoredCourse | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveCourse();
  const form = useRuleForm<CourseValues>({
    defaultValues: {
      title: { de: '', en: '', fr: '', it: '', ...course?.title },
      audience: course?.audience ?? 'all',
      plans: course?.audiencePlans.join(', ') ?? '',
    },
  });
  const audience = form.watch('audience');
  const onSubmit = async (values: CourseValues) => {
    try {
      await save.mutateAsync({
        uuid: course?.uuid ?? null,
        body: {
          title: values.title,
          audience: values.audience,
          audiencePlans:
            values.audience === 'all'
              ? []
              : values.plans
                  .split(/[,;\s]+/)
                  .map((code) => code.trim().toUpperCase())
                  .filter(Boolean),
        },
      });
      onClose();
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields.audiencePlans) {
        form.setError('plans', { type: 'server', message: ruleText(t, fields.audiencePlans) });
        return;
      }
      throw error;
    }
  };
  const title = t(course ? 'lessonAuthoring.course.editTitle' : 'lessonAuthoring.course.newTitle');
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="course-dialog-title">
      <DialogTitle id="course-dialog-title">{title}</DialogTitle>
      <RuleForm form={form} onSubmit={onSubmit} readOnly={save.isPending} aria-label={title}>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {LANGUAGES.map((l) => (
              <FormTextField
                key={l}
                name={`title.${l}`}
                label={`${t('lessonAuthoring.course.title')} (${t(`lessonAuthoring.languages.${l}`)})`}
                rules={l === 'de' ? `required|max:${COURSE_TITLE_MAX}` : `max:${COURSE_TITLE_MAX}`}
                lang={l}
              />
            ))}
            <FormSelect
              name="audience"
              label={t('lessonAuthoring.course.audience')}
              rules="required"
              options={COURSE_AUDIENCES.map((value) => ({
                value,
                label: t(`lessonAuthoring.course.audiences.${value}`),
              }))}
            />
            {audience === 'plans' && (
              <FormTextField
                name="plans"
                label={t('lessonAuthoring.course.plans')}
                helperText={t('lessonAuthoring.course.plansHelp')}
                rules="required"
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('lessonAuthoring.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t('lessonAuthoring.course.save')}
          </Button>
        </DialogActions>
      </RuleForm>
    </Dialog>
  );
}
