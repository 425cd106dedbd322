import { useState } from 'react';
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
import ArrowBack from '@mui/icons-material/ArrowBack';
import SearchOff from '@mui/icons-material/SearchOff';
import {
  ANNOUNCEMENT_AUDIENCES,
  ANNOUNCEMENT_BODY_MAX,
  ANNOUNCEMENT_KINDS,
  ANNOUNCEMENT_ROLES,
  ANNOUNCEMENT_TITLE_MAX,
  LANGUAGES,
  instantOfSwissWallTime,
  isLanguage,
  mayAnnounce,
  swissWallTime,
  type Announcement,
  type AnnouncementAudience,
  type AnnouncementInput,
  type AnnouncementKind,
  type AnnouncementRoles,
  type Language,
} from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { useMe } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { FormSelect, FormTextField, RuleForm, serverFieldErrors, useRuleForm } from '@/forms/index.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { DotChip } from '@/ui/dot-chip.tsx';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import {
  announcementQuery,
  useDeleteAnnouncement,
  usePublishAnnouncement,
  useSaveAnnouncement,
  useWithdrawAnnouncement,
} from './api.ts';
import { PickerLocalization } from '@/ui/date-pickers.tsx';
import { DateTimeField, INVALID_WALL } from './date-time-field.tsx';
import { STATUS_COLORS } from './labels.ts';

interface EditorValues {
  kind: AnnouncementKind;
  title: Record<Language, string>;
  body: Record<Language, string>;
  audience: AnnouncementAudience;
  /** Plan codes, country codes or account ids, separated by commas or lines. */
  audienceValues: string;
  roles: AnnouncementRoles;
}

const EMPTY_TEXTS = { de: '', en: '', fr: '', it: '' };

function valuesOf(a: Announcement | undefined): EditorValues {
  return {
    kind: a?.kind ?? 'maintenance',
    title: { ...EMPTY_TEXTS, ...a?.title },
    body: { ...EMPTY_TEXTS, ...a?.body },
    audience: a?.audience ?? 'all',
    audienceValues: a?.audienceValues.join(', ') ?? '',
    roles: a?.roles ?? 'everyone',
  };
}

/** The next full hour in Swiss time: a new announcement's proposed start. */
function nextHour(): string {
  return swissWallTime(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
}

/**
 * provider/announcements/new and provider/announcements/:announcementUuid: write or change an announcement —
 * title and text per language (German required), kind, audience and window — and publish, withdraw or delete it.
 * SUPPORT_MANAGER writes drafts; PORTAL_ADMIN also publishes, changes a published one before its start and
 * withdraws. Once started, it shows read-only.
 */
export default function AnnouncementEditorPage({ announcementUuid }: { announcementUuid?: string }) {
  const { t } = useTranslation();
  const uuid = announcementUuid ?? null;
  const { data, error, isPending } = useQuery({ ...announcementQuery(uuid ?? ''), enabled: uuid !== null });
  const title = t(uuid ? 'routes.announcementEdit' : 'routes.announcementNew');
  const back = (
    <Button component={RouterLink} to={href('announcements')} startIcon={<ArrowBack />} sx={{ mb: 2 }}>
      {t('announcements.back')}
    </Button>
  );
  if (uuid && isPending) {
    return (
      <Page title={title}>
        <CircularProgress aria-label={t('announcements.loading')} />
      </Page>
    );
  }
  if (uuid && !data) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <Page title={title}>
        <EmptyState
          icon={SearchOff}
          title={t(missing ? 'announcements.notFound' : 'announcements.loadFailed')}
          action={{ to: href('announcements'), label: t('announcements.back') }}
        />
      </Page>
    );
  }
  return (
    <Page title={title}>
      {back}
      <Editor key={data?.uuid ?? 'new'} announcement={data} />
    </Page>
  );
}

