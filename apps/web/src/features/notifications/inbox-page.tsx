import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import DoneAll from '@mui/icons-material/DoneAll';
import DraftsOutlined from '@mui/icons-material/DraftsOutlined';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import MarkEmailUnreadOutlined from '@mui/icons-material/MarkEmailUnreadOutlined';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import {
  NOTIFICATIONS_PAGE_SIZE,
  NOTIFICATIONS_PAGE_SIZE_MAX,
  isNotificationType,
  type Notification,
  type NotificationsQuery,
} from '@portal/contract';
import { ServerPagination } from '@/ui/address-pagination.tsx';
import { href } from '@/app/href.ts';
import { useCurrentAccountUuid } from '@/api/session.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import { RowActionsCell } from '@/ui/row-actions-cell.tsx';
import {
  notificationsQuery,
  unreadCountQuery,
  useArchiveNotification,
  useMarkAllNotificationsRead,
  useRestoreNotification,
  useSetNotificationRead,
} from './api.ts';
import { TYPE_OPTIONS, notificationView, typeLabel } from './notification-text.ts';
import { visuallyHidden } from '@/ui/visually-hidden.ts';

const PAGE_SIZES = [10, NOTIFICATIONS_PAGE_SIZE, 50, NOTIFICATIONS_PAGE_SIZE_MAX];

type InboxParams = Record<'archived' | 'unread' | 'type' | 'page' | 'size', string | null>;

function toQuery(params: InboxParams): NotificationsQuery {
  const pageSize = Number(params.size);
  const type = params.type ?? '';
  return {
    page: Math.max(1, Math.floor(Number(params.page) || 1)),
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : NOTIFICATIONS_PAGE_SIZE,
    ...(params.archived === '1' ? { archived: true } : {}),
    ...(params.unread === '1' ? { unread: true } : {}),
    ...(isNotificationType(type) ? { type } : {}),
  };
}

/**
 * The inbox's view, filters and page (`?archived=1&unread=1&type=…&page=2&size=50`): held here, so a switch answers at once, and
 * written to the address bar, so a reload or a shared link keeps the view.
 */
function useInboxQuery() {
  const [search, setSearch] = useSearchParams();
  const [params, setParams] = useState<InboxParams>(() => ({
    archived: search.get('archived'),
    unread: search.get('unread'),
    type: search.get('type'),
    page: search.get('page'),
    size: search.get('size'),
  }));
  const update = (changes: Partial<InboxParams>) => {
    setParams((current) => ({ ...current, ...changes }));
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === undefined) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );
  };
  return { query: toQuery(params), update };
}

/** The table's one row when a page has none: why (nothing matches, or it failed to load). */
function NoRows({ text }: { text: string }) {
  return (
    <TableRow>
      <TableCell colSpan={4} align="center" sx={{ py: 4, color: 'text.secondary' }}>
        {text}
      </TableCell>
    </TableRow>
  );
}

function RowActions({ notification, label }: { notification: Notification; label: string }) {
  const { t } = useTranslation();
  const account = useCurrentAccountUuid();
  const setRead = useSetNotificationRead(account);
  const archive = useArchiveNotification(account);
  const restore = useRestoreNotification(account);
  const read = notification.readAt !== null;
  const toggle = read ? t('notifications.markUnread') : t('notifications.markRead');
  const archived = notification.archivedAt !== null;
  // An archived one moves back to the inbox; one in the inbox moves to the archive.
  const move = archived ? restore : archive;
  const moveLabel = archived ? t('notifications.restore') : t('notifications.archive');
  return (
    <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
      <Tooltip title={toggle}>
        <IconButton
          aria-label={`${toggle}: ${label}`}
          disabled={setRead.isPending}
          onClick={() => setRead.mutate({ uuid: notification.uuid, read: !read })}
        >
          {read ? <MarkEmailUnreadOutlined fontSize="small" /> : <DraftsOutlined fontSize="small" />}
        </IconButton>
      </Tooltip>
      <Tooltip title={moveLabel}>
        <IconButton
          aria-label={`${moveLabel}: ${label}`}
          disabled={move.isPending}
          onClick={() => move.mutate(notification.uuid)}
        >
          {archived ? <UnarchiveOutlined fontSize="small" /> : <ArchiveOutlined fontSize="small" />}
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

function NotificationRow({ notification }: { notification: Notification }) {
  const { t } = useTranslation();
  const view = notificationView(t, notification);
  const unread = notification.readAt === null;
  return (
    <TableRow hover selected={unread} data-testid="notification-row" data-unread={unread}>
      <TableCell sx={{ width: 16, pr: 0 }}>
        {unread && (
          <Box
            role="img"
            aria-label={t('notifications.unread')}
            sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: 'primary.main' }}
          />
        )}
      </TableCell>
      <TableCell>
        <Link
          component={RouterLink}
          to={href('inbox-item', { uuid: notification.uuid })}
          underline="hover"
          color="inherit"
          sx={{ fontWeight: unread ? 700 : 400 }}
        >
          {view.title}
        </Link>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {view.body}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ mt: 0.5 }}>
          <Chip size="small" variant="outlined" label={view.label} />
          {notification.accountUuid === null && (
            <Chip size="small" variant="outlined" label={t('notifications.personal')} />
          )}
        </Stack>
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap', color: 'text.secondary' }}>
        {formatDateTime(notification.createdAt)}
      </TableCell>
      <RowActionsCell>
        <RowActions notification={notification} label={view.title} />
      </RowActionsCell>
    </TableRow>
  );
}

