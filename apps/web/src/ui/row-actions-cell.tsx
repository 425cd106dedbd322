import type { ReactNode } from 'react';
import TableCell, { type TableCellProps } from '@mui/material/TableCell';
import { alpha } from '@mui/material/styles';

const tint = (colour: string) => `linear-gradient(${colour}, ${colour})`;

/**
 * The cell of a table row's actions (a row menu ⋮, "archive", "show changes"), and its column's head: it stays at the
 * right edge of the table's box while a table wider than its place scrolls sideways in its `TableContainer`, so the
 * actions are on screen at every width. Its background covers the columns scrolling beneath it.
 */
export function RowActionsCell({ children, sx, ...props }: TableCellProps & { children?: ReactNode }) {
  return (
    <TableCell
      align="right"
      {...props}
      sx={[
        {
          position: 'sticky',
          right: 0,
          zIndex: 1,
          bgcolor: 'background.paper',
          whiteSpace: 'nowrap',
          px: 1,
          // A line on its left while rows scroll beneath it.
          boxShadow: (theme) => `inset 1px 0 0 ${theme.palette.divider}`,
        },
        // The row's tint (selected: an unread notification; hover) over the covering background.
        (theme) => ({
          '.Mui-selected > &': {
            backgroundImage: tint(alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity)),
          },
          '.MuiTableRow-hover:hover > &': { backgroundImage: tint(theme.palette.action.hover) },
        }),
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
    </TableCell>
  );
}
