import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { showText } from '@/i18n/later.ts';
import { dismissToast, type Toast } from './toast-store.ts';

/**
 * The visible toasts, bottom-right; loaded with the first toast. Their texts are translated here, so a toast on
 * screen follows a change of language.
 */
export default function ToastList({ toasts }: { toasts: readonly Toast[] }) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        position: 'fixed',
        right: 16,
        bottom: 16,
        zIndex: (theme) => theme.zIndex.snackbar,
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        maxWidth: 'min(420px, calc(100vw - 32px))',
      }}
    >
      {toasts.map((item) => (
        <Alert
          key={item.id}
          severity={item.type}
          variant="filled"
          role={item.type === 'error' ? 'alert' : 'status'}
          onClose={() => dismissToast(item.id)}
          sx={{ boxShadow: 6 }}
        >
          {item.description ? (
            <AlertTitle>{showText(item.message, t)}</AlertTitle>
          ) : (
            showText(item.message, t)
          )}
          {item.description && showText(item.description, t)}
        </Alert>
      ))}
    </Box>
  );
}
