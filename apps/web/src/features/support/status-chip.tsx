import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import type { TicketStatus } from '@portal/contract';
import { STATUS_COLORS } from './labels.ts';

/**
 * A ticket's status as a small labelled chip. The text keeps the theme's text colour (readable in both themes);
 * a dot carries the status colour. `label` words it for another reader (agents read "waiting for the customer").
 */
export function StatusChip({ status, label }: { status: TicketStatus; label?: string }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<FiberManualRecord color={STATUS_COLORS[status]} sx={{ fontSize: 12 }} />}
      label={label ?? t(`support.statuses.${status}`)}
    />
  );
}
