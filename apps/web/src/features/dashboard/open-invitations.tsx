import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Account } from '@portal/contract';
import { useAcceptAndOpenInvitation, useDeclineInvitation } from '@/api/invitations.ts';
import { SectionCard } from '@/ui/section-card.tsx';

/** One open invitation with its answers; the buttons name the account, so a screen reader hears which one. */
function InvitationRow({ account }: { account: Account }) {
  const { t } = useTranslation();
  const accept = useAcceptAndOpenInvitation();
  const { decline, isPending: declining } = useDeclineInvitation();
  const busy = accept.isPending || declining;
  return (
    <Stack
      component="li"
      direction={{ xs: 'column', sm: 'row' }}
      sx={{
        alignItems: { sm: 'center' },
        justifyContent: 'space-between',
        gap: 1,
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <div>
        <Typography sx={{ fontWeight: 600 }}>{account.name}</Typography>
        <Typography variant="body2" color="text.secondary">
          {t('dashboard.invitedAs', { role: t(`common.accountRoles.${account.accountRole}`) })}
        </Typography>
      </div>
      <Stack direction="row" sx={{ gap: 1, flexShrink: 0 }}>
        <Button
          color="error"
          disabled={busy}
          aria-label={t('invite.declineName', { name: account.name })}
          onClick={() => void decline(account)}
        >
          {t('invite.decline')}
        </Button>
        <Button
          variant="contained"
          disabled={busy}
          aria-label={t('invite.acceptName', { name: account.name })}
          onClick={() => accept.mutate(account)}
        >
          {t('invite.accept')}
        </Button>
      </Stack>
    </Stack>
  );
}

/**
 * Every invitation of the user that is still open, whichever account is selected: accepting opens that account,
 * declining asks first. Hidden when there is none.
 */
export function OpenInvitations({ accounts }: { accounts: Account[] }) {
  const { t } = useTranslation();
  const open = accounts.filter((account) => account.invitationStatus === 'PENDING');
  if (open.length === 0) return null;
  return (
    <Box sx={{ mb: 3 }}>
      <SectionCard id="dashboard-invitations" title={t('dashboard.invitationsTitle', { count: open.length })}>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {t('dashboard.invitationsIntro', { count: open.length })}
        </Typography>
        <Stack component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {open.map((account) => (
            <InvitationRow key={account.uuid} account={account} />
          ))}
        </Stack>
      </SectionCard>
    </Box>
  );
}
