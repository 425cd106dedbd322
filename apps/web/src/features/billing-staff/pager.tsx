import TablePagination from '@mui/material/TablePagination';

export const PAGE_SIZES = [10, 25, 50, 100];

/** The tables' pagination ("Zeilen pro Seite"), on a page and size the server pages by. */
export function Pager({
  total,
  page,
  pageSize,
  onChange,
}: {
  total: number;
  page: number;
  pageSize: number;
  onChange: (page: number, pageSize: number) => void;
}) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={Math.min(page - 1, Math.max(0, Math.ceil(total / pageSize) - 1))}
      rowsPerPage={pageSize}
      rowsPerPageOptions={PAGE_SIZES}
      onPageChange={(_event, next) => onChange(next + 1, pageSize)}
      onRowsPerPageChange={(event) => onChange(1, Number(event.target.value))}
    />
  );
}
