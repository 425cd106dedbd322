import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import ArrowBack from '@mui/icons-material/ArrowBack';
import ArrowForward from '@mui/icons-material/ArrowForward';
import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import SearchOff from '@mui/icons-material/SearchOff';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import { href } from '@/app/href.ts';
import { ApiError } from '@/api/errors.ts';
import { useCurrentAccountUuid } from '@/api/session.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import { currentLanguage } from '@/i18n/i18n.ts';
import { RichText } from '@/ui/rich-text.tsx';
import {
  announcementReadingQuery,
  notificationQuery,
  useArchiveNotification,
  useRestoreNotification,
  useSetNotificationRead,
} from './api.ts';
import { notificationView } from './notification-text.ts';

/**
 * inbox/:uuid: one notification in the reader's language, with a link to what it is about. Opening it marks it
 * read (once per visit). An archived one opens too, marked archived, with "move to inbox"; another user's or
 * another account's notification shows "not found".
 */
export default function InboxItemPage({ uuid = '' }: { uuid?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const account = useCurrentAccountUuid();
  const { data: notification, error, isPending } = useQuery(notificationQuery(account, uuid));
  const setRead = useSetNotificationRead(account);
  const archive = useArchiveNotification(account);
  const restore = useRestoreNotification(account);
  const markedOnOpen = useRef<string | null>(null);

  const unread = notification?.readAt === null;
  const { mutate } = setRead;
  useEffect(() => {
    if (unread && markedOnOpen.current !== uuid) {
      markedOnOpen.current = uuid;
      mutate({ uuid, read: true, quiet: true });
    }
  }, [unread, uuid, mutate]);

  if (isPending) {
    return (
      <Page title={t('routes.inboxItem')}>
        <CircularProgress aria-label={t('routes.inboxItem')} />
      </Page>
    );
  }
  if (!notification) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <Page title={t(missing ? 'notifications.notFoundTitle' : 'routes.inboxItem')}>
        <EmptyState
          icon={SearchOff}
          title={t(missing ? 'notifications.notFoundTitle' : 'notifications.loadFailed')}
          text={missing ? t('notifications.notFoundText') : ''}
          action={{ to: href('inbox'), label: t('notifications.back') }}
        />
      </Page>
    );
  }

  const view = notificationView(t, notification);
  const archived = notification.archivedAt !== null;
  return (
    <Page title={t('routes.inboxItem')}>
      <Button
        component={RouterLink}
        to={archived ? `${href('inbox')}?archived=1` : href('inbox')}
        startIcon={<ArrowBack />}
        sx={{ mb: 2 }}
      >
        {archived ? t('notifications.backToArchived') : t('notifications.back')}
      </Button>
      <Paper variant="outlined" component="article" sx={{ p: { xs: 2, sm: 4 }, maxWidth: 760 }}>
        <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap' }}>
          <Chip size="small" variant="outlined" label={view.label} />
          {notification.accountUuid === null && (
            <Chip size="small" variant="outlined" label={t('notifications.personal')} />
          )}
          {archived && (
            <Chip size="small" icon={<ArchiveOutlined />} label={t('notifications.archivedLabel')} />
          )}
        </Stack>
        <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
          {view.title}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {t('notifications.receivedAt', { date: formatDateTime(notification.createdAt) })}
          {notification.archivedAt &&
            ` · ${t('notifications.archivedAt', { date: formatDateTime(notification.archivedAt) })}`}
        </Typography>
        <Typography sx={{ mb: 3 }}>{view.body}</Typography>
        {notification.type === 'announcement.published' && (
          <AnnouncementBody uuid={String(notification.params.announcementUuid ?? '')} />
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {notification.type !== 'announcement.published' && (
            <Button component={RouterLink} to={view.to} variant="contained" endIcon={<ArrowForward />}>
              {view.action}
            </Button>
          )}
          <Button
            variant="outlined"
            startIcon={<MarkEmailUnreadOutlined />}
            disabled={setRead.isPending || unread}
            onClick={() => setRead.mutate({ uuid, read: false })}
          >
            {t('notifications.markUnread')}
          </Button>
          {archived ? (
            <Button
              variant="outlined"
              startIcon={<UnarchiveOutlined />}
              disabled={restore.isPending}
              onClick={() => restore.mutate(uuid)}
            >
              {t('notifications.restore')}
            </Button>
          ) : (
            <Button
              variant="outlined"
              startIcon={<ArchiveOutlined />}
              disabled={archive.isPending}
              onClick={async () => {
                await archive.mutateAsync(uuid);
                await navigate(href('inbox'));
              }}
            >
              {t('notifications.archive')}
            </Button>
          )}
        </Stack>
      </Paper>
    </Page>
  );
}

/** An announcement's whole text in the reader's language (German where it has none), as the server rendered it. */
function AnnouncementBody({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const { data } = useQuery(announcementReadingQuery(uuid));
  if (!data)
    return <CircularProgress size={24} aria-label={t('notifications.announcementLoading')} sx={{ mb: 3 }} />;
  const language = currentLanguage();
  // Without a text of its own the language shows the German one (the server fell back to it).
  const html = data.html[language];
  return <RichText html={html} lang={html === data.html.de ? 'de' : language} sx={{ mb: 3 }} />;
}
