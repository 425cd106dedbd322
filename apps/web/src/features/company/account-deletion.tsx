import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ACCOUNT_DELETION_DAYS, type Account } from '@portal/contract';
import { formatDate } from '@/i18n/format.ts';
import { useCancelDeletion, useScheduleDeletion } from './api.ts';

/** The owner types the account's name to confirm; only then can the deletion be scheduled. */
function DeleteAccountDialog({ account, onClose }: { account: Account; onClose: () => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [touched, setTouched] = useState(false);
  const schedule = useScheduleDeletion();
  const matches = typed.trim() === account.name;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!matches) return;
    await schedule.mutateAsync(account);
    onClose();
  };

  const showMismatch = touched && typed !== '' && !matches;
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="delete-account-title"
      aria-describedby="delete-account-message"
    >
      <form noValidate onSubmit={(event) => void submit(event).catch(() => undefined)}>
        <DialogTitle id="delete-account-title">
          {t('company.deleteTitle', { name: account.name })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText id="delete-account-message" sx={{ mb: 2 }}>
            {t('company.deleteMessage', { days: ACCOUNT_DELETION_DAYS })}
          </DialogContentText>
          <TextField
            autoFocus
            fullWidth
            required
            label={t('company.confirmName')}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onBlur={() => setTouched(true)}
            error={showMismatch}
            helperText={
              showMismatch
                ? t('company.confirmNameMismatch')
                : t('company.confirmNameHelp', { name: account.name })
            }
            autoComplete="off"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" color="error" disabled={!matches || schedule.isPending}>
            {t('company.scheduleDeletion')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/**
 * Deleting the account: the owner schedules it (typing the name to confirm) and can cancel it while it is
 * scheduled; everyone else reads who can.
 */
export function AccountDeletion({ account }: { account: Account }) {
  const { t, i18n } = useTranslation();
  const { cancelDeletion, isPending } = useCancelDeletion();
  const [open, setOpen] = useState(false);

  if (account.availableUntil) {
    return (
      <Alert
        severity="warning"
        action={
          account.isOwner ? (
            <Button
              color="inherit"
              size="small"
              disabled={isPending}
              onClick={() => void cancelDeletion(account)}
            >
              {t('shell.cancelDeletion')}
            </Button>
          ) : undefined
        }
      >
        {t('company.deletionPlanned', { date: formatDate(account.availableUntil, i18n.resolvedLanguage) })}
      </Alert>
    );
  }

  return (
    <>
      <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary' }}>
        {t('company.deletionHelp', { days: ACCOUNT_DELETION_DAYS })}
        {!account.isOwner && ` ${t('company.deletionOwnerOnly')}`}
      </Typography>
      {account.isOwner && (
        <Button variant="outlined" color="error" onClick={() => setOpen(true)}>
          {t('company.deleteAccount')}
        </Button>
      )}
      {open && <DeleteAccountDialog account={account} onClose={() => setOpen(false)} />}
    </>
  );
}
