import { useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { dismissToast, getToasts, subscribeToasts, toast } from './toast-store.ts';

export type { ToastOptions } from './toast-store.ts';

/** `{ success(message, opts?), error(message, opts?) }` — toasts bottom-right, 5000 ms by default. */
export function useToast(): typeof toast {
  return toast;
}

/** The toast area at the bottom right of the shell. */
export function ToastViewport() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
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
          {item.description ? <AlertTitle>{item.message}</AlertTitle> : item.message}
          {item.description}
        </Alert>
      ))}
    </Box>
  );
}
