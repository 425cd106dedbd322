import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Link from '@mui/material/Link';
import Download from '@mui/icons-material/Download';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import {
  ACCOUNT_ROLES,
  LOGS_QUERY_MAX,
  hasLevel,
  isLanguage,
  type AccountRole,
  type Language,
  type LogEntry,
} from '@portal/contract';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useCurrentAccount } from '@/api/session.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { Page } from '@/ui/page.tsx';
import { RowActionsCell } from '@/ui/row-actions-cell.tsx';
import { visuallyHidden } from '@/ui/visually-hidden.ts';
import { logActorsQuery, logsQuery, useExportLogs, type LogFilters } from './api.ts';
import { LOG_ACTIONS, actionLabel, changedFields, targetLabel, targetLink, valueText } from './log-labels.ts';

// The date fields are a library chunk of their own; the page loader fetches it beside this page (page-loaders.ts).
const DayRange = lazy(() => import('./day-field.tsx'));

/** Filters as the form holds them: dates as the date fields give them (YYYY-MM-DD, local days). */
interface FormFilters {
  actor: string;
  action: string;
  from: string;
  to: string;
  q: string;
}
const NO_FILTERS: FormFilters = { actor: '', action: '', from: '', to: '', q: '' };

/** A local day's start as an instant; `to` is inclusive for people, so the range ends at the next day's start. */
function dayStart(day: string, plusDays = 0): string | undefined {
  if (!day) return undefined;
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + plusDays).toISOString();
}

function toQuery(form: FormFilters): LogFilters {
  const q = form.q.trim();
  return {
    ...(form.actor ? { actor: form.actor } : {}),
    ...(form.action ? { action: form.action } : {}),
    ...(form.from ? { from: dayStart(form.from) } : {}),
    ...(form.to ? { to: dayStart(form.to, 1) } : {}),
    ...(q ? { q } : {}),
  };
}

