import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { SUPPORT_CATEGORIES } from '@portal/contract';
import { useCurrentAccountUuid } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { Page } from '@/ui/page.tsx';
import { ticketsQuery } from './api.ts';
import { TicketsTable } from './tickets-table.tsx';

const OPEN_SHOWN = 5;

/** The open tickets (open or waiting for the customer), newest first, with the way to all of them. */
function OpenTickets() {
  const { t } = useTranslation();
  const account = useCurrentAccountUuid();
  const open = useQuery(ticketsQuery(account, { state: 'active', pageSize: OPEN_SHOWN }));
  const total = open.data?.meta.total ?? 0;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="support-open" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'baseline', mb: 1.5, gap: 2 }}
      >
        <Typography id="support-open" component="h2" variant="h6">
          {t('support.home.openTitle')}
        </Typography>
        <Link component={RouterLink} to={href('support-tickets')}>
          {t('support.home.allTickets')}
        </Link>
      </Stack>
      {open.isPending ? (
        <CircularProgress size={24} aria-label={t('support.list.loading')} />
      ) : open.isError ? (
        <Alert severity="error">{t('support.list.loadError')}</Alert>
      ) : total === 0 ? (
        <Typography sx={{ color: 'text.secondary' }}>{t('support.home.noOpen')}</Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <TicketsTable tickets={open.data.data} caption={t('support.home.openTitle')} />
          {total > OPEN_SHOWN && (
            <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
              {t('support.home.moreOpen', { count: total - OPEN_SHOWN })}
            </Typography>
          )}
        </Box>
      )}
    </Paper>
  );
}

/**
 * The support home: what support helps with (each category with a short help text and a way to ask about it),
 * the open tickets, a new ticket, and how to reach support otherwise.
 */
export default function SupportPage() {
  const { t } = useTranslation();
  const actions = (
    <Button variant="contained" startIcon={<Add />} component={RouterLink} to={href('support-ticket')}>
      {t('support.home.newTicket')}
    </Button>
  );
  return (
    <Page title={t('routes.support')} actions={actions}>
      <Stack spacing={3}>
        <Typography sx={{ color: 'text.secondary' }}>
          {t('support.home.intro')}{' '}
          <Link component={RouterLink} to={href('support-info')}>
            {t('support.home.infoLink')}
          </Link>
        </Typography>
        <OpenTickets />
        <Box component="section" aria-labelledby="support-categories">
          <Typography id="support-categories" component="h2" variant="h6" sx={{ mb: 1.5 }}>
            {t('support.home.categoriesTitle')}
          </Typography>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
            }}
          >
            {SUPPORT_CATEGORIES.map((category) => (
              <Card key={category} variant="outlined" sx={{ display: 'flex', flexDirection: 'column' }}>
                <CardContent sx={{ flexGrow: 1 }}>
                  <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
                    {t(`support.categories.${category}.label`)}
                  </Typography>
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {t(`support.categories.${category}.help`)}
                  </Typography>
                </CardContent>
                <CardActions>
                  <Button
                    size="small"
                    component={RouterLink}
                    to={href('support-ticket', undefined, { category })}
                    aria-label={t('support.home.askAbout', {
                      category: t(`support.categories.${category}.label`),
                    })}
                  >
                    {t('support.home.ask')}
                  </Button>
                </CardActions>
              </Card>
            ))}
          </Box>
        </Box>
      </Stack>
    </Page>
  );
}
