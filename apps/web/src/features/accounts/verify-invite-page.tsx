import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import MailOutlined from '@mui/icons-material/MailOutlined';
import type { Account } from '@portal/contract';
import { storeAccountUuid } from '@/api/account-storage.ts';
import { useMyAccounts } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import { useAcceptInvitation, useDeclineInvitation } from './api.ts';

function Invitation({ account }: { account: Account }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Accepting opens the account: stored as the current one, then the guard selects it by ?uuid=.
  const accept = useAcceptInvitation(async ({ uuid }) => {
    storeAccountUuid(uuid);
    await navigate(href('dashboard', undefined, { uuid }));
  });
  const { decline, isPending: declining } = useDeclineInvitation();
  const busy = accept.isPending || declining;

  return (
    <Card variant="outlined" component="li" sx={{ listStyle: 'none' }}>
      <CardContent>
        <Typography component="h2" variant="h6">
          {account.name}
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>
          {t('invite.invitedAs', { role: t(`accounts.roles.${account.accountRole}`) })}
        </Typography>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, gap: 1 }}>
        <Button
          variant="contained"
          disabled={busy}
          aria-label={t('invite.acceptName', { name: account.name })}
          onClick={() => accept.mutate(account)}
        >
          {t('invite.accept')}
        </Button>
        <Button
          color="error"
          disabled={busy}
          aria-label={t('invite.declineName', { name: account.name })}
          onClick={() => void decline(account)}
        >
          {t('invite.decline')}
        </Button>
      </CardActions>
    </Card>
  );
}

/** /invite/verify: the user's pending invitations, each to accept or decline. */
export default function VerifyInvitePage() {
  const { t } = useTranslation();
  const accounts = useMyAccounts();
  const pending = accounts.filter((account) => account.invitationStatus === 'PENDING');
  const hasAccounts = accounts.length > 0;

  return (
    <Page title={t('routes.inviteVerify')}>
      <Typography sx={{ mb: 3, color: 'text.secondary' }}>{t('invite.intro')}</Typography>
      {pending.length > 0 ? (
        <Stack component="ul" spacing={2} sx={{ p: 0, m: 0, maxWidth: 640 }}>
          {pending.map((account) => (
            <Invitation key={account.uuid} account={account} />
          ))}
        </Stack>
      ) : (
        <EmptyState
          icon={MailOutlined}
          title={t('invite.empty')}
          text={t('invite.emptyHint')}
          action={
            hasAccounts
              ? { to: href('accounts'), label: t('invite.toAccounts') }
              : { to: href('onboarding'), label: t('invite.createOwn') }
          }
        />
      )}
    </Page>
  );
}
