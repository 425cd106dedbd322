import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import {
  ANNOUNCEMENT_STATUSES,
  announcementText,
  type Announcement,
  type AnnouncementStatus,
} from '@portal/contract';
import { href } from '@/app/href.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { AddressPagination, readPaging, useAddressParams } from '@/ui/address-pagination.tsx';
import { DotChip } from '@/ui/dot-chip.tsx';
import { EmptyState } from '@/ui/empty-state.tsx';
import { FilterSelect } from '@/ui/filter-select.tsx';
import { Page } from '@/ui/page.tsx';
import { announcementsQuery } from './api.ts';
import { audienceSummary, KIND_COLORS, STATUS_COLORS } from './labels.ts';

const PAGE_SIZES = [10, 25, 50];

/**
 * provider/announcements: every announcement, newest first, with its kind, state, window, audience and how many
 * people it reached and how many of them read it; paged on the server, the status filter and page in the address.
 */
export default function AnnouncementsPage() {
  const { t, i18n } = useTranslation();
  const { get, set } = useAddressParams();
  const status = (ANNOUNCEMENT_STATUSES as readonly string[]).includes(get('status') ?? '')
    ? (get('status') as AnnouncementStatus)
    : undefined;
  const { page, pageSize } = readPaging(get, PAGE_SIZES, 25);
  const result = useQuery(announcementsQuery({ status, page, pageSize }));
  const rows = result.data?.data ?? [];
  const total = result.data?.meta.total ?? 0;
  const newButton = (
    <Button
      component={RouterLink}
      to={href('announcement-new')}
      variant="contained"
      startIcon={<AddOutlined />}
    >
      {t('announcements.new')}
    </Button>
  );

  if (result.isSuccess && total === 0 && !status) {
    return (
      <Page title={t('routes.announcements')} actions={newButton}>
        <EmptyState
          icon={CampaignOutlined}
          title={t('announcements.emptyTitle')}
          text={t('announcements.emptyText')}
        />
      </Page>
    );
  }

  const language = i18n.resolvedLanguage ?? 'de';
  return (
    <Page title={t('routes.announcements')} actions={newButton}>
      <Typography sx={{ color: 'text.secondary', mb: 2, maxWidth: 760 }}>
        {t('announcements.intro')}
      </Typography>
      <Stack component="search" direction="row" sx={{ gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <FilterSelect
          label={t('announcements.columns.status')}
          value={status ?? ''}
          onChange={(value) => set('status', value)}
          options={[
            { value: '', label: t('announcements.allStatuses') },
            ...ANNOUNCEMENT_STATUSES.map((value) => ({ value, label: t(`announcements.statuses.${value}`) })),
          ]}
        />
      </Stack>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {result.isFetching && <LinearProgress aria-label={t('announcements.loading')} sx={{ height: 2 }} />}
        <Table size="small" aria-label={t('routes.announcements')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('announcements.columns.title')}</TableCell>
              <TableCell>{t('announcements.columns.kind')}</TableCell>
              <TableCell>{t('announcements.columns.status')}</TableCell>
              <TableCell>{t('announcements.columns.window')}</TableCell>
              <TableCell>{t('announcements.columns.audience')}</TableCell>
              <TableCell align="right">{t('announcements.columns.reach')}</TableCell>
              <TableCell align="right">{t('announcements.columns.read')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((a: Announcement) => (
              <TableRow key={a.uuid} hover>
                <TableCell sx={{ minWidth: 180 }}>
                  <Link
                    component={RouterLink}
                    to={href('announcement-edit', { announcementUuid: a.uuid })}
                    sx={{ fontWeight: 500 }}
                  >
                    {announcementText(a.title, language)}
                  </Link>
                </TableCell>
                <TableCell>
                  <DotChip color={KIND_COLORS[a.kind]} label={t(`announcements.kinds.${a.kind}`)} />
                </TableCell>
                <TableCell>
                  <DotChip color={STATUS_COLORS[a.status]} label={t(`announcements.statuses.${a.status}`)} />
                </TableCell>
                {/* Start and end on a line each: on one line the window alone pushed reach and read out of a
                    1280 px screen. */}
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(a.startsAt)}
                  {a.endsAt && (
                    <>
                      {' – '}
                      <br />
                      {formatDateTime(a.endsAt)}
                    </>
                  )}
                </TableCell>
                <TableCell>{audienceSummary(t, a)}</TableCell>
                <TableCell align="right">{a.reach}</TableCell>
                <TableCell align="right">{a.read}</TableCell>
              </TableRow>
            ))}
            {rows.length === 0 && !result.isFetching && (
              <TableRow>
                <TableCell colSpan={7} sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>
                  {result.isError ? t('announcements.loadFailed') : t('announcements.noMatch')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <AddressPagination total={total} page={page} pageSize={pageSize} sizes={PAGE_SIZES} />
    </Page>
  );
}
