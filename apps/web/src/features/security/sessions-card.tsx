import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableContainer from '@mui/material/TableContainer';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Computer from '@mui/icons-material/Computer';
import Smartphone from '@mui/icons-material/Smartphone';
import type { SignInSession } from '@portal/contract';
import { formatDateTime, formatRelativeTime } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { RowActionsCell } from '@/ui/row-actions-cell.tsx';
import { sessionsQuery, useEndOtherSessions, useEndSession } from './api.ts';

const MOBILE_SYSTEMS = /^(iOS|Android|iPadOS)/;
const notOnPhones = { display: { xs: 'none', sm: 'table-cell' } } as const;

/** A time as "vor 5 Minuten", the exact date and time on hover and in the <time> element. */
function When({ value }: { value: string }) {
  return (
    <Box component="time" dateTime={value} title={formatDateTime(value)} sx={{ whiteSpace: 'nowrap' }}>
      {formatRelativeTime(value)}
    </Box>
  );
}

/**
 * The card "Sitzungen": every browser where the person is signed in (browser, system, address, started, last active),
 * this one marked, each with "Abmelden", and "Überall sonst abmelden". An ended session's browser is logged out at
 * its next token refresh (within a few minutes); ending this one logs out here at once.
 */
export function SessionsCard() {
  const { t } = useTranslation();
  const sessions = useQuery(sessionsQuery);
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const confirm = useConfirm();
  const busy = endOne.isPending || endOthers.isPending;

  const askEnd = async (session: SignInSession) => {
    const name = describe(session);
    const confirmed = await confirm({
      title: t('security.sessions.endTitle'),
      message: session.current
        ? t('security.sessions.endCurrentMessage')
        : t('security.sessions.endMessage', { name }),
      confirmLabel: t('security.sessions.end'),
      destructive: true,
    });
    if (confirmed) endOne.mutate(session);
  };

  const askEndOthers = async () => {
    const confirmed = await confirm({
      title: t('security.sessions.endOthersTitle'),
      message: t('security.sessions.endOthersMessage'),
      confirmLabel: t('security.sessions.endOthers'),
      destructive: true,
    });
    if (confirmed) endOthers.mutate();
  };

  const describe = (session: SignInSession) =>
    [session.browser, session.system].filter(Boolean).join(' · ') || t('security.sessions.unknownBrowser');

  const list = sessions.data?.data ?? [];
  const others = list.filter((session) => !session.current).length;

  return (
    <SectionCard id="security-sessions" title={t('security.sessions.title')}>
      <Stack spacing={2}>
        <Typography sx={{ color: 'text.secondary' }}>{t('security.sessions.intro')}</Typography>
        {sessions.isPending && <Skeleton variant="rounded" height={96} />}
        {sessions.isError && <Alert severity="error">{t('security.sessions.loadError')}</Alert>}
        {sessions.isSuccess && (
          <TableContainer>
            <Table
              size="small"
              aria-label={t('security.sessions.title')}
              sx={{ '& th': { whiteSpace: 'nowrap' }, '& td, & th': { px: { xs: 1, sm: 2 } } }}
            >
              <TableHead>
                <TableRow>
                  <TableCell>{t('security.sessions.browser')}</TableCell>
                  <TableCell sx={notOnPhones}>{t('security.sessions.address')}</TableCell>
                  <TableCell sx={notOnPhones}>{t('security.sessions.started')}</TableCell>
                  <TableCell sx={notOnPhones}>{t('security.sessions.lastActive')}</TableCell>
                  <RowActionsCell>{t('security.sessions.actions')}</RowActionsCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.map((session) => {
                  const Icon = MOBILE_SYSTEMS.test(session.system ?? '') ? Smartphone : Computer;
                  return (
                    <TableRow key={session.id}>
                      <TableCell>
                        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                          <Icon fontSize="small" aria-hidden sx={{ color: 'text.secondary' }} />
                          <Box>
                            <Stack
                              direction="row"
                              spacing={1}
                              useFlexGap
                              sx={{ alignItems: 'center', flexWrap: 'wrap' }}
                            >
                              <span>{describe(session)}</span>
                              {session.current && (
                                <Chip size="small" color="primary" label={t('security.sessions.current')} />
                              )}
                            </Stack>
                            {/* On phones the columns beside it give way: the last activity shows here. */}
                            <Typography
                              variant="body2"
                              sx={{ color: 'text.secondary', display: { xs: 'block', sm: 'none' } }}
                            >
                              {t('security.sessions.lastActive')}: <When value={session.lastActiveAt} />
                            </Typography>
                          </Box>
                        </Stack>
                      </TableCell>
                      <TableCell sx={notOnPhones}>
                        {session.clientAddress ?? t('security.sessions.unknownAddress')}
                      </TableCell>
                      <TableCell sx={{ ...notOnPhones, whiteSpace: 'nowrap' }}>
                        {formatDateTime(session.startedAt)}
                      </TableCell>
                      <TableCell sx={notOnPhones}>
                        <When value={session.lastActiveAt} />
                      </TableCell>
                      <RowActionsCell>
                        <Button
                          size="small"
                          color="error"
                          disabled={busy}
                          onClick={() => void askEnd(session)}
                          aria-label={
                            session.current
                              ? t('security.sessions.endCurrentLabel')
                              : t('security.sessions.endLabel', { name: describe(session) })
                          }
                        >
                          {t('security.sessions.end')}
                        </Button>
                      </RowActionsCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {sessions.isSuccess && sessions.data.meta.total > list.length && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('security.sessions.more', { shown: list.length, total: sessions.data.meta.total })}
          </Typography>
        )}
        {others > 0 && (
          <Box>
            <Button variant="outlined" color="error" disabled={busy} onClick={() => void askEndOthers()}>
              {t('security.sessions.endOthers')}
            </Button>
          </Box>
        )}
      </Stack>
    </SectionCard>
  );
}
