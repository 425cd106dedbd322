import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { OwnershipTransfer } from '@portal/contract';
import { href } from '@/app/href.ts';
import { formatDateTime } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { LinkAlert } from '@/ui/section-card.tsx';
import { useAnswerTransfer } from './answer-transfer.ts';
import { useNavigate } from '@/routing/navigation-view.tsx';

// The cards of a pending transfer of ownership (`ownership-offer.tsx`): a chunk of their own, loaded only when there
// is one to show (decision 255).

/** The chosen admin's card: what taking over means, until when, and Accept / Decline (each confirmed). */
export function IncomingOffer({ transfer }: { transfer: OwnershipTransfer }) {
  const { t, i18n } = useTranslation();
  const confirm = useConfirm();
  const navigate = useNavigate();
  // Accepting makes the user the owner: the next navigation asks them to accept the terms.
  const accept = useAnswerTransfer('accept', () => navigate(href('dashboard')));
  const decline = useAnswerTransfer('decline');
  const values = { name: transfer.from.name || transfer.from.email, account: transfer.accountName };
  const busy = accept.isPending || decline.isPending;

  // Each answer is confirmed first; declining is the destructive one.
  const answer = async (kind: 'accept' | 'decline') => {
    const mutation = kind === 'accept' ? accept : decline;
    const confirmed = await confirm({
      title: t(`ownership.${kind}Title`),
      message: t(`ownership.${kind}Message`, values),
      confirmLabel: t(`ownership.${kind}`),
      destructive: kind === 'decline',
    });
    if (confirmed) mutation.mutate(transfer);
  };

  return (
    <Alert
      severity="info"
      component="section"
      role="region"
      aria-labelledby="dashboard-ownership-offer"
      sx={{ mb: 3 }}
    >
      <Typography id="dashboard-ownership-offer" component="h2" variant="h6" sx={{ fontWeight: 600 }}>
        {t('ownership.incomingTitle', values)}
      </Typography>
      <Typography sx={{ mt: 0.5 }}>{t('ownership.incomingText', values)}</Typography>
      <Typography variant="body2" sx={{ mt: 1 }}>
        {t('ownership.incomingUntil', { date: formatDateTime(transfer.expiresAt, i18n.resolvedLanguage) })}
      </Typography>
      <Stack direction="row" sx={{ gap: 1, mt: 2, flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={() => void answer('accept')} disabled={busy}>
          {t('ownership.accept')}
        </Button>
        <Button variant="outlined" color="inherit" onClick={() => void answer('decline')} disabled={busy}>
          {t('ownership.decline')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** The owner's reminder that the ownership is on offer, with a way to the ownership page. */
export function OutgoingOffer({ transfer }: { transfer: OwnershipTransfer }) {
  const { t, i18n } = useTranslation();
  return (
    <Box sx={{ mb: 3 }}>
      <LinkAlert severity="warning" to={href('settings-ownership')} label={t('ownership.outgoingAction')}>
        {t('ownership.outgoingText', {
          name: transfer.to.name || transfer.to.email,
          date: formatDateTime(transfer.expiresAt, i18n.resolvedLanguage),
        })}
      </LinkAlert>
    </Box>
  );
}
