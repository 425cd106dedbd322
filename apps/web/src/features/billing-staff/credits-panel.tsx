import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PAYMENT_FILTERS, type BankPayment, type PaymentFilter } from '@portal/contract';
import { paymentsQuery } from './api.ts';
import { DataTable } from './data-table.tsx';
import { AssignDialog, type PaymentAction } from './dialogs.tsx';
import { READABLE, formatDay, formatMinor, formatReference } from './format.ts';
import { Pager, StatusFilter, useListState } from './pager.tsx';

const COLUMNS = ['bookedOn', 'amount', 'debtor', 'reference', 'status', 'invoice', 'actions'] as const;

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
      <Chip
        size="small"
        variant="outlined"
        color={STATUS_COLOR[payment.status]}
        sx={READABLE}
        label={t(`billingStaff.status.${payment.status}`)}
      />
      {payment.problem && payment.status === 'UNMATCHED' && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t(`billingStaff.problem.${payment.problem}`)}
        </Typography>
      )}
      {payment.overpaidMinor > 0 && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('billingStaff.overpaid', { amount: formatMinor(payment.overpaidMinor, payment.currency) })}
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
  const { data, isFetching, isError } = useQuery(
    paymentsQuery({ page, pageSize, status: status || undefined }),
  );
  return (
    <>
      <Stack direction="row" sx={{ mb: 2 }}>
        <StatusFilter
          values={PAYMENT_FILTERS}
          value={status}
          label={(value) => t(`billingStaff.status.${value}`)}
          onChange={list.setStatus}
        />
      </Stack>
      <DataTable
        label={t('billingStaff.tabs.credits')}
        columns={COLUMNS.map((column) => t(`billingStaff.columns.${column}`))}
        rows={(data?.data ?? []).map((payment) => {
          const open = payment.status === 'PARTIAL' || payment.status === 'UNMATCHED';
          const which = {
            amount: formatMinor(payment.amountMinor, payment.currency),
            date: formatDay(payment.bookedOn),
          };
          return {
            key: payment.uuid,
            cells: [
              <span style={{ whiteSpace: 'nowrap' }}>{formatDay(payment.bookedOn)}</span>,
              <span style={{ whiteSpace: 'nowrap' }}>
                {formatMinor(payment.amountMinor, payment.currency)}
              </span>,
              payment.debtorName ?? '—',
              <Typography variant="body2" sx={{ fontFamily: 'monospace', minWidth: '14ch' }}>
                {payment.reference ? formatReference(payment.reference) : '—'}
              </Typography>,
              <PaymentStatus payment={payment} />,
              payment.invoice ? (
                <>
                  {payment.invoice.number}
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {payment.invoice.accountName}
                  </Typography>
                </>
              ) : (
                '—'
              ),
              open ? (
                <Stack
                  sx={{ gap: 0.5, alignItems: 'flex-start', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}
                >
                  <Button
                    size="small"
                    variant="outlined"
                    aria-label={t('billingStaff.bookFor', which)}
                    onClick={() => setAction({ payment, mode: 'book' })}
                  >
                    {t('billingStaff.book')}
                  </Button>
                  <Button
                    size="small"
                    aria-label={t('billingStaff.handledFor', which)}
                    onClick={() => setAction({ payment, mode: 'handled' })}
                  >
                    {t('billingStaff.markHandled')}
                  </Button>
                </Stack>
              ) : (
                (payment.note ?? '')
              ),
            ],
          };
        })}
        loading={isFetching}
        empty={
          isError
            ? t('billingStaff.loadFailed')
            : status === 'TO_HANDLE'
              ? t('billingStaff.empty.toHandle')
              : t('billingStaff.empty.credits')
        }
      />
      <Pager total={data?.meta.total ?? 0} page={page} pageSize={pageSize} onChange={list.setPage} />
      {action && <AssignDialog key={action.payment.uuid} action={action} onClose={() => setAction(null)} />}
    </>
  );
}
