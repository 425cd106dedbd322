import { useEffect, useRef } from 'react';
import { useNavigate, Link as RouterLink, useParams, useSearchParams } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import ArrowBack from '@mui/icons-material/ArrowBack';
import ArrowForward from '@mui/icons-material/ArrowForward';
import CheckCircle from '@mui/icons-material/CheckCircle';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import SchoolOutlined from '@mui/icons-material/SchoolOutlined';
import SearchOff from '@mui/icons-material/SearchOff';
import {
  isLanguage,
  lessonsRoutes,
  mayCall,
  type Language,
  type LessonCourse,
  type LessonSummary,
} from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { useAccount } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { formatDate } from '@/i18n/format.ts';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import { RichText } from '@/ui/rich-text.tsx';
import {
  lessonCourseQuery,
  lessonQuery,
  useLessonImages,
  useMarkLessonOpened,
  useSetLessonCompletion,
} from './api.ts';

/** The outline beside the lesson on wide screens, above it on narrow ones. */
const layoutSx: SxProps<Theme> = {
  display: 'grid',
  gridTemplateColumns: { xs: '1fr', md: 'minmax(260px, 1fr) 2.2fr' },
  alignItems: 'start',
  gap: 3,
};

/** The language lessons are read in: the interface's. */
function useReadingLanguage(): Language {
  const { i18n } = useTranslation();
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'de';
}

/** The overall progress: completed of total, a bar, and the minutes left. */
function CourseProgress({ course }: { course: LessonCourse }) {
  const { t } = useTranslation();
  const percent = course.total ? Math.round((course.completed / course.total) * 100) : 0;
  return (
    <Box>
      <Typography id="lessons-progress" variant="body2" sx={{ fontWeight: 600 }}>
        {t('lessons.progress', { completed: course.completed, total: course.total })}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-labelledby="lessons-progress"
        aria-valuetext={`${percent} %`}
        sx={{ my: 1, height: 8, borderRadius: 4 }}
      />
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {course.minutesLeft > 0
          ? t('lessons.minutesLeft', { count: course.minutesLeft })
          : t('lessons.allDone')}
      </Typography>
    </Box>
  );
}

