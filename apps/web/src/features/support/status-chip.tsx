import { useTranslation } from 'react-i18next';
import type { TicketStatus } from '@portal/contract';
import { DotChip } from '@/ui/dot-chip.tsx';
import { STATUS_COLORS } from './labels.ts';

/** A ticket's status as a chip with a coloured dot. `label` words it for another reader (agents read "waiting for the customer"). */
export function StatusChip({ status, label }: { status: TicketStatus; label?: string }) {
  const { t } = useTranslation();
  return <DotChip color={STATUS_COLORS[status]} label={label ?? t(`support.statuses.${status}`)} />;
}
