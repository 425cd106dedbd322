import Chip from '@mui/material/Chip';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';

/**
 * A status as a small labelled chip. The text keeps the theme's text colour (readable in both themes); a dot
 * carries the status colour.
 */
export function DotChip({ color, label }: { color: SvgIconProps['color']; label: string }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<FiberManualRecord color={color} sx={{ fontSize: 12 }} />}
      label={label}
    />
  );
}