/** The course outline: each lesson with its number, minutes and whether it is done; the current one marked. */
function Outline({
  accountUuid,
  course,
  current,
}: {
  accountUuid: string;
  course: LessonCourse;
  current: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" component="nav" aria-labelledby="lessons-outline" sx={{ p: 2 }}>
      <Typography id="lessons-outline" component="h2" variant="h6" sx={{ mb: 1.5 }}>
        {t('lessons.outline')}
      </Typography>
      <CourseProgress course={course} />
      <List component="ol" sx={{ mt: 1.5, mx: -1, p: 0 }}>
        {course.lessons.map((lesson) => {
          const selected = lesson.uuid === current;
          const done = lesson.completedAt !== null;
          return (
            <li key={lesson.uuid}>
              <ListItemButton
                component={RouterLink}
                to={href('ncr-lesson', { accountUuid }, { lesson: lesson.uuid })}
                selected={selected}
                aria-current={selected ? 'step' : undefined}
                sx={{ borderRadius: 1, alignItems: 'flex-start' }}
              >
                <ListItemIcon sx={{ minWidth: 36, mt: 0.25 }}>
                  {done ? (
                    <CheckCircle aria-hidden sx={{ color: 'success.main' }} />
                  ) : (
                    <RadioButtonUnchecked aria-hidden sx={{ color: 'text.secondary' }} />
                  )}
                </ListItemIcon>
                <ListItemText
                  primary={`${lesson.number}. ${lesson.title}`}
                  secondary={[
                    t('lessons.minutes', { minutes: lesson.minutes }),
                    done ? t('lessons.done') : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                  slotProps={{ primary: { sx: { fontWeight: selected ? 600 : 400 } } }}
                />
              </ListItemButton>
            </li>
          );
        })}
      </List>
    </Paper>
  );
}

/** One lesson: its title, text and the ways on (previous, complete and continue, next). */
function LessonView({
  accountUuid,
  summary,
  total,
}: {
  accountUuid: string;
  summary: LessonSummary;
  total: number;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const lang = useReadingLanguage();
  const { data: lesson, error, isPending } = useQuery(lessonQuery(accountUuid, summary.uuid, lang));
  const { mutate: markOpened } = useMarkLessonOpened(accountUuid, lang);
  const loadImage = useLessonImages(accountUuid, summary.uuid);
  const completion = useSetLessonCompletion(accountUuid, lang);
  // Progress is the reader's own: staff looking into a customer's account read the lessons without keeping any.
  const keepsProgress = mayCall(lessonsRoutes.markLessonOpened, useAccount(accountUuid)?.accountRole);
  const heading = useRef<HTMLHeadingElement>(null);
  const opened = useRef<string | null>(null);
  const shown = useRef<string | null>(null);

  // Reading a lesson makes it the point the course resumes from.
  const loaded = lesson?.uuid ?? null;
  useEffect(() => {
    if (keepsProgress && loaded && opened.current !== loaded) {
      opened.current = loaded;
      markOpened(loaded);
    }
  }, [keepsProgress, loaded, markOpened]);

  // Going to another lesson moves the focus to its title, so keyboard and screen-reader users start reading there.
  useEffect(() => {
    if (!loaded) return;
    if (shown.current !== null && shown.current !== loaded) heading.current?.focus();
    shown.current = loaded;
  }, [loaded]);

  if (isPending) return <CircularProgress aria-label={t('lessons.loading')} />;
  if (!lesson) {
    return (
      <Alert severity="error">
        {error instanceof ApiError && error.status === 404
          ? t('lessons.lessonNotFound')
          : t('lessons.loadError')}
      </Alert>
    );
  }

  const done = summary.completedAt !== null;
  const toLesson = (uuid: string) => href('ncr-lesson', { accountUuid }, { lesson: uuid });
  const completeAndContinue = async () => {
    await completion.mutateAsync({ lessonUuid: lesson.uuid, completed: true });
    if (lesson.nextUuid) await navigate(toLesson(lesson.nextUuid));
  };

  return (
    <Paper variant="outlined" component="article" aria-labelledby="lesson-title" sx={{ p: { xs: 2, sm: 4 } }}>
      <Typography variant="overline" component="p" sx={{ color: 'text.secondary' }}>
        {t('lessons.lessonOf', { number: lesson.number, total })} ·{' '}
        {t('lessons.minutes', { minutes: lesson.minutes })}
      </Typography>
      <Typography
        id="lesson-title"
        ref={heading}
        tabIndex={-1}
        component="h2"
        variant="h5"
        lang={lesson.language}
        sx={{ fontWeight: 600, mb: 1, '&:focus': { outline: 'none' } }}
      >
        {lesson.title}
      </Typography>
      {done && (
        <Typography variant="body2" sx={{ color: 'success.main', mb: 1, fontWeight: 600 }}>
          {t('lessons.completedOn', { date: formatDate(summary.completedAt!, i18n.resolvedLanguage) })}
        </Typography>
      )}
      {lesson.language !== lang && (
        <Alert severity="info" sx={{ my: 2 }}>
          {t('lessons.onlyInGerman')}
        </Alert>
      )}
      <RichText html={lesson.html} lang={lesson.language} sx={{ mt: 2 }} loadImage={loadImage} />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        sx={{ mt: 4, pt: 2, gap: 1.5, borderTop: 1, borderColor: 'divider', justifyContent: 'space-between' }}
      >
        <Box>
          {lesson.previousUuid && (
            <Button component={RouterLink} to={toLesson(lesson.previousUuid)} startIcon={<ArrowBack />}>
              {t('lessons.previous')}
            </Button>
          )}
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1.5 }}>
          {done && keepsProgress ? (
            <Button
              variant="outlined"
              disabled={completion.isPending}
              onClick={() => completion.mutate({ lessonUuid: lesson.uuid, completed: false })}
            >
              {t('lessons.markNotComplete')}
            </Button>
          ) : null}
          {lesson.nextUuid && (
            // Going on without completing is allowed; once completed, going on is the main way.
            <Button
              variant={done ? 'contained' : 'text'}
              component={RouterLink}
              to={toLesson(lesson.nextUuid)}
              endIcon={done ? <ArrowForward /> : undefined}
            >
              {t('lessons.next')}
            </Button>
          )}
          {!done && keepsProgress && (
            <Button
              variant="contained"
              disabled={completion.isPending}
              endIcon={lesson.nextUuid ? <ArrowForward /> : <CheckCircle />}
              onClick={() => void completeAndContinue().catch(() => undefined)}
            >
              {lesson.nextUuid ? t('lessons.completeAndContinue') : t('lessons.completeLast')}
            </Button>
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}

/**
 * The lesson page of the account in the address (it lies outside account selection): the course outline with
 * the reader's progress, and the current lesson — the one in `?lesson=`, else where the reader left off.
 */
export default function LessonPage() {
  const { t } = useTranslation();
  const { accountUuid = '' } = useParams();
  const [search] = useSearchParams();
  const lang = useReadingLanguage();
  const { data: course, error, isPending } = useQuery(lessonCourseQuery(accountUuid, lang));

  if (isPending) {
    return (
      <Page title={t('lessons.title')}>
        <CircularProgress aria-label={t('lessons.loading')} />
      </Page>
    );
  }
  if (!course) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <Page title={t('lessons.title')}>
        <EmptyState
          icon={SearchOff}
          title={missing ? t('lessons.notFoundTitle') : t('lessons.loadError')}
          text={missing ? t('lessons.notFoundText') : ''}
          action={{ to: href('dashboard'), label: t('lessons.toDashboard') }}
        />
      </Page>
    );
  }
  if (course.total === 0) {
    return (
      <Page title={t('lessons.title')}>
        <EmptyState
          icon={SchoolOutlined}
          title={t('lessons.emptyTitle')}
          text={t('lessons.emptyText', { account: course.accountName })}
          action={{ to: href('dashboard'), label: t('lessons.toDashboard') }}
        />
      </Page>
    );
  }

  const asked = search.get('lesson');
  const current =
    course.lessons.find((lesson) => lesson.uuid === asked) ??
    course.lessons.find((lesson) => lesson.uuid === course.resumeLessonUuid) ??
    course.lessons[0]!;
  return (
    <Page title={t('lessons.title')}>
      <Typography sx={{ color: 'text.secondary', mt: -2, mb: 3 }}>
        {t('lessons.intro', { account: course.accountName })}
      </Typography>
      {course.resumeLessonUuid === null && (
        <Alert severity="success" sx={{ mb: 3 }}>
          {t('lessons.finished', { total: course.total })}
        </Alert>
      )}
      {asked && asked !== current.uuid && (
        <Alert severity="warning" sx={{ mb: 3 }}>
          {t('lessons.lessonNotFound')}
        </Alert>
      )}
      <Box sx={layoutSx}>
        <Outline accountUuid={accountUuid} course={course} current={current.uuid} />
        <LessonView accountUuid={accountUuid} summary={current} total={course.total} />
      </Box>
    </Page>
  );
}
