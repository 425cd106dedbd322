import { Link as RouterLink } from '@/routing/navigation-view.tsx';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import type SvgIcon from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';

/** A centred card for "nothing here (yet)": an icon, a headline, a sentence and one way on (each list's empty look). */
export function EmptyState({
  icon: Icon,
  title,
  text,
  action,
}: {
  icon: typeof SvgIcon;
  title: string;
  text?: string;
  /** The way on; none for a reader who may not take it. */
  action?: { to: string; label: string } | false;
}) {
  return (
    <Paper
      variant="outlined"
      sx={{
        p: { xs: 3, sm: 5 },
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 1.5,
      }}
    >
      <Icon aria-hidden sx={{ fontSize: 48, color: 'text.secondary' }} />
      <Typography component="p" variant="h6">
        {title}
      </Typography>
      {text && <Typography sx={{ color: 'text.secondary', maxWidth: 560 }}>{text}</Typography>}
      {action && (
        <Button component={RouterLink} to={action.to} variant="outlined" sx={{ mt: 1 }}>
          {action.label}
        </Button>
      )}
    </Paper>
  );
}
