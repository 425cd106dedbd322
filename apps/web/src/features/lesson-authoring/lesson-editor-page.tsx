import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useNavigate, Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import FormHelperText from '@mui/material/FormHelperText';
import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import ArrowBack from '@mui/icons-material/ArrowBack';
import SearchOff from '@mui/icons-material/SearchOff';
import { LANGUAGES, type Language } from '@portal/contract';
import {
  LESSON_BODY_MAX,
  LESSON_IMAGE_MAX_BYTES,
  LESSON_IMAGE_TYPES,
  LESSON_MINUTES_MAX,
  LESSON_TITLE_MAX,
  type AuthoredLesson,
  type LessonDraftInput,
} from '@portal/contract/lesson-authoring';
import { ApiError } from '@/api/errors.ts';
import { href } from '@/app/href.ts';
import { FormTextField, RuleForm, serverFieldErrors, useRuleForm } from '@/forms/index.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { DotChip } from '@/ui/dot-chip.tsx';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import { RichText } from '@/ui/rich-text.tsx';
import { useToast } from '@/ui/toast.tsx';
import {
  authoredLessonQuery,
  previewQuery,
  useAuthorImages,
  usePublishLesson,
  useSaveLesson,
  useUploadLessonImage,
} from './api.ts';
import { STATE_COLORS } from './labels.ts';

interface EditorValues {
  minutes: string;
  title: Record<Language, string>;
  body: Record<Language, string>;
}

const EMPTY = { de: '', en: '', fr: '', it: '' };

/**
 * provider/lessons/:lessonUuid and provider/lessons/courses/:courseUuid/new: a lesson's draft — minutes, and a
 * title and Markdown text per language (German required) beside a preview rendered by the server as the lesson
 * page shows it — saved as a draft learners do not see, or published as the lesson's next version.
 */
export default function LessonEditorPage({
  lessonUuid,
  courseUuid,
}: {
  lessonUuid?: string;
  courseUuid?: string;
}) {
  const { t } = useTranslation();
  const uuid = lessonUuid ?? null;
  const { data, error, isPending } = useQuery({ ...authoredLessonQuery(uuid ?? ''), enabled: uuid !== null });
  const title = t(uuid ? 'routes.lessonAuthoringEdit' : 'routes.lessonAuthoringNew');
  const back = (
    <Button component={RouterLink} to={href('lesson-authoring')} startIcon={<ArrowBack />} sx={{ mb: 2 }}>
      {t('lessonAuthoring.back')}
    </Button>
  );
  if (uuid && isPending) {
    return (
      <Page title={title}>
        <CircularProgress aria-label={t('lessonAuthoring.loading')} />
      </Page>
    );
  }
  if ((uuid && !data) || (!uuid && !courseUuid)) {
    const missing = !uuid || (error instanceof ApiError && error.status === 404);
    return (
      <Page title={title}>
        <EmptyState
          icon={SearchOff}
          title={t(missing ? 'lessonAuthoring.notFound' : 'lessonAuthoring.loadFailed')}
          action={{ to: href('lesson-authoring'), label: t('lessonAuthoring.back') }}
        />
      </Page>
    );
  }
  return (
    <Page title={title}>
      {back}
      <Editor key={data?.uuid ?? 'new'} lesson={data} courseUuid={data?.courseUuid ?? courseUuid!} />
    </Page>
  );
}

/** The value after it stayed unchanged for a moment: the preview asks the server once the typing pauses. */
function useSettled<T>(value: T, ms = 400): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function Preview({ markdown, language }: { markdown: string; language: Language }) {
  const { t } = useTranslation();
  const settled = useSettled(markdown);
  const preview = useQuery({ ...previewQuery(settled), enabled: settled.trim() !== '' });
  const loadImage = useAuthorImages();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={t('lessonAuthoring.preview')}
      sx={{ p: { xs: 1.5, sm: 2.5 }, minWidth: 0 }}
    >
      <Typography variant="overline" component="h2" sx={{ color: 'text.secondary' }}>
        {t('lessonAuthoring.preview')}
      </Typography>
      {settled.trim() === '' ? (
        <Typography sx={{ color: 'text.secondary' }}>{t('lessonAuthoring.previewEmpty')}</Typography>
      ) : (
        <RichText html={preview.data ?? ''} lang={language} loadImage={loadImage} />
      )}
    </Paper>
  );
}

type ImageProblem = 'lessonImageType' | 'lessonImageTooLarge' | 'lessonImageEmpty';

