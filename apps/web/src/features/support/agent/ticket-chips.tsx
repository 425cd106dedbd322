import { useTranslation } from 'react-i18next';
import Chip, { type ChipProps } from '@mui/material/Chip';
import type { SupportSeverity, TicketStatus } from '@portal/contract';
import { StatusChip } from '../status-chip.tsx';

const SEVERITY_COLOR: Record<SupportSeverity, ChipProps['color']> = {
  LOW: 'default',
  NORMAL: 'default',
  HIGH: 'warning',
  CRITICAL: 'error',
};

/**
 * The label keeps the text colour: coloured chip text (orange, or red on dark) falls below the contrast minimum,
 * while the coloured outline only repeats what the text says.
 */
const readable = { '& .MuiChip-label': { color: 'text.primary' } } as const;

/** A ticket's status in the agents' words, with the customers' chip. */
export function AgentStatusChip({ status }: { status: TicketStatus }) {
  const { t } = useTranslation();
  return <StatusChip status={status} label={t(`supportAgent.statuses.${status}`)} />;
}

export function SeverityChip({ severity }: { severity: SupportSeverity }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant={severity === 'CRITICAL' ? 'filled' : 'outlined'}
      color={SEVERITY_COLOR[severity]}
      label={t(`support.severities.${severity}`)}
      sx={severity === 'CRITICAL' ? undefined : readable}
    />
  );
}
