import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import MailOutlined from '@mui/icons-material/MailOutlined';
import type { Account } from '@portal/contract';
import { useAcceptAndOpenInvitation, useDeclineInvitation } from '@/api/invitations.ts';
import { ApiError } from '@/api/errors.ts';
import { useMe, useMyAccounts } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { rememberCurrentPage, signInAs } from '@/auth/auth.ts';
import { useVerifyEmailHref } from '@/auth/use-verify-email-href.ts';
import { formatDate } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Page } from '@/ui/page.tsx';
import { invitationLinkQuery, useAnswerInvitationLink } from './api.ts';

/** Accept and Decline of one invitation, named with the account for screen readers. */
function AnswerButtons({
  name,
  busy,
  onAccept,
  onDecline,
}: {
  name: string;
  busy: boolean;
  onAccept: () => void;
  onDecline: () => void;
}) {
  const { t } = useTranslation();
  return (
    <CardActions sx={{ px: 2, pb: 2, gap: 1 }}>
      {(['accept', 'decline'] as const).map((answer) => (
        <Button
          key={answer}
          {...(answer === 'accept' ? { variant: 'contained' } : { color: 'error' })}
          disabled={busy}
          aria-label={t(`invite.${answer}Name`, { name })}
          onClick={answer === 'accept' ? onAccept : onDecline}
        >
          {t(`invite.${answer}`)}
        </Button>
      ))}
    </CardActions>
  );
}

function Invitation({ account }: { account: Account }) {
  const { t } = useTranslation();
  const accept = useAcceptAndOpenInvitation();
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
      <AnswerButtons
        name={account.name}
        busy={busy}
        onAccept={() => accept.mutate(account)}
        onDecline={() => void decline(account)}
      />
    </Card>
  );
}

/**
 * The signed-in address is the invited one but not verified: a seat goes only to a verified address (decision
 * 193), so the page says why and offers the verification mail, whose link comes back here.
 */
function VerifyFirst({ email }: { email: string }) {
  const { t } = useTranslation();
  const verifyHref = useVerifyEmailHref(true);
  return (
    <>
      <CardContent sx={{ pt: 0 }}>
        <Alert severity="warning">{t('invite.link.notVerified', { email })}</Alert>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button
          variant="contained"
          href={verifyHref ?? undefined}
          disabled={!verifyHref}
          onClick={rememberCurrentPage}
        >
          {t('invite.link.sendVerification')}
        </Button>
      </CardActions>
    </>
  );
}

const unverifiedRefusal = (error: unknown) =>
  error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED';

/**
 * The invitation a mail's link names, for its holder: answer it, sign in as its address, verify the address first,
 * or why it is closed.
 */
function InvitationFromLink({ token }: { token: string }) {
  const { t } = useTranslation();
  const me = useMe();
  const confirm = useConfirm();
  const { data: link, isPending, error } = useQuery(invitationLinkQuery(token));
  const { accept, decline } = useAnswerInvitationLink(token, link);
  if (isPending) return <CircularProgress aria-label={t('invite.link.loading')} />;
  if (error || !link) {
    return (
      <EmptyState
        icon={LinkOffOutlined}
        title={t('invite.link.unknown')}
        text={t('invite.link.unknownHint')}
        action={{ to: href('accounts'), label: t('invite.toAccounts') }}
      />
    );
  }
  if (link.status !== 'PENDING') {
    return (
      <EmptyState
        icon={LinkOffOutlined}
        title={t(`invite.link.closed.${link.status}`, { name: link.accountName })}
        text={t(`invite.link.closedHint.${link.status}`, { name: link.accountName })}
        action={{ to: href('accounts'), label: t('invite.toAccounts') }}
      />
    );
  }
  const role = t(`accounts.roles.${link.role}`);
  const busy = accept.isPending || decline.isPending;
  const details = (
    <CardContent>
      <Typography component="h2" variant="h6">
        {link.accountName}
      </Typography>
      <Typography sx={{ color: 'text.secondary' }}>{t('invite.invitedAs', { role })}</Typography>
      {link.invitedBy && (
        <Typography sx={{ color: 'text.secondary' }}>
          {t('invite.link.invitedBy', { name: link.invitedBy })}
        </Typography>
      )}
      <Typography sx={{ color: 'text.secondary' }}>
        {t('invite.link.validUntil', { date: formatDate(link.expiresAt) })}
      </Typography>
    </CardContent>
  );
  if (!link.forYou) {
    return (
      <Card variant="outlined" sx={{ maxWidth: 640 }}>
        {details}
        <CardContent sx={{ pt: 0 }}>
          <Alert severity="warning">
            {t('invite.link.otherAddress', { invited: link.email, current: me.email })}
          </Alert>
        </CardContent>
        <CardActions sx={{ px: 2, pb: 2 }}>
          <Button variant="contained" onClick={() => void signInAs(link.email)}>
            {t('invite.link.signInAs', { email: link.email })}
          </Button>
        </CardActions>
      </Card>
    );
  }
  const refused = accept.error ?? decline.error;
  if (!me.emailVerified || unverifiedRefusal(refused)) {
    return (
      <Card variant="outlined" sx={{ maxWidth: 640 }}>
        {details}
        <VerifyFirst email={link.email} />
      </Card>
    );
  }
  return (
    <Card variant="outlined" sx={{ maxWidth: 640 }}>
      {details}
      {refused && (
        <CardContent sx={{ pt: 0 }}>
          <Alert severity="error">{t('invite.link.failed')}</Alert>
        </CardContent>
      )}
      <AnswerButtons
        name={link.accountName}
        busy={busy}
        onAccept={() => accept.mutate()}
        onDecline={async () => {
          const ok = await confirm({
            title: t('invite.declineTitle'),
            message: t('invite.declineMessage', { name: link.accountName }),
            confirmLabel: t('invite.decline'),
            destructive: true,
          });
          if (ok) decline.mutate();
        }}
      />
    </Card>
  );
}

/**
 * /invite/verify: with a mail's link (`?token=…`) that one invitation; otherwise the user's pending invitations,
 * each to accept or decline.
 */
export default function VerifyInvitePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const me = useMe();
  const accounts = useMyAccounts();
  const pending = accounts.filter((account) => account.invitationStatus === 'PENDING');
  const hasAccounts = accounts.length > 0;

  if (token) {
    return (
      <Page title={t('routes.inviteVerify')}>
        <InvitationFromLink token={token} />
      </Page>
    );
  }
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
          // Invitations show only to a verified address (decision 193).
          text={t(me.emailVerified ? 'invite.emptyHint' : 'invite.emptyUnverified')}
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
