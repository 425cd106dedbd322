import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import type { Invoice } from '@portal/contract';
import { useCurrentAccountUuid } from '@/api/session.ts';
import { invoiceQuery, useDownloadInvoicePdf } from './api.ts';
import {
  AddressText,
  ColumnHeads,
  InvoiceStatusChip,
  LinesTable,
  formatDay,
  formatDayRange,
  formatReference,
  formatMoney,
} from './amounts.tsx';

/** One fact of the invoice's head: a term and its value. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Box>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {term}
      </Typography>
      <Typography component="dd" sx={{ m: 0, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Box>
  );
}

/** A part of the invoice under its h3 heading; `id` names the part by the heading. */
function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ overflowX: 'auto' }}>
      <Typography id={id} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Payments({ invoice }: { invoice: Invoice }) {
  const { t, i18n } = useTranslation();
  if (!invoice.payments.length) {
    return <Typography sx={{ color: 'text.secondary' }}>{t('billing.invoice.noPayments')}</Typography>;
  }
  return (
    <Table size="small" aria-labelledby="invoice-payments">
      <ColumnHeads
        columns={[
          { label: t('billing.invoice.bookedOn') },
          { label: t('billing.invoice.source') },
          { label: t('billing.invoice.note') },
          { label: t('billing.invoice.amount'), numeric: true },
        ]}
      />
      <TableBody>
        {invoice.payments.map((payment, index) => (
          <TableRow key={index}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {formatDay(payment.bookedOn, i18n.resolvedLanguage)}
            </TableCell>
            <TableCell>{t(`billing.paymentSources.${payment.source}`)}</TableCell>
            <TableCell sx={{ wordBreak: 'break-word' }}>{payment.note ?? '—'}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {formatMoney(payment.amountMinor, invoice.currency)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function InvoiceBody({ invoice }: { invoice: Invoice }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage;
  return (
    <Stack spacing={3}>
      <Box
        component="dl"
        sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}
      >
        <Fact term={t('billing.invoices.issuedOn')}>{formatDay(invoice.issuedOn, locale)}</Fact>
        <Fact term={t('billing.invoices.dueOn')}>{formatDay(invoice.dueOn, locale)}</Fact>
        <Fact term={t('billing.invoices.period')}>
          {formatDayRange(invoice.periodStart, invoice.periodEnd, locale)}
        </Fact>
        <Fact term={t('billing.invoice.reason')}>{t(`billing.reasons.${invoice.reason}`)}</Fact>
        <Fact term={t('billing.invoice.reference')}>
          <Box component="span" sx={{ fontFamily: 'monospace' }}>
            {formatReference(invoice.reference)}
          </Box>
        </Fact>
        {invoice.relatedInvoice && (
          <Fact
            term={t(
              invoice.kind === 'CREDIT_NOTE' ? 'billing.invoice.creditFor' : 'billing.invoice.creditNote',
            )}
          >
            {invoice.relatedInvoice.number}
          </Fact>
        )}
      </Box>
      <Part id="invoice-billed-to" title={t('billing.invoice.billedTo')}>
        <AddressText name={invoice.billedTo.name} address={invoice.billedTo.address} />
        {invoice.billedTo.vatNumber && (
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {t('billing.invoice.vatNumber', { number: invoice.billedTo.vatNumber })}
          </Typography>
        )}
        {invoice.billedTo.purchaseOrder && (
          <Typography variant="body2">
            {t('billing.invoice.purchaseOrder', { reference: invoice.billedTo.purchaseOrder })}
          </Typography>
        )}
      </Part>
      <Part id="invoice-lines" title={t('billing.invoice.lines')}>
        <LinesTable lines={invoice.lines} totals={invoice.totals} label={t('billing.invoice.lines')} />
      </Part>
      <Part id="invoice-payments" title={t('billing.invoice.payments')}>
        <Payments invoice={invoice} />
        {invoice.payments.length > 0 && (
          <Typography sx={{ mt: 1, fontWeight: 600 }}>
            {t('billing.invoice.paidTotal', { amount: formatMoney(invoice.paidMinor, invoice.currency) })}
          </Typography>
        )}
      </Part>
    </Stack>
  );
}

/**
 * One invoice or credit note in a dialog: its head, who it was made out to, its lines with VAT per rate,
 * rounding and total, the payments booked against it, and its PDF. The address bar names the invoice, so the
 * dialog survives a reload and a link.
 */
export function InvoiceDialog({ invoiceUuid, onClose }: { invoiceUuid: string; onClose: () => void }) {
  const { t } = useTranslation();
  const account = useCurrentAccountUuid();
  const {
    data: invoice,
    isPending,
    isError,
  } = useQuery({
    ...invoiceQuery(account, invoiceUuid),
    meta: { silentError: true },
  });
  const download = useDownloadInvoicePdf(account);
  const title = invoice
    ? t(invoice.kind === 'CREDIT_NOTE' ? 'billing.invoice.creditNoteTitle' : 'billing.invoice.title', {
        number: invoice.number,
      })
    : t('billing.invoice.loadingTitle');

  return (
    <Dialog open onClose={onClose} aria-labelledby="invoice-title" maxWidth="md" fullWidth>
      <DialogTitle
        id="invoice-title"
        sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}
      >
        {title}
        {invoice && <InvoiceStatusChip status={invoice.status} />}
      </DialogTitle>
      {/* The content scrolls on small screens and holds no control: focusable, so keys can scroll it. */}
      <DialogContent dividers tabIndex={0} role="region" aria-labelledby="invoice-title">
        {isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress aria-label={t('billing.loading')} />
          </Box>
        ) : isError ? (
          <Alert severity="error">{t('billing.invoice.notFound')}</Alert>
        ) : (
          <InvoiceBody invoice={invoice} />
        )}
      </DialogContent>
      <DialogActions>
        {invoice && (
          <Button
            startIcon={<PictureAsPdfOutlined />}
            disabled={download.isPending}
            onClick={() => download.mutate(invoice)}
          >
            {t('billing.invoice.downloadPdf')}
          </Button>
        )}
        <Button variant="contained" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
