import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { TicketStatus } from '@portal/contract';
import { formatNumber } from '@/i18n/format.ts';

/** A file size for people: bytes, kB or MB (1'024 based, as file managers show it), in the interface's locale. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return formatNumber(bytes, undefined, { style: 'unit', unit: 'byte' });
  if (bytes < 1024 * 1024) {
    return formatNumber(bytes / 1024, undefined, {
      style: 'unit',
      unit: 'kilobyte',
      maximumFractionDigits: 0,
    });
  }
  return formatNumber(bytes / (1024 * 1024), undefined, {
    style: 'unit',
    unit: 'megabyte',
    maximumFractionDigits: 1,
  });
}

/** The colour of a status chip's dot: what needs the customer stands out, finished tickets recede. */
export const STATUS_COLORS: Record<TicketStatus, SvgIconProps['color']> = {
  OPEN: 'info',
  WAITING_FOR_CUSTOMER: 'warning',
  SOLVED: 'success',
  CLOSED: 'disabled',
};
