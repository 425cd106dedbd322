import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import EventBusy from '@mui/icons-material/EventBusy';
import MailOutlined from '@mui/icons-material/MailOutlined';
import WarningAmber from '@mui/icons-material/WarningAmber';
import { hasAcceptedTerms, type Account } from '@portal/contract';
import { formatDate } from '@/i18n/format.ts';

/**
 * Invitation, deletion and terms state of an account as small labelled chips. The text keeps the theme's text
 * colour (readable in both themes); the icon carries the warning or error colour.
 */
export function AccountStatus({ account, current }: { account: Account; current: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mt: 0.5 }}>
      {current && <Chip size="small" color="primary" label={t('accounts.current')} />}
      <Chip
        size="small"
        variant="outlined"
        icon={account.invitationStatus === 'PENDING' ? <MailOutlined color="warning" /> : undefined}
        label={t(`accounts.invitation.${account.invitationStatus}`)}
      />
      {account.availableUntil && (
        <Chip
          size="small"
          variant="outlined"
          icon={<EventBusy color="error" />}
          label={t('accounts.deletionScheduled', {
            date: formatDate(account.availableUntil, i18n.resolvedLanguage),
          })}
        />
      )}
      {account.isOwner && !hasAcceptedTerms(account) && (
        <Chip
          size="small"
          variant="outlined"
          icon={<WarningAmber color="warning" />}
          label={t('accounts.termsPending')}
        />
      )}
    </Stack>
  );
}