/** What the browser can already see of a chosen image (size, a declared type); the server reads the content. */
function localProblem(file: File): ImageProblem | null {
  if (file.size === 0) return 'lessonImageEmpty';
  if (file.size > LESSON_IMAGE_MAX_BYTES) return 'lessonImageTooLarge';
  if (file.type && !(LESSON_IMAGE_TYPES as readonly string[]).includes(file.type)) return 'lessonImageType';
  return null;
}

/**
 * Uploads an image for the lesson and hands its Markdown on, to go where the cursor is. A new lesson has no place
 * for images yet: the button waits for its first save.
 */
function ImageButton({
  lessonUuid,
  onInsert,
}: {
  lessonUuid: string | null;
  onInsert: (md: string) => void;
}) {
  const { t } = useTranslation();
  const helpId = useId();
  const upload = useUploadLessonImage(lessonUuid ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const local = localProblem(file);
    setProblem(local);
    if (local) return;
    try {
      onInsert((await upload.mutateAsync(file)).markdown);
    } catch (error) {
      setProblem(serverFieldErrors(error).file ?? (error instanceof Error ? error.message : String(error)));
    }
  };
  const known = (key: string): key is ImageProblem =>
    ['lessonImageType', 'lessonImageTooLarge', 'lessonImageEmpty'].includes(key);
  const text = problem && (known(problem) ? t(`lessonAuthoring.image.${problem}`) : problem);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1, alignItems: { sm: 'center' } }}>
      <Button
        component="label"
        variant="outlined"
        size="small"
        startIcon={upload.isPending ? <CircularProgress size={16} /> : <AddPhotoAlternateOutlined />}
        disabled={!lessonUuid || upload.isPending}
        aria-describedby={helpId}
        sx={{ alignSelf: 'flex-start', flexShrink: 0 }}
      >
        {t('lessonAuthoring.image.insert')}
        <input hidden type="file" accept={LESSON_IMAGE_TYPES.join(',')} onChange={(e) => void choose(e)} />
      </Button>
      <FormHelperText id={helpId} error={Boolean(text)} sx={{ m: 0 }}>
        {text || t(lessonUuid ? 'lessonAuthoring.image.help' : 'lessonAuthoring.image.saveFirst')}
      </FormHelperText>
    </Stack>
  );
}

