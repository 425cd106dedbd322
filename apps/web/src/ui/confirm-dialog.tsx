import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
}

export default function ConfirmDialog({
  open,
  options,
  onClose,
}: {
  open: boolean;
  options: ConfirmOptions;
  onClose: (confirmed: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={() => onClose(false)}
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
    >
      <DialogTitle id="confirm-title">{options.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-message" component="div">
          {options.message}
        </DialogContentText>
      </DialogContent>
      {/* The focus starts on the action Enter may safely take: cancel where confirming destroys (WAI-ARIA alert dialog). */}
      <DialogActions>
        <Button onClick={() => onClose(false)} color="inherit" autoFocus={options.destructive}>
          {options.cancelLabel ?? t('common.cancel')}
        </Button>
        <Button
          onClick={() => onClose(true)}
          variant="contained"
          color={options.destructive ? 'error' : 'primary'}
          autoFocus={!options.destructive}
        >
          {options.confirmLabel ?? t('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
