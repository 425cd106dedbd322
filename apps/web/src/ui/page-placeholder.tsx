import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import { Page } from './page.tsx';

/** Areas that later issues fill; each has a route title (`routes.<area>`) and a sentence (`placeholder.<area>`). */
export type PlaceholderArea =
  | 'billing'
  | 'subscriptions'
  | 'inbox'
  | 'inboxItem'
  | 'logs'
  | 'support'
  | 'supportInfo'
  | 'supportTicket'
  | 'supportTicketSuccess'
  | 'companyProfile'
  | 'userManagement'
  | 'memberForm'
  | 'digitalCoachForm'
  | 'ownership'
  | 'transferOwnership'
  | 'deepcloudConnect'
  | 'deepcloudConnection'
  | 'abaclik'
  | 'ncrLesson'
  | 'peppershopConfig';

/** An honest empty state: the page's title, what the area will hold, and that nothing is here yet. */
export function PagePlaceholder({ area }: { area: PlaceholderArea }) {
  const { t } = useTranslation();
  return (
    <Page title={t(`routes.${area}`)}>
      <Paper
        variant="outlined"
        sx={{
          p: { xs: 3, sm: 5 },
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          textAlign: 'center',
          gap: 1.5,
        }}
      >
        <InboxOutlined aria-hidden sx={{ fontSize: 48, color: 'text.secondary' }} />
        <Typography component="p" variant="h6">
          {t('placeholder.empty')}
        </Typography>
        <Typography sx={{ color: 'text.secondary', maxWidth: 560 }}>{t(`placeholder.${area}`)}</Typography>
        <Button component={RouterLink} to="/" variant="outlined" sx={{ mt: 1 }}>
          {t('placeholder.toDashboard')}
        </Button>
      </Paper>
    </Page>
  );
}
