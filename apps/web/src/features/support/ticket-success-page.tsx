import { Link as RouterLink, useLocation } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleOutlineOutlined from '@mui/icons-material/CheckCircleOutlineOutlined';
import { href } from '@/app/href.ts';
import { Page } from '@/ui/page.tsx';
import type { CreatedTicketState } from './create-ticket-page.tsx';

function createdTicket(state: unknown): CreatedTicketState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { ticketNumber, ticketUuid } = state as Partial<CreatedTicketState>;
  return typeof ticketNumber === 'number' && typeof ticketUuid === 'string'
    ? { ticketNumber, ticketUuid }
    : null;
}

/**
 * After a ticket was sent: its number and the way to it. The number comes with the navigation from the form; a
 * direct visit (a bookmark, a reload in another tab) shows a general confirmation instead.
 */
export default function TicketSuccessPage() {
  const { t } = useTranslation();
  const created = createdTicket(useLocation().state);
  return (
    <Page title={t('routes.supportTicketSuccess')}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, maxWidth: 640 }}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <CheckCircleOutlineOutlined color="success" sx={{ fontSize: 48 }} aria-hidden />
          {created ? (
            <>
              <Typography variant="h5" component="h2" data-testid="ticket-number">
                {t('support.success.numbered', { number: created.ticketNumber })}
              </Typography>
              <Typography>{t('support.success.next')}</Typography>
            </>
          ) : (
            <>
              <Typography variant="h5" component="h2">
                {t('support.success.genericTitle')}
              </Typography>
              <Typography>{t('support.success.generic')}</Typography>
            </>
          )}
          <Stack direction="row" sx={{ gap: 1.5, flexWrap: 'wrap' }}>
            {created && (
              <Button
                variant="contained"
                component={RouterLink}
                to={href('support-ticket-detail', { ticketUuid: created.ticketUuid })}
              >
                {t('support.success.toTicket')}
              </Button>
            )}
            <Button
              variant={created ? 'outlined' : 'contained'}
              component={RouterLink}
              to={href('support-tickets')}
            >
              {t('support.home.allTickets')}
            </Button>
            <Button component={RouterLink} to={href('support')}>
              {t('support.success.toSupport')}
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Page>
  );
}
