import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import MailOutlined from '@mui/icons-material/MailOutlined';
import { usersRoutes, type Account } from '@portal/contract';
import { storeAccountUuid } from '@/api/account-storage.ts';
import { apiRequest } from '@/api/client.ts';
import { useInvalidateSession, useMyAccounts } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import { useToast } from '@/ui/toast.tsx';

function Invitation({ account }: { account: Account }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const toast = useToast();
  const invalidateSession = useInvalidateSession();

  // Errors are toasted by the query client's mutation handling (mutate does not throw them).
  const accept = useMutation({
    mutationFn: () => apiRequest(usersRoutes.acceptInvitation, { params: { id: account.uuid } }),
    onSuccess: async () => {
      storeAccountUuid(account.uuid);
      await invalidateSession();
      toast.success(t('invite.accepted', { name: account.name }));
      await navigate(href('dashboard', undefined, { uuid: account.uuid }));
    },
  });
  const decline = useMutation({
    mutationFn: () => apiRequest(usersRoutes.declineInvitation, { params: { id: account.uuid } }),
    onSuccess: async () => {
      await invalidateSession();
      toast.success(t('invite.declined', { name: account.name }));
    },
  });

  // Pending lasts until onSuccess has finished (navigation included).
  const busy = accept.isPending || decline.isPending;

  const onDecline = async () => {
    const ok = await confirm({
      title: t('invite.declineTitle'),
      message: t('invite.declineMessage', { name: account.name }),
      confirmLabel: t('invite.decline'),
      destructive: true,
    });
    if (ok) decline.mutate();
  };

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
          onClick={() => accept.mutate()}
        >
          {t('invite.accept')}
        </Button>
        <Button
          color="error"
          disabled={busy}
          aria-label={t('invite.declineName', { name: account.name })}
          onClick={onDecline}
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
    <Page title={t('invite.title')}>
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
