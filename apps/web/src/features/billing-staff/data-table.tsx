import type { ReactNode } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';

/** A table of this page: its columns, rows of cells, a loading bar, and a line when there is no row. */
export function DataTable({
  label,
  columns,
  rows,
  loading,
  empty,
}: {
  label: string;
  columns: string[];
  rows: { key: string; cells: ReactNode[] }[];
  loading: boolean;
  empty: string;
}) {
  const { t } = useTranslation();
  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
      {loading && <LinearProgress aria-label={t('billingStaff.loading')} sx={{ height: 2 }} />}
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column}>{column}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key} hover>
              {row.cells.map((cell, index) => (
                <TableCell key={index}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
          {!rows.length && !loading && (
            <TableRow>
              <TableCell
                colSpan={columns.length}
                sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}
              >
                {empty}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
