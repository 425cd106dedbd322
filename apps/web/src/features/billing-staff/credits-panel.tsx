import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PAYMENT_FILTERS, type BankPayment, type PaymentFilter } from '@portal/contract';
import { paymentsQuery } from './api.ts';
import { DataTable, RowActions, StatusChip } from './data-table.tsx';
import { AssignDialog, type PaymentAction } from './dialogs.tsx';
import { formatDay, formatMoney, formatReference } from '@/i18n/format.ts';
import { StatusFilter, useListState } from './pager.tsx';

const COLUMNS = [
  'billingStaff.columns.bookedOn',
  'billingStaff.columns.amount',
  'billingStaff.columns.debtor',
  'billingStaff.columns.reference',
  'billingStaff.columns.status',
  'billingStaff.columns.invoice',
  'billingStaff.columns.actions',
] as const;

const STATUS_COLOR = {
  MATCHED: 'success',
  PARTIAL: 'warning',
  UNMATCHED: 'error',
  RESOLVED: 'default',
} as const;

function PaymentStatus({ payment }: { payment: BankPayment }) {
  const { t } = useTranslation();
  return (
    <Stack sx={{ gap: 0.5, alignItems: 'flex-start' }}>
      <StatusChip color={STATUS_COLOR[payment.status]} label={t(`billingStaff.status.${payment.status}`)} />
      {payment.problem && payment.status === 'UNMATCHED' && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t(`billingStaff.problem.${payment.problem}`)}
        </Typography>
      )}
      {payment.overpaidMinor > 0 && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('billingStaff.overpaid', { amount: formatMoney(payment.overpaidMinor, payment.currency) })}
        </Typography>
      )}
    </Stack>
  );
}

/** The credits from bank files: the partial and unmatched ones to handle first, or any status. */
export function CreditsPanel() {
  const { t } = useTranslation();
  const list = useListState<PaymentFilter>('TO_HANDLE');
  const { status, page, pageSize } = list;
  const [action, setAction] = useState<PaymentAction | null>(null);
  const result = useQuery(paymentsQuery({ page, pageSize, status: status || undefined }));
  return (
    <>
      <DataTable
        tab="credits"
        filters={
          <StatusFilter
            values={PAYMENT_FILTERS}
            value={status}
            label={(value) => t(`billingStaff.status.${value}`)}
            onChange={list.setStatus}
          />
        }
        columns={COLUMNS}
        paging={{ page, pageSize, onChange: list.setPage }}
        result={result}
        rows={(result.data?.data ?? []).map((payment) => {
          const open = payment.status === 'PARTIAL' || payment.status === 'UNMATCHED';
          const which = {
            amount: formatMoney(payment.amountMinor, payment.currency),
            date: formatDay(payment.bookedOn),
          };
          return {
            key: payment.uuid,
            cells: [
              <span style={{ whiteSpace: 'nowrap' }}>{formatDay(payment.bookedOn)}</span>,
              <span style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(payment.amountMinor, payment.currency)}
              </span>,
              payment.debtorName ?? '—',
              <Typography variant="body2" sx={{ fontFamily: 'monospace', minWidth: '14ch' }}>
                {payment.reference ? formatReference(payment.reference) : '—'}
              </Typography>,
              <PaymentStatus payment={payment} />,
              payment.invoice ? (
                <>
                  <span style={{ whiteSpace: 'nowrap' }}>{payment.invoice.number}</span>
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {payment.invoice.accountName}
                  </Typography>
                </>
              ) : (
                '—'
              ),
              open ? (
                <RowActions
                  actions={[
                    {
                      label: t('billingStaff.book'),
                      name: t('billingStaff.bookFor', which),
                      onClick: () => setAction({ payment, mode: 'book' }),
                    },
                    {
                      label: t('billingStaff.markHandled'),
                      name: t('billingStaff.handledFor', which),
                      onClick: () => setAction({ payment, mode: 'handled' }),
                    },
                  ]}
                />
              ) : (
                (payment.note ?? '')
              ),
            ],
          };
        })}
        empty={t(status === 'TO_HANDLE' ? 'billingStaff.empty.toHandle' : 'billingStaff.empty.credits')}
      />
      {action && <AssignDialog key={action.payment.uuid} action={action} onClose={() => setAction(null)} />}
    </>
  );
}