/**
 * inbox: the user's notifications in this account and their personal ones, unread first, then newest; filters
 * (unread, type), read state and archive per row, "mark all read", paged on the server. The archived view lists
 * the archived ones, most recently archived first, each with "move to inbox".
 */
export default function InboxPage() {
  const { t } = useTranslation();
  const account = useCurrentAccountUuid();
  const { query, update } = useInboxQuery();
  const { data, isError, isFetching } = useQuery(notificationsQuery(account, query));
  const { data: unread = 0 } = useQuery(unreadCountQuery(account));
  const markAll = useMarkAllNotificationsRead(account);
  const archivedView = Boolean(query.archived);
  const filtered = Boolean(query.unread || query.type);
  const rows = data?.data ?? [];
  const total = data?.meta.total ?? 0;
  const pageSize = query.pageSize ?? NOTIFICATIONS_PAGE_SIZE;

  const actions = !archivedView && (
    <Button
      variant="outlined"
      startIcon={<DoneAll />}
      disabled={unread === 0 || markAll.isPending}
      onClick={() => markAll.mutate()}
    >
      {t('notifications.markAllRead')}
    </Button>
  );

  if (data && total === 0 && !filtered && !archivedView && query.page === 1) {
    return (
      <Page title={t('routes.inbox')} actions={actions}>
        <EmptyState
          icon={InboxOutlined}
          title={t('notifications.emptyTitle')}
          text={t('notifications.emptyText')}
          action={{ to: href('dashboard'), label: t('notifications.toDashboard') }}
        />
      </Page>
    );
  }

  return (
    <Page title={t('routes.inbox')} actions={actions}>
      <Typography sx={{ mb: 3, color: 'text.secondary' }}>
        {archivedView ? t('notifications.archivedIntro') : t('notifications.intro')}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ mb: 2, alignItems: { sm: 'center' } }}
          role="group"
          aria-label={t('notifications.filters.label')}
        >
          <ToggleButtonGroup
            exclusive
            size="small"
            value={archivedView ? 'archived' : 'inbox'}
            onChange={(_event, view: string | null) => {
              if (view) update({ archived: view === 'archived' ? '1' : null, page: null });
            }}
            aria-label={t('notifications.filters.view')}
          >
            <ToggleButton value="inbox">{t('notifications.filters.inbox')}</ToggleButton>
            <ToggleButton value="archived">{t('notifications.filters.archived')}</ToggleButton>
          </ToggleButtonGroup>
          <FormControlLabel
            control={
              <Switch
                checked={Boolean(query.unread)}
                onChange={(event) => update({ unread: event.target.checked ? '1' : null, page: null })}
              />
            }
            label={t('notifications.filters.unreadOnly')}
          />
          <TextField
            select
            size="small"
            label={t('notifications.filters.type')}
            value={query.type ?? ''}
            onChange={(event) => update({ type: event.target.value || null, page: null })}
            sx={{ minWidth: 260 }}
            slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          >
            <MenuItem value="">{t('notifications.filters.allTypes')}</MenuItem>
            {TYPE_OPTIONS.map((type) => (
              <MenuItem key={type} value={type}>
                {typeLabel(t, type)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <TableContainer>
          <Table
            aria-label={archivedView ? t('notifications.filters.archived') : t('routes.inbox')}
            aria-busy={isFetching}
          >
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 16, pr: 0 }}>
                  <Box component="span" sx={visuallyHidden}>
                    {t('notifications.unread')}
                  </Box>
                </TableCell>
                <TableCell>{t('notifications.columns.message')}</TableCell>
                <TableCell>{t('notifications.columns.received')}</TableCell>
                <RowActionsCell>{t('notifications.columns.actions')}</RowActionsCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((notification) => (
                <NotificationRow key={notification.uuid} notification={notification} />
              ))}
              {!rows.length && !isFetching && (
                <NoRows
                  text={
                    isError
                      ? t('notifications.loadFailed')
                      : archivedView && !filtered
                        ? t('notifications.archivedEmpty')
                        : t('notifications.noMatch')
                  }
                />
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <ServerPagination
          total={total}
          page={query.page ?? 1}
          pageSize={pageSize}
          sizes={PAGE_SIZES}
          onChange={(next, size) =>
            size === pageSize
              ? update({ page: next > 1 ? String(next) : null })
              : update({ size: String(size), page: null })
          }
        />
      </Paper>
    </Page>
  );
}
