import type { ReactNode } from 'react';
import type { ParseKeys } from 'i18next';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { ServerPagination } from '@/ui/address-pagination.tsx';
import { PAGE_SIZES } from './pager.tsx';

type Column = Extract<
  ParseKeys<'messages'>,
  `billingStaff.columns.${string}` | `billingStaff.counts.${string}`
>;
type Tab = 'credits' | 'imports' | 'invoices';

/**
 * A list of this page, paged on the server: its filters, the table (named by its tab, its columns by their message
 * keys) with a loading bar and a line when there is no row, and "Zeilen pro Seite" below.
 */
export function DataTable({
  tab,
  filters,
  columns,
  rows,
  result,
  empty,
  paging,
}: {
  tab: Tab;
  filters?: ReactNode;
  columns: readonly Column[];
  rows: { key: string; cells: ReactNode[] }[];
  result: { data?: { meta: { total: number } }; isFetching: boolean; isError: boolean };
  empty: string;
  paging: { page: number; pageSize: number; onChange: (page: number, pageSize: number) => void };
}) {
  const { t } = useTranslation();
  const loading = result.isFetching;
  const label = t(`billingStaff.tabs.${tab}`);
  return (
    <>
      {filters && (
        <Stack component="search" direction="row" sx={{ gap: 2, flexWrap: 'wrap', mb: 2 }}>
          {filters}
        </Stack>
      )}
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {loading && <LinearProgress aria-label={t('billingStaff.loading')} sx={{ height: 2 }} />}
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column}>{t(column)}</TableCell>
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
                  {result.isError ? t('billingStaff.loadFailed') : empty}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ServerPagination total={result.data?.meta.total ?? 0} sizes={PAGE_SIZES} {...paging} />
    </>
  );
}

/** A row's actions, stacked: the first outlined, each named for screen readers with what it acts on. */
export function RowActions({
  actions,
}: {
  actions: { label: string; name: string; onClick: () => void; color?: 'primary' | 'error' }[];
}) {
  return (
    <Stack sx={{ gap: 0.5, alignItems: 'flex-start', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}>
      {actions.map((action, index) => (
        <Button
          key={action.label}
          size="small"
          variant={index === 0 ? 'outlined' : 'text'}
          color={action.color ?? 'primary'}
          aria-label={action.name}
          onClick={action.onClick}
        >
          {action.label}
        </Button>
      ))}
    </Stack>
  );
}

/**
 * A status as an outlined chip. The label keeps the text colour: coloured chip text (blue, orange, or red on dark)
 * falls below the contrast minimum, while the coloured outline only repeats what the text says.
 */
export function StatusChip({ label, color }: { label: string; color: ChipProps['color'] }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={color}
      label={label}
      sx={{ '& .MuiChip-label': { color: 'text.primary' } }}
    />
  );
}