function ChangeTable({ entry, language }: { entry: LogEntry; language: Language }) {
  const { t } = useTranslation();
  const changes = changedFields(entry.before, entry.after);
  if (!changes.length) return <Typography variant="body2">{t('logs.noChanges')}</Typography>;
  return (
    <Table size="small" aria-label={t('logs.changesOf', { action: actionLabel(language, entry.action) })}>
      <TableHead>
        <TableRow>
          <TableCell scope="col">{t('logs.field')}</TableCell>
          <TableCell scope="col">{t('logs.before')}</TableCell>
          <TableCell scope="col">{t('logs.after')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((change) => (
          <TableRow key={change.field}>
            <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace' }}>
              {change.field || t('logs.value')}
            </TableCell>
            <TableCell sx={{ wordBreak: 'break-word', color: 'text.secondary' }}>
              {valueText(change.before)}
            </TableCell>
            <TableCell sx={{ wordBreak: 'break-word' }}>{valueText(change.after)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** What the entry acted on, in words, linked to its page when the reader may open it. */
function Target({ entry, language, role }: { entry: LogEntry; language: Language; role: AccountRole }) {
  const text = targetLabel(language, entry);
  const to = targetLink(entry, role);
  return to ? (
    <Link component={RouterLink} to={to}>
      {text}
    </Link>
  ) : (
    text
  );
}

function EntryRow({ entry, locale, role }: { entry: LogEntry; locale: Language; role: AccountRole }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const detailsId = `log-entry-${entry.id}`;
  const changes = changedFields(entry.before, entry.after).length;
  const actor = entry.actor
    ? entry.actor.name || entry.actor.email || t('logs.deletedUser')
    : t('logs.system');
  return (
    <>
      <TableRow hover sx={{ '& > td, & > th': { borderBottom: open ? 'none' : undefined } }}>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt, locale)}</time>
        </TableCell>
        <TableCell component="th" scope="row">
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {actor}
          </Typography>
          {entry.actor?.email && entry.actor.email !== actor && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {entry.actor.email}
            </Typography>
          )}
          {entry.actorIsStaff && <Chip size="small" label={t('logs.staff')} sx={{ mt: 0.5 }} />}
        </TableCell>
        <TableCell>{actionLabel(locale, entry.action)}</TableCell>
        <TableCell sx={{ wordBreak: 'break-word' }}>
          <Target entry={entry} language={locale} role={role} />
        </TableCell>
        <TableCell>
          <Typography variant="body2">{entry.clientAddress ?? '—'}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }} title={entry.userAgent ?? undefined}>
            {entry.browser ?? ''}
          </Typography>
        </TableCell>
        <RowActionsCell>
          {changes > 0 && (
            <IconButton
              size="small"
              aria-expanded={open}
              aria-controls={detailsId}
              aria-label={t(open ? 'logs.hideChanges' : 'logs.showChanges', { count: changes })}
              onClick={() => setOpen(!open)}
            >
              {open ? <ExpandLess /> : <ExpandMore />}
            </IconButton>
          )}
        </RowActionsCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={6} sx={{ py: 0, ...(open ? {} : { borderBottom: 'none' }) }}>
          <Collapse in={open} unmountOnExit>
            <Box id={detailsId} sx={{ py: 1.5, pl: { md: 2 } }}>
              <ChangeTable entry={entry} language={locale} />
            </Box>
          </Collapse>
        </TableCell>
      </TableRow>
    </>
  );
}

/**
 * /logs: the account's audit log, newest first. ADMIN and above see every entry, lower roles the entries in which
 * they act or are named; the server decides, the page says so. Filters, "load more" along the server's keyset
 * cursor, and the CSV export of what the filters select.
 */
export default function LogsPage() {
  const { t, i18n } = useTranslation();
  const account = useCurrentAccount()!;
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'de';
  const wholeAccount = hasLevel(ACCOUNT_ROLES, account.accountRole, 'ADMIN');
  const [form, setForm] = useState<FormFilters>(NO_FILTERS);
  const rangeError = form.from && form.to && form.from > form.to ? t('logs.rangeError') : '';
  // Typing in the search field does not fire a request per key; the list follows once React is idle.
  const filters = {
    ...toQuery(useDeferredValue(rangeError ? { ...form, from: '', to: '' } : form)),
    lang: language,
  };
  const entries = useInfiniteQuery(logsQuery(account.uuid, filters));
  const actors = useQuery(logActorsQuery(account.uuid));
  const exportLogs = useExportLogs(account.uuid);
  const rows = entries.data?.pages.flatMap((page) => page.data) ?? [];
  const set = (field: keyof FormFilters) => (event: { target: { value: string } }) =>
    setForm({ ...form, [field]: event.target.value });
  const filtered = JSON.stringify(form) !== JSON.stringify(NO_FILTERS);

  return (
    <Page
      title={t('logs.title')}
      actions={
        <Button
          variant="outlined"
          startIcon={exportLogs.isPending ? <CircularProgress size={18} /> : <Download />}
          disabled={exportLogs.isPending || Boolean(rangeError)}
          onClick={() => exportLogs.mutate(filters)}
        >
          {t('logs.export')}
        </Button>
      }
    >
      <Typography sx={{ mb: 3, color: 'text.secondary' }}>
        {wholeAccount ? t('logs.introAll') : t('logs.introOwn')}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Box
          component="form"
          role="search"
          aria-label={t('logs.filters')}
          onSubmit={(event) => event.preventDefault()}
          sx={{
            display: 'grid',
            gap: 2,
            // The date fields need room for "20.11.2026" beside their clear and calendar buttons.
            gridTemplateColumns: {
              xs: '1fr',
              sm: '1fr 1fr',
              lg: '2fr 1.5fr 1.5fr minmax(13rem, 1fr) minmax(13rem, 1fr)',
            },
          }}
        >
          <TextField
            label={t('logs.search')}
            value={form.q}
            onChange={set('q')}
            type="search"
            slotProps={{ htmlInput: { maxLength: LOGS_QUERY_MAX } }}
          />
          <TextField select label={t('logs.actor')} value={form.actor} onChange={set('actor')}>
            <MenuItem value="">{t('logs.anyone')}</MenuItem>
            {(actors.data?.data ?? []).map((person) => (
              <MenuItem key={person.uuid} value={person.uuid}>
                {person.name || person.email}
              </MenuItem>
            ))}
          </TextField>
          <TextField select label={t('logs.action')} value={form.action} onChange={set('action')}>
            <MenuItem value="">{t('logs.anyAction')}</MenuItem>
            {LOG_ACTIONS.map((key) => ({ key, label: actionLabel(language, key) }))
              .sort((a, b) => a.label.localeCompare(b.label, language))
              .map(({ key, label }) => (
                <MenuItem key={key} value={key}>
                  {label}
                </MenuItem>
              ))}
          </TextField>
          <Suspense
            fallback={[t('logs.from'), t('logs.to')].map((label) => (
              <TextField key={label} label={label} disabled value="" />
            ))}
          >
            <DayRange
              language={language}
              from={{
                label: t('logs.from'),
                value: form.from,
                onChange: (day) => setForm({ ...form, from: day }),
              }}
              to={{
                label: t('logs.to'),
                value: form.to,
                onChange: (day) => setForm({ ...form, to: day }),
                error: rangeError || undefined,
              }}
            />
          </Suspense>
        </Box>
        {filtered && (
          <Button size="small" sx={{ mt: 1 }} onClick={() => setForm(NO_FILTERS)}>
            {t('logs.resetFilters')}
          </Button>
        )}
      </Paper>

      {entries.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={t('logs.loading')} />
        </Box>
      ) : entries.isError ? (
        <Alert severity="error">{t('logs.loadError')}</Alert>
      ) : rows.length === 0 ? (
        <Alert severity="info">{filtered ? t('logs.noMatches') : t('logs.empty')}</Alert>
      ) : (
        <>
          <TableContainer component={Paper} variant="outlined">
            <Table aria-label={t('logs.title')}>
              <TableHead>
                <TableRow>
                  <TableCell scope="col">{t('logs.time')}</TableCell>
                  <TableCell scope="col">{t('logs.actor')}</TableCell>
                  <TableCell scope="col">{t('logs.action')}</TableCell>
                  <TableCell scope="col">{t('logs.target')}</TableCell>
                  <TableCell scope="col">{t('logs.client')}</TableCell>
                  <RowActionsCell scope="col">
                    <Box component="span" sx={visuallyHidden}>
                      {t('logs.changes')}
                    </Box>
                  </RowActionsCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((entry) => (
                  <EntryRow key={entry.id} entry={entry} locale={language} role={account.accountRole} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <Stack
            direction="row"
            sx={{ alignItems: 'center', justifyContent: 'space-between', mt: 2, gap: 2 }}
          >
            <Typography variant="body2" sx={{ color: 'text.secondary' }} role="status">
              {t('logs.shown', { count: rows.length })}
            </Typography>
            {entries.hasNextPage && (
              <Button
                variant="outlined"
                onClick={() => void entries.fetchNextPage()}
                disabled={entries.isFetchingNextPage}
                startIcon={entries.isFetchingNextPage ? <CircularProgress size={18} /> : undefined}
              >
                {t('logs.loadMore')}
              </Button>
            )}
          </Stack>
        </>
      )}
    </Page>
  );
}
