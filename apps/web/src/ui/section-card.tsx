import type { ReactNode } from 'react';
import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import Alert, { type AlertColor } from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** A titled card of a page: an outlined section named by its h2 heading (`id` links the two). */
export function SectionCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={id} component="h2" variant="h6" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** A notice with one way on: the link sits at the notice's end, e.g. "transfer the ownership first". */
export function LinkAlert({
  severity,
  to,
  label,
  children,
}: {
  severity: AlertColor;
  to: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <Alert
      severity={severity}
      action={
        <Button color="inherit" component={RouterLink} to={to}>
          {label}
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
