import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { SUPPORT_SEVERITIES, type SupportInfo } from '@portal/contract';
import { href } from '@/app/href.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { INTL_LOCALES } from '@/i18n/format.ts';
import { Page } from '@/ui/page.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { TableBox } from '@/ui/table-box.tsx';
import { supportInfoQuery } from './api.ts';

/** ISO weekdays (1 = Monday) as the locale names them: "Montag–Freitag", or a list when they are not a run. */
function dayRange(days: readonly number[], locale: string): string {
  const names = new Intl.DateTimeFormat(locale, { weekday: 'long' });
  // 2024-01-01 was a Monday.
  const name = (day: number) => names.format(new Date(Date.UTC(2024, 0, day, 12)));
  if (days.length === 0) return '';
  const run = days.every((day, i) => i === 0 || day === days[i - 1]! + 1);
  if (run && days.length > 2) return `${name(days[0]!)}–${name(days.at(-1)!)}`;
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(days.map(name));
}

function Hours({ info }: { info: SupportInfo }) {
  const { t } = useTranslation();
  const locale = INTL_LOCALES[currentLanguage()];
  return (
    <Typography>
      {t('support.info.hoursText', {
        days: dayRange(info.hours.days, locale),
        from: info.hours.from,
        to: info.hours.to,
        timeZone: info.hours.timeZone,
      })}
    </Typography>
  );
}

/** How to reach support, when, and how fast it answers by severity; all from the server's configuration. */
export default function SupportInfoPage() {
  const { t } = useTranslation();
  const info = useQuery(supportInfoQuery());
  return (
    <Page title={t('routes.supportInfo')}>
      {info.isPending ? (
        <CircularProgress aria-label={t('support.info.loading')} />
      ) : info.isError ? (
        <Alert severity="error">{t('support.info.loadError')}</Alert>
      ) : (
        <Stack spacing={3} sx={{ maxWidth: 760 }}>
          <Typography sx={{ color: 'text.secondary' }}>{t('support.info.intro')}</Typography>
          <SectionCard id="support-channels" title={t('support.info.channels')}>
            <Stack spacing={1.5}>
              <Typography>
                {t('support.info.portal')}{' '}
                <Link component={RouterLink} to={href('support-ticket')}>
                  {t('support.home.newTicket')}
                </Link>
              </Typography>
              <Typography>
                {t('support.info.email')}: <Link href={`mailto:${info.data.email}`}>{info.data.email}</Link>
              </Typography>
              {info.data.phone && (
                <Typography>
                  {t('support.info.phone')}:{' '}
                  <Link href={`tel:${info.data.phone.replace(/[^\d+]/g, '')}`}>{info.data.phone}</Link>
                </Typography>
              )}
            </Stack>
          </SectionCard>
          <SectionCard id="support-hours" title={t('support.info.hours')}>
            <Hours info={info.data} />
          </SectionCard>
          <SectionCard id="support-response" title={t('support.info.responseTimes')}>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
              {t('support.info.responseIntro')}
            </Typography>
            <TableBox label={t('support.info.responseTimes')}>
              <Table size="small" aria-labelledby="support-response">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('support.list.severity')}</TableCell>
                    <TableCell>{t('support.info.meaning')}</TableCell>
                    <TableCell align="right">{t('support.info.firstResponse')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {SUPPORT_SEVERITIES.map((severity) => (
                    <TableRow key={severity}>
                      <TableCell>{t(`support.severities.${severity}`)}</TableCell>
                      <TableCell>{t(`support.severityHelp.${severity}`)}</TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {t('support.info.withinHours', { count: info.data.responseHours[severity] })}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableBox>
          </SectionCard>
          <div>
            <Button variant="contained" component={RouterLink} to={href('support-ticket')}>
              {t('support.home.newTicket')}
            </Button>
          </div>
        </Stack>
      )}
    </Page>
  );
}
