import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { INVOICE_STATUSES, type InvoiceStatus, type StaffInvoice } from '@portal/contract';
import { staffInvoicesQuery } from './api.ts';
import { DataTable, RowActions, StatusChip } from './data-table.tsx';
import { MarkPaidDialog, VoidDialog } from './dialogs.tsx';
import { formatDay, formatMoney, formatReference } from '@/i18n/format.ts';
import { StatusFilter, useListState } from './pager.tsx';

const COLUMNS = [
  'billingStaff.columns.number',
  'billingStaff.columns.account',
  'billingStaff.columns.dueOn',
  'billingStaff.columns.total',
  'billingStaff.columns.paid',
  'billingStaff.columns.status',
  'billingStaff.columns.actions',
] as const;

const STATUS_COLOR = { OPEN: 'info', OVERDUE: 'error', PAID: 'success', VOID: 'default' } as const;

/** Invoices across accounts: search by number, reference or account; mark an open one paid, or void it. */
export function InvoicesPanel() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const list = useListState<InvoiceStatus>('');
  const { status, page, pageSize } = list;
  const [action, setAction] = useState<{ invoice: StaffInvoice; mode: 'paid' | 'void' } | null>(null);
  const result = useQuery(
    staffInvoicesQuery({ page, pageSize, q: q || undefined, status: status || undefined }),
  );
  return (
    <>
      <DataTable
        tab="invoices"
        filters={
          <>
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
          </>
        }
        columns={COLUMNS}
        paging={{ page, pageSize, onChange: list.setPage }}
        result={result}
        rows={(result.data?.data ?? []).map((invoice) => {
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
                {formatMoney(invoice.totalMinor, invoice.currency)}
              </span>,
              <span style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(invoice.paidMinor, invoice.currency)}
              </span>,
              <StatusChip
                color={STATUS_COLOR[invoice.status]}
                label={t(`billingStaff.invoiceStatus.${invoice.status}`)}
              />,
              open ? (
                <RowActions
                  actions={[
                    {
                      label: t('billingStaff.markPaid'),
                      name: `${t('billingStaff.markPaid')}: ${invoice.number}`,
                      onClick: () => setAction({ invoice, mode: 'paid' }),
                    },
                    {
                      label: t('billingStaff.void'),
                      name: `${t('billingStaff.void')}: ${invoice.number}`,
                      onClick: () => setAction({ invoice, mode: 'void' }),
                      color: 'error',
                    },
                  ]}
                />
              ) : null,
            ],
          };
        })}
        empty={t('billingStaff.empty.invoices')}
      />
      {action?.mode === 'paid' && <MarkPaidDialog invoice={action.invoice} onClose={() => setAction(null)} />}
      {action?.mode === 'void' && <VoidDialog invoice={action.invoice} onClose={() => setAction(null)} />}
    </>
  );
}
