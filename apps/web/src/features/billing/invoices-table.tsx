import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/routing/navigation-view.tsx';
import { useQuery } from '@tanstack/react-query';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import {
  INVOICES_PAGE_SIZE_MAX,
  INVOICE_STATUSES,
  type InvoiceStatus,
  type InvoiceSummary,
  type InvoicesQuery,
} from '@portal/contract';
import { useCurrentAccount, useCurrentAccountUuid } from '@/api/session.ts';
import { AddressPagination, useAddressParams } from '@/ui/address-pagination.tsx';
import { FilterSelect } from '@/ui/filter-select.tsx';
import { RowActionsCell } from '@/ui/row-actions-cell.tsx';
import { invoicesQuery, useDownloadInvoicePdf } from './api.ts';
import {
  ColumnHeads,
  InvoiceStatusChip,
  formatShortDay,
  formatShortPeriod,
  formatMoney,
} from './amounts.tsx';

const PAGE_SIZES = [10, 25, 50, INVOICES_PAGE_SIZE_MAX];
const DEFAULT_PAGE_SIZE = 10;
/** The address bar's parameter naming the invoice shown in the detail dialog. */
export const INVOICE_PARAM = 'invoice';

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
  list.includes(value as T) ? (value as T) : undefined;

/** The years the filter offers: this year back to the year the account was opened. */
function yearsOf(createdAt: string | undefined): number[] {
  const now = new Date().getFullYear();
  const first = Math.min(now, createdAt ? new Date(createdAt).getFullYear() : now);
  return Array.from({ length: now - first + 1 }, (_, index) => now - index);
}

