import { useSearchParams } from '@/routing/navigation-view.tsx';
import TablePagination from '@mui/material/TablePagination';

/**
 * A list whose filters, page and page size live in the address, so a link, a reload and "back" keep them:
 * the current parameters, `get(name)` to read one and `set(name, value)` to change one (empty removes it). A new
 * filter starts at the first page; the page itself is set with `keepPage`. A second list on the same page names
 * its parameters in a `scope` of its own (`coaches.page`).
 */
export function useAddressParams(scope?: string) {
  const [params, setParams] = useSearchParams();
  const key = (name: string) => (scope ? `${scope}.${name}` : name);
  const get = (name: string) => params.get(key(name));
  const set = (name: string, value: string | number | undefined, keepPage = false) => {
    const next = new URLSearchParams(params);
    if (value === undefined || value === '') next.delete(key(name));
    else next.set(key(name), String(value));
    if (!keepPage) next.delete(key('page'));
    setParams(next, { replace: true });
  };
  return { params, get, set };
}

/** The page (from 1) and page size an address names, each checked: else page 1 and `defaultSize`. */
export function readPaging(get: (name: string) => string | null, sizes: number[], defaultSize: number) {
  const page = Number(get('page'));
  const pageSize = Number(get('pageSize'));
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: sizes.includes(pageSize) ? pageSize : defaultSize,
  };
}

/**
 * The footer of a list paged on the server: "Zeilen pro Seite", the rows shown of `total`, the arrows. An empty list
 * has none: its empty state says so, and "0–0 von 0" would only repeat it (issue 23 item 12).
 */
export function ServerPagination({
  total,
  page,
  pageSize,
  sizes,
  onChange,
}: {
  total: number;
  /** The current page, from 1. */
  page: number;
  pageSize: number;
  sizes: number[];
  /** A new page, or a new page size (which starts again at page 1). */
  onChange: (page: number, pageSize: number) => void;
}) {
  if (total === 0) return null;
  return (
    <TablePagination
      component="div"
      count={total}
      page={Math.min(page - 1, Math.max(0, Math.ceil(total / pageSize) - 1))}
      rowsPerPage={pageSize}
      rowsPerPageOptions={sizes}
      onPageChange={(_event, next) => onChange(next + 1, pageSize)}
      onRowsPerPageChange={(event) => onChange(1, Number(event.target.value))}
    />
  );
}

/** The footer of a list whose page and page size live in the address. */
export function AddressPagination({
  total,
  page,
  pageSize,
  sizes,
  scope,
}: {
  total: number;
  /** The page the address names, from 1. */
  page: number;
  pageSize: number;
  sizes: number[];
  /** The list's scope in the address, as given to `useAddressParams`. */
  scope?: string;
}) {
  const { set } = useAddressParams(scope);
  return (
    <ServerPagination
      total={total}
      page={page}
      pageSize={pageSize}
      sizes={sizes}
      onChange={(next, size) => (size === pageSize ? set('page', next, true) : set('pageSize', size))}
    />
  );
}