function Editor({ lesson, courseUuid }: { lesson: AuthoredLesson | undefined; courseUuid: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const toast = useToast();
  const form = useRuleForm<EditorValues>({
    defaultValues: {
      minutes: lesson ? String(lesson.minutes) : '5',
      title: { ...EMPTY, ...lesson?.title },
      body: { ...EMPTY, ...lesson?.body },
    },
  });
  const [chosen, setChosen] = useState<{ tab: Language; submits: number }>({ tab: 'de', submits: 0 });
  const save = useSaveLesson();
  const publish = usePublishLesson();
  const busy = save.isPending || publish.isPending;
  const { errors, submitCount } = form.formState;
  const germanError = Boolean(errors.title?.de || errors.body?.de);
  const tab = germanError && chosen.submits < submitCount ? 'de' : chosen.tab;
  const body = form.watch(`body.${tab}`);
  const state = lesson?.state ?? 'draft';
  const bodyFields = useRef<Partial<Record<Language, HTMLTextAreaElement | null>>>({});

  /** Puts an image's Markdown where the cursor is in the tab's text (at its end without one), on a line of its own. */
  const insertImage = (language: Language, markdown: string) => {
    const field = bodyFields.current[language];
    const text = form.getValues(`body.${language}`);
    // The cursor's place stays in the field while the file dialog has the focus.
    const at = field?.selectionStart ?? text.length;
    const before = text.slice(0, at);
    const after = text.slice(at);
    const lead = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
    const trail = after.startsWith('\n') ? '\n' : '\n\n';
    const next = `${before}${lead}${markdown}${trail}${after}`;
    form.setValue(`body.${language}`, next, { shouldDirty: true, shouldValidate: true });
    toast.success(t('lessonAuthoring.image.inserted'));
    requestAnimationFrame(() => {
      const caret = before.length + lead.length + markdown.length;
      field?.focus();
      field?.setSelectionRange(caret, caret);
    });
  };

  const input = (values: EditorValues): LessonDraftInput => ({
    minutes: Number(values.minutes),
    title: values.title,
    body: values.body,
  });

  async function store(values: EditorValues): Promise<AuthoredLesson> {
    const saved = await save.mutateAsync({ uuid: lesson?.uuid ?? null, courseUuid, body: input(values) });
    if (!lesson) {
      await navigate(href('lesson-authoring-edit', { lessonUuid: saved.uuid }), { replace: true });
    }
    return saved;
  }

  const onSubmit = async (values: EditorValues) => {
    await store(values);
    toast.success(t('lessonAuthoring.saved'));
  };

  const onPublish = form.submit(async (values) => {
    const ok = await confirm({
      title: t('lessonAuthoring.publishTitle'),
      message: t('lessonAuthoring.publishMessage'),
      confirmLabel: t('lessonAuthoring.publish'),
    });
    if (!ok) return;
    const saved = await store(values);
    await publish.mutateAsync(saved.uuid);
  });

  return (
    <RuleForm form={form} onSubmit={onSubmit} readOnly={busy} aria-label={t('lessonAuthoring.formLabel')}>
      <Stack spacing={2.5}>
        {lesson && (
          <Stack direction="row" sx={{ gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
            <DotChip color={STATE_COLORS[state]} label={t(`lessonAuthoring.states.${state}`)} />
            {lesson.publishedAt && (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('lessonAuthoring.versionLine', {
                  version: lesson.version,
                  date: formatDateTime(lesson.publishedAt),
                })}
              </Typography>
            )}
          </Stack>
        )}
        <Alert severity="info">
          {t(
            state === 'draft'
              ? 'lessonAuthoring.draftInfo'
              : state === 'unpublished'
                ? 'lessonAuthoring.unpublishedInfo'
                : 'lessonAuthoring.publishedInfo',
          )}
        </Alert>
        <FormTextField
          name="minutes"
          label={t('lessonAuthoring.fields.minutes')}
          rules="required|integer"
          helperText={t('lessonAuthoring.fields.minutesHelp', { max: LESSON_MINUTES_MAX })}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          sx={{ maxWidth: 240 }}
        />
        <Tabs
          value={tab}
          onChange={(_event, next: Language) => setChosen({ tab: next, submits: submitCount })}
          aria-label={t('lessonAuthoring.languages.label')}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {LANGUAGES.map((l) => (
            <Tab
              key={l}
              value={l}
              id={`lesson-tab-${l}`}
              aria-controls={`lesson-panel-${l}`}
              label={
                l === 'de' ? `${t(`lessonAuthoring.languages.${l}`)} *` : t(`lessonAuthoring.languages.${l}`)
              }
            />
          ))}
        </Tabs>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
            alignItems: 'start',
          }}
        >
          <div>
            {LANGUAGES.map((l) => (
              <Box
                key={l}
                role="tabpanel"
                id={`lesson-panel-${l}`}
                aria-labelledby={`lesson-tab-${l}`}
                hidden={tab !== l}
                lang={l}
              >
                <Stack spacing={2}>
                  {l !== 'de' && (
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {t('lessonAuthoring.fallbackHint')}
                    </Typography>
                  )}
                  <FormTextField
                    name={`title.${l}`}
                    label={t('lessonAuthoring.fields.title')}
                    rules={l === 'de' ? `required|max:${LESSON_TITLE_MAX}` : `max:${LESSON_TITLE_MAX}`}
                  />
                  <FormTextField
                    name={`body.${l}`}
                    label={t('lessonAuthoring.fields.body')}
                    rules={l === 'de' ? `required|max:${LESSON_BODY_MAX}` : `max:${LESSON_BODY_MAX}`}
                    helperText={t('lessonAuthoring.fields.bodyHelp')}
                    multiline
                    minRows={12}
                    inputRef={(element: HTMLTextAreaElement | null) => {
                      bodyFields.current[l] = element;
                    }}
                    slotProps={{ htmlInput: { sx: { fontFamily: 'monospace', fontSize: '0.875rem' } } }}
                  />
                  <ImageButton lessonUuid={lesson?.uuid ?? null} onInsert={(md) => insertImage(l, md)} />
                </Stack>
              </Box>
            ))}
          </div>
          <Preview markdown={body} language={tab} />
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1.5 }}>
          <Button type="submit" variant="outlined" disabled={busy}>
            {t('lessonAuthoring.saveDraft')}
          </Button>
          <Button variant="contained" disabled={busy} onClick={() => void onPublish()}>
            {t('lessonAuthoring.publish')}
          </Button>
        </Stack>
      </Stack>
    </RuleForm>
  );
}
