import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { NotificationType } from '@portal/contract';
import { SectionCard } from '@/ui/section-card.tsx';
import { notificationPreferencesQuery, useUpdateNotificationPreferences } from './api.ts';

/**
 * The always-mailed types whose mail carries a link to answer (accept or decline); the owner's acceptance of an
 * offered ownership is mailed too, but there is nothing to answer (issue 23 item 9).
 */
const ANSWERED_FROM_MAIL: readonly NotificationType[] = [
  'invitation.received',
  'ownership.transfer_requested',
];

/**
 * Which notification types also come by email: one switch per type, saved as it is switched. Notifications always
 * appear in the inbox; without a choice of the user's own a type follows its default.
 */
export function NotificationPreferences() {
  const { t } = useTranslation();
  const { data: preferences, isError } = useQuery(notificationPreferencesQuery);
  const update = useUpdateNotificationPreferences();
  return (
    <SectionCard id="profile-notifications" title={t('notifications.preferences.title')}>
      <Typography variant="body2" sx={{ mb: 1, color: 'text.secondary' }}>
        {t('notifications.preferences.intro')}
      </Typography>
      {isError && <Alert severity="error">{t('notifications.preferences.loadFailed')}</Alert>}
      {!preferences && !isError && (
        <CircularProgress size={24} aria-label={t('notifications.preferences.title')} />
      )}
      {preferences && (
        <List dense disablePadding>
          {preferences.map(({ type, email, fixed }) => {
            const label = t(`notifications.types.${type}.label`);
            return (
              <ListItem key={type} disableGutters divider sx={{ justifyContent: 'space-between', gap: 2 }}>
                <div>
                  <Typography id={`notification-type-${type}`}>{label}</Typography>
                  {fixed && (
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {/* Only an invitation and an offered ownership are answered from their mail's link. */}
                      {t(
                        ANSWERED_FROM_MAIL.includes(type)
                          ? 'notifications.preferences.fixed'
                          : 'notifications.preferences.fixedNotice',
                      )}
                    </Typography>
                  )}
                </div>
                <FormControlLabel
                  labelPlacement="start"
                  control={
                    <Switch
                      checked={email}
                      disabled={update.isPending || fixed}
                      onChange={(event) => update.mutate([{ type, email: event.target.checked }])}
                      slotProps={{
                        input: { 'aria-label': `${label}: ${t('notifications.preferences.email')}` },
                      }}
                    />
                  }
                  label={
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {t('notifications.preferences.email')}
                    </Typography>
                  }
                />
              </ListItem>
            );
          })}
        </List>
      )}
    </SectionCard>
  );
}
