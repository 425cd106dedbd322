import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import GavelOutlined from '@mui/icons-material/GavelOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import { OWNERSHIP_TRANSFER_DAYS, type Ownership, type OwnershipTransfer } from '@portal/contract';
import { useCurrentAccount, useMe } from '@/api/session.ts';
import { href } from '@/app/href.ts';
import { formatDate, formatDateTime } from '@/i18n/format.ts';
import { useConfirm } from '@/ui/confirm.tsx';
import { Page } from '@/ui/page.tsx';
import { SectionCard } from '@/ui/section-card.tsx';
import { useCancelTransfer } from './api.ts';
import { OwnershipLoader } from './ownership-loader.tsx';

function PendingTransfer({ account, transfer }: { account: string; transfer: OwnershipTransfer }) {
  const { t, i18n } = useTranslation();
  const confirm = useConfirm();
  const cancel = useCancelTransfer(account);
  const name = transfer.to.name || transfer.to.email;
  const onCancel = async () => {
    const ok = await confirm({
      title: t('ownership.cancelTitle'),
      message: t('ownership.cancelMessage', { name }),
      confirmLabel: t('ownership.cancelAction'),
      cancelLabel: t('ownership.cancelKeep'),
      destructive: true,
    });
    if (ok) cancel.mutate(transfer);
  };
  return (
    <Alert
      severity="warning"
      role="status"
      action={
        <Button color="inherit" onClick={() => void onCancel()} disabled={cancel.isPending}>
          {t('ownership.cancelAction')}
        </Button>
      }
    >
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t('ownership.pendingHeading')}
      </Typography>
      {t('ownership.pendingText', {
        name,
        email: transfer.to.email,
        date: formatDateTime(transfer.expiresAt, i18n.resolvedLanguage),
      })}
    </Alert>
  );
}

function OwnershipDetails({
  account,
  data,
  isOwner,
}: {
  account: string;
  data: Ownership;
  isOwner: boolean;
}) {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const meanings = [
    { icon: GavelOutlined, label: t('ownership.termsLabel'), text: t('ownership.meaningTerms') },
    { icon: ReceiptLongOutlined, label: t('ownership.billingLabel'), text: t('ownership.meaningBilling') },
    { icon: DeleteOutline, label: t('ownership.deletionLabel'), text: t('ownership.meaningDeletion') },
  ];
  return (
    <Stack spacing={3}>
      <SectionCard id="ownership-owner" title={t('ownership.ownerHeading')}>
        <Typography sx={{ fontWeight: 600 }}>{data.owner.name || data.owner.email}</Typography>
        <Typography sx={{ color: 'text.secondary' }}>{data.owner.email}</Typography>
        {data.ownerSince && (
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
            {t('ownership.ownerSince', { date: formatDate(data.ownerSince, i18n.resolvedLanguage) })}
            {data.owner.uuid === me.uuid && ` ${t('ownership.itsYou')}`}
          </Typography>
        )}
      </SectionCard>

      <SectionCard id="ownership-meaning" title={t('ownership.meaningHeading')}>
        <Typography>{t('ownership.meaningIntro')}</Typography>
        <List dense>
          {meanings.map(({ icon: Icon, label, text }) => (
            <ListItem key={label} disableGutters alignItems="flex-start">
              <ListItemIcon sx={{ minWidth: 40, mt: 0.5 }}>
                <Icon aria-hidden />
              </ListItemIcon>
              <ListItemText primary={label} secondary={text} />
            </ListItem>
          ))}
        </List>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('ownership.meaningLeaving')}
        </Typography>
      </SectionCard>

      <SectionCard id="ownership-transfer" title={t('ownership.transferHeading')}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography>{t('ownership.transferIntro', { days: OWNERSHIP_TRANSFER_DAYS })}</Typography>
          {data.pendingTransfer ? (
            <PendingTransfer account={account} transfer={data.pendingTransfer} />
          ) : isOwner ? (
            <Button component={RouterLink} to={href('settings-ownership-transfer')} variant="contained">
              {t('ownership.transferAction')}
            </Button>
          ) : (
            <Typography sx={{ color: 'text.secondary' }}>{t('ownership.staffReadOnly')}</Typography>
          )}
        </Stack>
      </SectionCard>
    </Stack>
  );
}

/** settings/ownership: who owns the account, what that means, and the transfer to an admin. */
export default function OwnershipPage() {
  const { t } = useTranslation();
  const account = useCurrentAccount();
  return (
    <Page title={t('routes.ownership')}>
      <OwnershipLoader>
        {(uuid, data) => (
          <OwnershipDetails account={uuid} data={data} isOwner={account?.accountRole === 'OWNER'} />
        )}
      </OwnershipLoader>
    </Page>
  );
}
