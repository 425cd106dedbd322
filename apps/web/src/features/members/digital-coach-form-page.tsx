import { useTranslation } from 'react-i18next';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { INVITATION_VALID_DAYS } from '@portal/contract';
import { useCurrentAccountUuid } from '@/api/session.ts';
import { Page } from '@/ui/page.tsx';
import { InviteForm } from './invite-form.tsx';

/**
 * settings/user-management/digital-coach: invites a fiduciary advisor (account role DC) by email, with an optional
 * note the invitation mail carries.
 */
export default function DigitalCoachFormPage() {
  const { t } = useTranslation();
  const account = useCurrentAccountUuid();
  return (
    <Page title={t('routes.digitalCoachForm')}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography sx={{ mb: 3, color: 'text.secondary' }}>
          {t('members.coachIntro', { days: INVITATION_VALID_DAYS })}
        </Typography>
        <InviteForm account={account} coach />
      </Paper>
    </Page>
  );
}
