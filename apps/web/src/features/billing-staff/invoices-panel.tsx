import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { INVOICE_STATUSES, type InvoiceStatus, type StaffInvoice } from '@portal/contract';
import { staffInvoicesQuery } from './api.ts';
import { DataTable } from './data-table.tsx';
import { MarkPaidDialog, VoidDialog } from './dialogs.tsx';
import { READABLE, formatDay, formatMinor, formatReference } from './format.ts';
import { Pager, StatusFilter, useListState } from './pager.tsx';

const COLUMNS = ['number', 'account', 'dueOn', 'total', 'paid', 'status', 'actions'] as const;

const STATUS_COLOR = { OPEN: 'info', OVERDUE: 'error', PAID: 'success', VOID: 'default' } as const;

/** Invoices across accounts: search by number, reference or account; mark an open one paid, or void it. */
export function InvoicesPanel() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const list = useListState<InvoiceStatus>('');
  const { status, page, pageSize } = list;
  const [action, setAction] = useState<{ invoice: StaffInvoice; mode: 'paid' | 'void' } | null>(null);
  const { data, isFetching, isError } = useQuery(
    staffInvoicesQuery({ page, pageSize, q: q || undefined, status: status || undefined }),
  );
  return (
    <>
      <Stack component="search" direction="row" sx={{ gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <TextField
          size="small"
          type="search"
          label={t('billingStaff.invoiceSearch')}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            list.restart();
          }}
          sx={{ minWidth: 320 }}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <StatusFilter
          values={INVOICE_STATUSES}
          value={status}
          label={(value) => t(`billingStaff.invoiceStatus.${value}`)}
          onChange={list.setStatus}
        />
      </Stack>
      <DataTable
        label={t('billingStaff.tabs.invoices')}
        columns={COLUMNS.map((column) => t(`billingStaff.columns.${column}`))}
        rows={(data?.data ?? []).map((invoice) => {
          const open =
            invoice.kind === 'INVOICE' && (invoice.status === 'OPEN' || invoice.status === 'OVERDUE');
          return {
            key: invoice.uuid,
            cells: [
              <>
                <span style={{ whiteSpace: 'nowrap' }}>{invoice.number}</span>
                {invoice.kind === 'CREDIT_NOTE' && (
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {t('billingStaff.creditNote')}
                  </Typography>
                )}
                <Typography variant="body2" sx={{ color: 'text.secondary', fontFamily: 'monospace' }}>
                  {formatReference(invoice.reference)}
                </Typography>
              </>,
              invoice.accountName,
              <span style={{ whiteSpace: 'nowrap' }}>{formatDay(invoice.dueOn)}</span>,
              <span style={{ whiteSpace: 'nowrap' }}>
                {formatMinor(invoice.totalMinor, invoice.currency)}
              </span>,
              <span style={{ whiteSpace: 'nowrap' }}>
                {formatMinor(invoice.paidMinor, invoice.currency)}
              </span>,
              <Chip
                size="small"
                variant="outlined"
                color={STATUS_COLOR[invoice.status]}
                sx={READABLE}
                label={t(`billingStaff.invoiceStatus.${invoice.status}`)}
              />,
              open ? (
                <Stack
                  sx={{ gap: 0.5, alignItems: 'flex-start', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}
                >
                  <Button
                    size="small"
                    variant="outlined"
                    onClick={() => setAction({ invoice, mode: 'paid' })}
                    aria-label={`${t('billingStaff.markPaid')}: ${invoice.number}`}
                  >
                    {t('billingStaff.markPaid')}
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    onClick={() => setAction({ invoice, mode: 'void' })}
                    aria-label={`${t('billingStaff.void')}: ${invoice.number}`}
                  >
                    {t('billingStaff.void')}
                  </Button>
                </Stack>
              ) : null,
            ],
          };
        })}
        loading={isFetching}
        empty={isError ? t('billingStaff.loadFailed') : t('billingStaff.empty.invoices')}
      />
      <Pager total={data?.meta.total ?? 0} page={page} pageSize={pageSize} onChange={list.setPage} />
      {action?.mode === 'paid' && <MarkPaidDialog invoice={action.invoice} onClose={() => setAction(null)} />}
      {action?.mode === 'void' && <VoidDialog invoice={action.invoice} onClose={() => setAction(null)} />}
    </>
  );
}
