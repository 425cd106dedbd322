import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { announcementText, type CurrentAnnouncement } from '@portal/contract';
import { currentAnnouncementsQuery, useDismissAnnouncement } from '@/api/current-announcements.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { href } from '../href.ts';
import ToolbarBar from './toolbar-bar.tsx';

/** The announcements whose window has not ended since the server answered. */
function stillOpen(list: CurrentAnnouncement[]): CurrentAnnouncement[] {
  const now = Date.now();
  return list.filter((a) => a.endsAt === null || Date.parse(a.endsAt) > now);
}

/**
 * The provider's maintenance and incident announcements during their window, for the people they reached: the
 * kind, title and window, a way to the whole text (the person's notification) and a button that closes the bar for
 * good (remembered on the server, so on every device).
 */
export default function AnnouncementBars() {
  const { t, i18n } = useTranslation();
  const { data } = useQuery({ ...currentAnnouncementsQuery, select: stillOpen });
  const dismiss = useDismissAnnouncement();
  const language = i18n.resolvedLanguage ?? 'de';
  return (data ?? []).map((a) => {
    const title = announcementText(a.title, language);
    const start = formatDateTime(a.startsAt);
    return (
      <ToolbarBar
        key={a.uuid}
        severity={a.kind === 'incident' ? 'error' : 'warning'}
        action={
          <Button
            color="inherit"
            size="small"
            aria-label={t('shell.announcement.dismissLabel', { title })}
            onClick={() => dismiss.mutate(a.uuid)}
          >
            {t('shell.announcement.dismiss')}
          </Button>
        }
      >
        <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
          <strong>{t(`shell.announcement.${a.kind === 'incident' ? 'incident' : 'maintenance'}`)}</strong>{' '}
          {title} (
          {a.endsAt
            ? t('shell.announcement.window', { start, end: formatDateTime(a.endsAt) })
            : t('shell.announcement.from', { start })}
          ){' '}
          <Link
            component={RouterLink}
            to={href('inbox-item', { uuid: a.notificationUuid })}
            color="inherit"
            sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
          >
            {t('shell.announcement.more')}
          </Link>
        </Box>
      </ToolbarBar>
    );
  });
}
