import { useTranslation } from 'react-i18next';
import { useInfiniteQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SignInEntry } from '@portal/contract';
import { formatDateTime } from '@/i18n/format.ts';
import { DotChip } from '@/ui/dot-chip.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { signInsQuery } from './api.ts';

const OUTCOME_COLOR: Record<SignInEntry['outcome'], 'success' | 'error' | 'warning'> = {
  success: 'success',
  'wrong-password': 'error',
  locked: 'warning',
  'second-factor-failed': 'error',
};

/** The card "Anmeldeverlauf": the person's sign-in attempts of the last 90 days, newest first, page by page. */
export function SignInHistoryCard() {
  const { t } = useTranslation();
  const entries = useInfiniteQuery(signInsQuery);
  const rows = entries.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <SectionCard id="security-history" title={t('security.history.title')}>
      <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary' }}>
        {t('security.history.intro')}
      </Typography>
      {entries.isPending ? (
        <CircularProgress aria-label={t('security.history.loading')} />
      ) : entries.isError ? (
        <Alert severity="error">{t('security.history.loadError')}</Alert>
      ) : rows.length === 0 ? (
        <Typography>{t('security.history.empty')}</Typography>
      ) : (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <TableContainer>
            <Table size="small" aria-labelledby="security-history">
              <TableHead>
                <TableRow>
                  <TableCell>{t('security.history.time')}</TableCell>
                  <TableCell>{t('security.history.browser')}</TableCell>
                  <TableCell>{t('security.history.address')}</TableCell>
                  <TableCell>{t('security.history.outcome')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((entry) => (
                  <TableRow key={entry.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.at)}</TableCell>
                    <TableCell>
                      {[entry.browser, entry.system].filter(Boolean).join(' · ') ||
                        t('security.history.unknown')}
                    </TableCell>
                    <TableCell>{entry.clientAddress ?? t('security.history.unknown')}</TableCell>
                    <TableCell>
                      <DotChip
                        color={OUTCOME_COLOR[entry.outcome]}
                        label={`${t(`security.history.outcomes.${entry.outcome}`)} · ${t(`security.history.methods.${entry.method}`)}`}
                      />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {entries.hasNextPage && (
            <Button
              variant="outlined"
              onClick={() => void entries.fetchNextPage()}
              disabled={entries.isFetchingNextPage}
            >
              {entries.isFetchingNextPage ? t('security.history.loading') : t('security.history.more')}
            </Button>
          )}
        </Stack>
      )}
    </SectionCard>
  );
}
