import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import type { TicketStatus } from '@portal/contract';
import { STATUS_COLORS } from './labels.ts';

/** A ticket's status as a small labelled chip. */
export function StatusChip({ status }: { status: TicketStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={STATUS_COLORS[status]}
      label={t(`support.statuses.${status}`)}
    />
  );
}
