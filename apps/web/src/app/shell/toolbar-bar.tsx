import type { ReactNode } from 'react';
import Alert, { type AlertColor } from '@mui/material/Alert';

/** One toolbar under the app bar; loaded only when one is shown. */
export default function ToolbarBar({
  severity,
  children,
  action,
}: {
  severity: AlertColor;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Alert
      severity={severity}
      action={action}
      square
      sx={{
        borderBottom: 1,
        borderColor: 'divider',
        alignItems: 'center',
        px: { xs: 2, sm: 3 },
        '& .MuiAlert-action': { pt: 0, mr: 0, pl: 2 },
        '& .MuiButton-root': { whiteSpace: 'nowrap' },
      }}
    >
      {children}
    </Alert>
  );
}