function Editor({ announcement }: { announcement: Announcement | undefined }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const me = useMe();
  const language: Language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'de';
  const form = useRuleForm<EditorValues>({ defaultValues: valuesOf(announcement) });
  // The tab chosen, and at which submit: a German field found empty at a later submit shows the German tab.
  const [chosen, setChosen] = useState<{ tab: Language; submits: number }>({ tab: 'de', submits: 0 });
  const [openedAt] = useState(Date.now);
  const [startsAt, setStartsAt] = useState(() =>
    announcement ? swissWallTime(announcement.startsAt) : nextHour(),
  );
  const [endsAt, setEndsAt] = useState(() =>
    announcement?.endsAt ? swissWallTime(announcement.endsAt) : '',
  );
  const [dateErrors, setDateErrors] = useState<{ startsAt?: string; endsAt?: string }>({});
  const save = useSaveAnnouncement();
  const publish = usePublishAnnouncement();
  const withdraw = useWithdrawAnnouncement();
  const remove = useDeleteAnnouncement();

  const status = announcement?.status ?? 'draft';
  const started = announcement ? Date.parse(announcement.startsAt) <= openedAt : false;
  const mayPublish = mayAnnounce(me.userRole, 'publish');
  const editable = status === 'draft' || (status === 'published' && !started && mayPublish);
  const busy = save.isPending || publish.isPending || withdraw.isPending || remove.isPending;

  // A German field left empty on another tab: show the German tab, where its error stands.
  const { errors, submitCount } = form.formState;
  const germanError = Boolean(errors.title?.de || errors.body?.de);
  const tab = germanError && chosen.submits < submitCount ? 'de' : chosen.tab;
  const setTab = (next: Language) => setChosen({ tab: next, submits: submitCount });

  const audience = form.watch('audience');

  function body(values: EditorValues): AnnouncementInput | null {
    const problems: typeof dateErrors = {};
    if (!startsAt) problems.startsAt = 'required';
    // A text that names no time: the field says so itself.
    if (startsAt === INVALID_WALL) problems.startsAt = INVALID_WALL;
    if (endsAt === INVALID_WALL) problems.endsAt = INVALID_WALL;
    else if (startsAt && startsAt !== INVALID_WALL && endsAt && endsAt <= startsAt)
      problems.endsAt = 'announcementEndBeforeStart';
    setDateErrors(problems);
    if (Object.keys(problems).length > 0) return null;
    const texts = (source: Record<Language, string>) =>
      Object.fromEntries(
        LANGUAGES.map((l) => [l, source[l].trim()]).filter(([l, text]) => l === 'de' || text !== ''),
      ) as AnnouncementInput['title'];
    return {
      kind: values.kind,
      title: texts(values.title),
      body: texts(values.body),
      audience: values.audience,
      audienceValues:
        values.audience === 'all'
          ? []
          : values.audienceValues
              .split(/[,;\s]+/)
              .map((v) => v.trim())
              .filter(Boolean)
              .map((v) => (values.audience === 'accounts' ? v.toLowerCase() : v.toUpperCase())),
      roles: values.roles,
      startsAt: instantOfSwissWallTime(startsAt),
      endsAt: endsAt ? instantOfSwissWallTime(endsAt) : null,
    };
  }

  /** Saves the form; the stored announcement, or null when a field was refused (its message stands there). */
  async function store(values: EditorValues): Promise<Announcement | null> {
    const input = body(values);
    if (!input) return null;
    try {
      return await save.mutateAsync({ uuid: announcement?.uuid ?? null, body: input });
    } catch (error) {
      const fields = serverFieldErrors(error);
      setDateErrors({ startsAt: fields.startsAt, endsAt: fields.endsAt });
      throw error;
    }
  }

  /** A new announcement, once saved, continues on its own address. */
  const opened = async (saved: Announcement) => {
    if (!announcement) {
      await navigate(href('announcement-edit', { announcementUuid: saved.uuid }), { replace: true });
    }
  };

  const onSubmit = async (values: EditorValues) => {
    const saved = await store(values);
    if (saved) await opened(saved);
  };

  const onPublish = form.submit(async (values) => {
    const saved = await store(values);
    if (!saved) return;
    const ok = await confirm({
      title: t('announcements.publishTitle'),
      message: t('announcements.publishMessage', { start: formatDateTime(saved.startsAt) }),
      confirmLabel: t('announcements.publish'),
    });
    if (ok) await publish.mutateAsync(saved.uuid);
    await opened(saved);
  });

  const onWithdraw = async () => {
    if (!announcement) return;
    const ok = await confirm({
      title: t('announcements.withdrawTitle'),
      message: t('announcements.withdrawMessage'),
      confirmLabel: t('announcements.withdraw'),
      destructive: true,
    });
    if (ok) await withdraw.mutateAsync(announcement.uuid);
  };

  const onDelete = async () => {
    if (!announcement) return;
    const ok = await confirm({
      title: t('announcements.deleteTitle'),
      message: t('announcements.deleteMessage'),
      confirmLabel: t('announcements.delete'),
      destructive: true,
    });
    if (!ok) return;
    await remove.mutateAsync(announcement.uuid);
    await navigate(href('announcements'));
  };

  const dateError = (key: string | undefined) =>
    key && key !== INVALID_WALL
      ? t(key as 'required', { ns: 'validation', field: '', defaultValue: key })
      : undefined;

  return (
    <>
      <RuleForm
        form={form}
        onSubmit={onSubmit}
        readOnly={!editable || busy}
        aria-label={t('announcements.formLabel')}
      >
        <Stack spacing={2.5} sx={{ maxWidth: 760 }}>
          {announcement && (
            <Stack direction="row" sx={{ gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
              <DotChip color={STATUS_COLORS[status]} label={t(`announcements.statuses.${status}`)} />
              {status !== 'draft' && (
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {t('announcements.reachLine', { reach: announcement.reach, read: announcement.read })}
                </Typography>
              )}
            </Stack>
          )}
          {status === 'published' && started && (
            <Alert severity="info">{t('announcements.startedReadOnly')}</Alert>
          )}
          {status === 'withdrawn' && <Alert severity="info">{t('announcements.withdrawnReadOnly')}</Alert>}
          {!mayPublish && status === 'draft' && <Alert severity="info">{t('announcements.draftOnly')}</Alert>}
          <FormSelect
            name="kind"
            label={t('announcements.columns.kind')}
            rules="required"
            options={ANNOUNCEMENT_KINDS.map((value) => ({ value, label: t(`announcements.kinds.${value}`) }))}
            helperText={t('announcements.kindHelp')}
          />
          <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
            <Tabs
              value={tab}
              onChange={(_event, next: Language) => setTab(next)}
              aria-label={t('announcements.languages.label')}
              variant="scrollable"
              allowScrollButtonsMobile
              sx={{ mb: 2 }}
            >
              {LANGUAGES.map((l) => (
                <Tab
                  key={l}
                  value={l}
                  id={`announcement-tab-${l}`}
                  aria-controls={`announcement-panel-${l}`}
                  label={
                    l === 'de' ? `${t(`announcements.languages.${l}`)} *` : t(`announcements.languages.${l}`)
                  }
                />
              ))}
            </Tabs>
            {LANGUAGES.map((l) => (
              <Box
                key={l}
                role="tabpanel"
                id={`announcement-panel-${l}`}
                aria-labelledby={`announcement-tab-${l}`}
                hidden={tab !== l}
                lang={l}
              >
                <Stack spacing={2}>
                  {l !== 'de' && (
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {t('announcements.fallbackHint')}
                    </Typography>
                  )}
                  <FormTextField
                    name={`title.${l}`}
                    label={t('announcements.fields.title')}
                    rules={
                      l === 'de' ? `required|max:${ANNOUNCEMENT_TITLE_MAX}` : `max:${ANNOUNCEMENT_TITLE_MAX}`
                    }
                  />
                  <FormTextField
                    name={`body.${l}`}
                    label={t('announcements.fields.body')}
                    rules={
                      l === 'de' ? `required|max:${ANNOUNCEMENT_BODY_MAX}` : `max:${ANNOUNCEMENT_BODY_MAX}`
                    }
                    helperText={t('announcements.bodyHelp')}
                    multiline
                    minRows={6}
                  />
                </Stack>
              </Box>
            ))}
          </Paper>
          <FormSelect
            name="audience"
            label={t('announcements.fields.audience')}
            rules="required"
            options={ANNOUNCEMENT_AUDIENCES.map((value) => ({
              value,
              label: t(`announcements.audiences.${value}`),
            }))}
          />
          {audience !== 'all' && (
            <FormTextField
              name="audienceValues"
              label={t(`announcements.audienceValues.${audience}`)}
              helperText={t(`announcements.audienceHelp.${audience}`)}
              rules="required"
            />
          )}
          <FormSelect
            name="roles"
            label={t('announcements.fields.roles')}
            rules="required"
            options={ANNOUNCEMENT_ROLES.map((value) => ({ value, label: t(`announcements.roles.${value}`) }))}
          />
          <PickerLocalization language={language}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <DateTimeField
                language={language}
                label={t('announcements.fields.startsAt')}
                value={startsAt}
                onChange={setStartsAt}
                required
                disabled={!editable || busy}
                error={Boolean(dateErrors.startsAt)}
                helperText={dateError(dateErrors.startsAt) ?? t('announcements.swissTime')}
              />
              <DateTimeField
                language={language}
                label={t('announcements.fields.endsAt')}
                value={endsAt}
                onChange={setEndsAt}
                disabled={!editable || busy}
                error={Boolean(dateErrors.endsAt)}
                helperText={dateError(dateErrors.endsAt) ?? t('announcements.endHelp')}
              />
            </Stack>
          </PickerLocalization>
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1.5, flexWrap: 'wrap' }}>
            {editable && (
              <Button
                type="submit"
                variant={status === 'draft' && mayPublish ? 'outlined' : 'contained'}
                disabled={busy}
              >
                {t(status === 'draft' ? 'announcements.saveDraft' : 'announcements.saveChanges')}
              </Button>
            )}
            {status === 'draft' && mayPublish && (
              <Button variant="contained" disabled={busy} onClick={() => void onPublish()}>
                {t('announcements.publish')}
              </Button>
            )}
            {status === 'draft' && announcement && (
              <Button color="error" disabled={busy} onClick={() => void onDelete()}>
                {t('announcements.delete')}
              </Button>
            )}
          </Stack>
        </Stack>
      </RuleForm>
      {/* Outside the form: a started announcement's fields are read-only, its withdrawal is not. */}
      {status === 'published' && mayPublish && (
        <Button
          variant="outlined"
          color="error"
          disabled={busy}
          onClick={() => void onWithdraw()}
          sx={{ mt: 1.5 }}
        >
          {t('announcements.withdraw')}
        </Button>
      )}
    </>
  );
}
