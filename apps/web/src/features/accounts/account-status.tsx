import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { Account } from '@portal/contract';
import { formatDate } from '@/i18n/format.ts';

/** Invitation, deletion and terms state of an account as small labelled chips. */
export function AccountStatus({ account, current }: { account: Account; current: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mt: 0.5 }}>
      {current && <Chip size="small" color="primary" label={t('accounts.current')} />}
      <Chip
        size="small"
        variant="outlined"
        color={account.invitationStatus === 'PENDING' ? 'warning' : 'default'}
        label={t(`accounts.invitation.${account.invitationStatus}`)}
      />
      {account.availableUntil && (
        <Chip
          size="small"
          variant="outlined"
          color="error"
          label={t('accounts.deletionScheduled', {
            date: formatDate(account.availableUntil, i18n.resolvedLanguage),
          })}
        />
      )}
      {account.isOwner && !(account.acceptedAgb && account.acceptedPrivacyPolicy) && (
        <Chip size="small" variant="outlined" color="warning" label={t('accounts.termsPending')} />
      )}
    </Stack>
  );
}
