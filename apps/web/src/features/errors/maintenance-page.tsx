import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Build from '@mui/icons-material/BuildOutlined';
import Refresh from '@mui/icons-material/Refresh';
import { Page } from '@/ui/page.tsx';

/** /maintenance: public, loads no data (the backend may be down); explains and offers a reload. */
export default function MaintenancePage() {
  const { t } = useTranslation();
  // Shown without the application frame, so it brings its own spacing.
  return (
    <Box sx={{ px: 2, py: { xs: 4, sm: 8 }, maxWidth: 800, mx: 'auto' }}>
      <Page title={t('maintenance.title')}>
        <Paper
          variant="outlined"
          sx={{
            p: { xs: 3, sm: 5 },
            maxWidth: 720,
            display: 'flex',
            flexDirection: 'column',
            gap: 1.5,
            alignItems: 'flex-start',
          }}
        >
          <Build aria-hidden sx={{ fontSize: 48, color: 'text.secondary' }} />
          <Typography>{t('maintenance.text')}</Typography>
          <Typography sx={{ color: 'text.secondary' }}>{t('maintenance.hint')}</Typography>
          <Button
            variant="contained"
            startIcon={<Refresh />}
            onClick={() => window.location.reload()}
            sx={{ mt: 1 }}
          >
            {t('maintenance.reload')}
          </Button>
        </Paper>
      </Page>
    </Box>
  );
}
