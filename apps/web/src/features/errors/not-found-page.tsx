import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from '@/routing/navigation-view.tsx';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Home from '@mui/icons-material/Home';
import { href } from '@/app/href.ts';
import { Page } from '@/ui/page.tsx';

/** /404?path=…: the page the user asked for does not exist; shows that path and leads back to the dashboard. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const path = params.get('path');
  return (
    <Page title={t('notFound.title')}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, maxWidth: 720 }}>
        <Typography sx={{ mb: 1, overflowWrap: 'anywhere' }}>
          {path ? (
            <Trans
              i18nKey="notFound.text"
              values={{ path }}
              components={{
                code: (
                  <Box
                    component="code"
                    sx={{ fontFamily: 'monospace', px: 0.5, borderRadius: 0.5, bgcolor: 'action.hover' }}
                  />
                ),
              }}
            />
          ) : (
            t('notFound.textNoPath')
          )}
        </Typography>
        <Typography sx={{ mb: 3, color: 'text.secondary' }}>{t('notFound.hint')}</Typography>
        <Button component={RouterLink} to={href('dashboard')} variant="contained" startIcon={<Home />}>
          {t('notFound.toDashboard')}
        </Button>
      </Paper>
    </Page>
  );
}