/** The list's filters and page live in the address, so a link, a reload and "back" keep them. */
function readQuery(
  params: URLSearchParams,
  years: number[],
): Required<Pick<InvoicesQuery, 'page' | 'pageSize'>> & InvoicesQuery {
  const page = Number(params.get('page'));
  const pageSize = Number(params.get('pageSize'));
  const year = Number(params.get('year'));
  return {
    status: oneOf(INVOICE_STATUSES, params.get('status')),
    year: years.includes(year) ? year : undefined,
    page: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

/** Sums of what the filter finds, one line per currency: invoiced, paid, still open. */
function Sums({
  sums,
}: {
  sums: { currency: string; invoicedMinor: number; paidMinor: number; outstandingMinor: number }[];
}) {
  const { t } = useTranslation();
  if (!sums.length) return null;
  return (
    <Stack role="group" aria-label={t('billing.invoices.sums')} sx={{ gap: 0.5 }}>
      {sums.map((sum) => (
        <Stack key={sum.currency} component="dl" direction="row" sx={{ m: 0, gap: 3, flexWrap: 'wrap' }}>
          {(
            [
              ['invoiced', sum.invoicedMinor],
              ['paid', sum.paidMinor],
              ['outstanding', sum.outstandingMinor],
            ] as const
          ).map(([name, minor]) => (
            <Stack key={name} direction="row" sx={{ gap: 0.75 }}>
              <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
                {t(`billing.invoices.${name}`)}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600 }}>
                {formatMoney(minor, sum.currency)}
              </Typography>
            </Stack>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}

export function PdfButton({ invoice }: { invoice: Pick<InvoiceSummary, 'uuid' | 'number'> }) {
  const { t } = useTranslation();
  const download = useDownloadInvoicePdf(useCurrentAccountUuid());
  const label = t('billing.invoices.downloadPdf', { number: invoice.number });
  return (
    <Tooltip title={label}>
      <span>
        <IconButton aria-label={label} disabled={download.isPending} onClick={() => download.mutate(invoice)}>
          <PictureAsPdfOutlined />
        </IconButton>
      </span>
    </Tooltip>
  );
}

/**
 * The account's invoices and credit notes, newest first, paged and filtered (status, year) on the server, with
 * the sums of what the filter finds. A number opens the invoice's details.
 */
export function InvoicesTable({ titleId }: { titleId: string }) {
  const { t, i18n } = useTranslation();
  const account = useCurrentAccount()!;
  const locale = i18n.resolvedLanguage;
  const { params, set } = useAddressParams();
  const [, setParams] = useSearchParams();
  const years = yearsOf(account.createdAt);
  const query = readQuery(params, years);
  const { data, isFetching, isError } = useQuery(invoicesQuery(account.uuid, query));
  const rows = data?.data ?? [];
  const total = data?.meta.total ?? 0;
  const filtered = Boolean(query.status || query.year);

  const open = (invoice: InvoiceSummary) => {
    const next = new URLSearchParams(params);
    next.set(INVOICE_PARAM, invoice.uuid);
    setParams(next);
  };

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        sx={{ gap: 2, justifyContent: 'space-between', alignItems: { md: 'center' } }}
      >
        <Stack
          component="search"
          aria-label={t('billing.invoices.filters')}
          direction="row"
          sx={{ gap: 2, flexWrap: 'wrap' }}
        >
          <FilterSelect<InvoiceStatus | ''>
            label={t('billing.invoices.status')}
            value={query.status ?? ''}
            onChange={(value) => set('status', value)}
            options={[
              { value: '', label: t('billing.invoices.allStatuses') },
              ...INVOICE_STATUSES.map((value) => ({ value, label: t(`billing.status.${value}`) })),
            ]}
          />
          <FilterSelect
            label={t('billing.invoices.year')}
            value={query.year ? String(query.year) : ''}
            onChange={(value) => set('year', value)}
            options={[
              { value: '', label: t('billing.invoices.allYears') },
              ...years.map((year) => ({ value: String(year), label: String(year) })),
            ]}
            sx={{ minWidth: 140 }}
          />
        </Stack>
        <Sums sums={data?.meta.sums ?? []} />
      </Stack>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {isFetching && <LinearProgress aria-label={t('billing.loading')} sx={{ height: 2 }} />}
        <Table size="small" aria-labelledby={titleId}>
          <ColumnHeads
            columns={[
              { label: t('billing.invoices.number') },
              { label: t('billing.invoices.issuedOn') },
              { label: t('billing.invoices.period') },
              { label: t('billing.invoices.dueOn') },
              { label: t('billing.invoices.status') },
              { label: t('billing.invoices.total'), numeric: true },
              { label: t('billing.invoices.pdf'), actions: true },
            ]}
          />
          <TableBody>
            {rows.map((invoice) => (
              <TableRow key={invoice.uuid} hover>
                <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                  <Link
                    component="button"
                    type="button"
                    onClick={() => open(invoice)}
                    aria-haspopup="dialog"
                    sx={{ verticalAlign: 'baseline' }}
                  >
                    {invoice.number}
                  </Link>
                  {invoice.kind === 'CREDIT_NOTE' && (
                    <Typography variant="caption" component="span" sx={{ color: 'text.secondary', ml: 1 }}>
                      {t('billing.invoices.creditNote')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatShortDay(invoice.issuedOn, locale)}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatShortPeriod(invoice.periodStart, invoice.periodEnd, locale)}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatShortDay(invoice.dueOn, locale)}</TableCell>
                <TableCell>
                  <InvoiceStatusChip status={invoice.status} />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(invoice.totalMinor, invoice.currency)}
                </TableCell>
                <RowActionsCell sx={{ py: 0 }}>
                  <PdfButton invoice={invoice} />
                </RowActionsCell>
              </TableRow>
            ))}
            {!rows.length && !isFetching && (
              <TableRow>
                <TableCell colSpan={7} sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>
                  {isError
                    ? t('billing.loadFailed')
                    : filtered
                      ? t('billing.invoices.noMatch')
                      : t('billing.invoices.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <AddressPagination total={total} page={query.page} pageSize={query.pageSize} sizes={PAGE_SIZES} />
    </Stack>
  );
}
