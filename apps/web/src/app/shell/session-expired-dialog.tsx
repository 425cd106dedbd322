import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { login } from '@/auth/auth.ts';
import type { IdlePhase } from '../idle.ts';

/** Not dismissible by Escape or a click outside (no onClose): only its own button acts. */
export default function SessionExpiredDialog({ phase, onStay }: { phase: IdlePhase; onStay: () => void }) {
  const { t } = useTranslation();
  const expired = phase.kind === 'expired';
  return (
    <Dialog open aria-labelledby="session-expiry-title" aria-describedby="session-expiry-message">
      <DialogTitle id="session-expiry-title">
        {expired ? t('shell.youHaveBeenLoggedOutTitle') : t('shell.youWillBeLoggedOutDueToInactivity')}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id="session-expiry-message" aria-live="polite">
          {expired
            ? t('shell.youHaveBeenLoggedOut')
            : t('shell.youWillBeLoggedOutInX', { count: phase.kind === 'countdown' ? phase.secondsLeft : 0 })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        {expired ? (
          <Button variant="contained" autoFocus onClick={() => void login()}>
            {t('shell.login')}
          </Button>
        ) : (
          <Button variant="contained" autoFocus onClick={onStay}>
            {t('shell.stayLoggedIn')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
