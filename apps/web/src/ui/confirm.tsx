import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
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

type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/** SPEC §9: dialogs are at most 500 px wide. */
export const DIALOG_MAX_WIDTH = 500;

/** Promise-based confirmation dialog used by every destructive action. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((value: boolean) => void) | null>(null);

  const confirm = useCallback<Confirm>((next) => {
    resolver.current?.(false);
    setOptions(next);
    setOpen(true);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const close = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setOpen(false);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {options && (
        <Dialog
          open={open}
          onClose={() => close(false)}
          aria-labelledby="confirm-title"
          aria-describedby="confirm-message"
          slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, width: '100%' } } }}
        >
          <DialogTitle id="confirm-title">{options.title}</DialogTitle>
          <DialogContent>
            <DialogContentText id="confirm-message" component="div">
              {options.message}
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => close(false)} color="inherit">
              {options.cancelLabel ?? t('common.cancel')}
            </Button>
            <Button
              onClick={() => close(true)}
              variant="contained"
              color={options.destructive ? 'error' : 'primary'}
              autoFocus
            >
              {options.confirmLabel ?? t('common.confirm')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </ConfirmContext.Provider>
  );
}

/** `await confirm({ title, message, confirmLabel?, destructive? })` → true when the user confirmed. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs <ConfirmProvider>');
  return confirm;
}
