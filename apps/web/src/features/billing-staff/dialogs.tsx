import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { NOTE_MAX, type BankPayment, type StaffInvoice } from '@portal/contract';
import { useToast } from '@/ui/toast.tsx';
import { errorKey, staffInvoicesQuery, useAssignPayment, useMarkPaid, useVoidInvoice } from './api.ts';
import { formatDay, formatMoney } from '@/i18n/format.ts';

/** The calendar day today, as the browser sees it. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** The localised text of a refused change, or the server's message when there is no key for it. */
function useErrorText() {
  const { t } = useTranslation();
  return (error: unknown): string | null => {
    if (!error) return null;
    const key = errorKey(error);
    const fallback = error instanceof Error ? error.message : t('billingStaff.errors.unknown');
    return key
      ? t(`billingStaff.errors.${key}` as 'billingStaff.errors.unknown', { defaultValue: fallback })
      : fallback;
  };
}

/** A form dialog of this page: title, text, fields, the error of the last try, cancel and submit. */
function FormDialog({
  id,
  open,
  title,
  text,
  submitLabel,
  destructive,
  pending,
  error,
  onClose,
  onSubmit,
  children,
}: {
  id: string;
  open: boolean;
  title: string;
  text?: ReactNode;
  submitLabel: string;
  destructive?: boolean;
  pending: boolean;
  error: string | null;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={`${id}-title`}
      slotProps={{
        paper: {
          component: 'form',
          noValidate: true,
          onSubmit: (event: FormEvent) => {
            event.preventDefault();
            onSubmit();
          },
        } as object,
      }}
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <Stack sx={{ gap: 2, pt: 1 }}>
          {text && <DialogContentText component="div">{text}</DialogContentText>}
          {children}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          // A destructive action is outlined in red: white text on the dark theme's light red is too faint.
          variant={destructive ? 'outlined' : 'contained'}
          color={destructive ? 'error' : 'primary'}
          loading={pending}
        >
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function NoteField({
  label,
  value,
  onChange,
  error,
  helperText,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: boolean;
  helperText?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      multiline
      minRows={2}
      error={error}
      helperText={error ? t('billingStaff.errors.required') : helperText}
      slotProps={{ htmlInput: { maxLength: NOTE_MAX } }}
    />
  );
}

const describeInvoice = (invoice: StaffInvoice) =>
  `${invoice.number} · ${invoice.accountName} · ${formatMoney(invoice.totalMinor - invoice.paidMinor, invoice.currency)}`;

/** Finds an invoice by number, reference or account name; only open and overdue ones can be chosen. */
function InvoicePicker({
  value,
  onChange,
  error,
}: {
  value: StaffInvoice | null;
  onChange: (invoice: StaffInvoice | null) => void;
  error: string | null;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const { data, isFetching } = useQuery(staffInvoicesQuery({ q: search.trim() || undefined, pageSize: 10 }));
  const options = data?.data ?? [];
  return (
    <Autocomplete
      options={options}
      value={value}
      onChange={(_event, invoice) => onChange(invoice)}
      inputValue={search}
      onInputChange={(_event, text) => setSearch(text)}
      filterOptions={(list) => list}
      getOptionLabel={describeInvoice}
      getOptionDisabled={(invoice) =>
        invoice.kind !== 'INVOICE' || !(invoice.status === 'OPEN' || invoice.status === 'OVERDUE')
      }
      isOptionEqualToValue={(a, b) => a.uuid === b.uuid}
      loading={isFetching}
      loadingText={t('billingStaff.loading')}
      noOptionsText={t('billingStaff.noInvoices')}
      renderOption={(props, invoice) => (
        <li {...props} key={invoice.uuid}>
          {describeInvoice(invoice)} · {t(`billingStaff.invoiceStatus.${invoice.status}`)}
        </li>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          required
          label={t('billingStaff.invoiceSearch')}
          error={Boolean(error)}
          helperText={error ?? t('billingStaff.invoiceSearchHelp')}
        />
      )}
    />
  );
}

export type PaymentAction = { payment: BankPayment; mode: 'book' | 'handled' };

/** Books a partial or unmatched credit on a chosen invoice, or marks it handled; both with a note. */
export function AssignDialog({ action, onClose }: { action: PaymentAction; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText();
  const assign = useAssignPayment();
  const [invoice, setInvoice] = useState<StaffInvoice | null>(null);
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  const { payment, mode } = action;
  const book = mode === 'book';
  const missingInvoice = book && !invoice;
  const submit = () => {
    setTried(true);
    if (!note.trim() || missingInvoice) return;
    assign.mutate(
      { paymentUuid: payment.uuid, invoiceUuid: book ? invoice!.uuid : null, note: note.trim() },
      {
        onSuccess: () => {
          toast.success(t(book ? 'billingStaff.booked' : 'billingStaff.handled'));
          onClose();
        },
      },
    );
  };
  return (
    <FormDialog
      id="assign-payment"
      open
      title={t(book ? 'billingStaff.bookTitle' : 'billingStaff.handledTitle')}
      text={t('billingStaff.paymentLine', {
        amount: formatMoney(payment.amountMinor, payment.currency),
        date: formatDay(payment.bookedOn),
        debtor: payment.debtorName ?? '—',
      })}
      submitLabel={t(book ? 'billingStaff.book' : 'billingStaff.markHandled')}
      pending={assign.isPending}
      error={errorText(assign.error)}
      onClose={onClose}
      onSubmit={submit}
    >
      {book && (
        <InvoicePicker
          value={invoice}
          onChange={setInvoice}
          error={tried && missingInvoice ? t('billingStaff.errors.chooseInvoice') : null}
        />
      )}
      <NoteField
        label={t('billingStaff.note')}
        value={note}
        onChange={setNote}
        error={tried && !note.trim()}
        helperText={t(book ? 'billingStaff.bookNoteHelp' : 'billingStaff.handledNoteHelp')}
      />
    </FormDialog>
  );
}

/** Marks an invoice paid by hand: the day the money came and a note. */
export function MarkPaidDialog({ invoice, onClose }: { invoice: StaffInvoice; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText();
  const markPaid = useMarkPaid();
  const [paidOn, setPaidOn] = useState(today());
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  const dayProblem = !paidOn ? 'required' : paidOn > today() ? 'paidOnFuture' : null;
  const submit = () => {
    setTried(true);
    if (!note.trim() || dayProblem) return;
    markPaid.mutate(
      { invoiceUuid: invoice.uuid, paidOn, note: note.trim() },
      {
        onSuccess: () => {
          toast.success(t('billingStaff.markedPaid', { number: invoice.number }));
          onClose();
        },
      },
    );
  };
  return (
    <FormDialog
      id="mark-paid"
      open
      title={t('billingStaff.markPaidTitle', { number: invoice.number })}
      text={t('billingStaff.markPaidText', {
        amount: formatMoney(invoice.totalMinor - invoice.paidMinor, invoice.currency),
        account: invoice.accountName,
      })}
      submitLabel={t('billingStaff.markPaid')}
      pending={markPaid.isPending}
      error={errorText(markPaid.error)}
      onClose={onClose}
      onSubmit={submit}
    >
      <TextField
        type="date"
        label={t('billingStaff.paidOn')}
        value={paidOn}
        onChange={(event) => setPaidOn(event.target.value)}
        required
        error={tried && Boolean(dayProblem)}
        helperText={tried && dayProblem ? t(`billingStaff.errors.${dayProblem}`) : undefined}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today() } }}
      />
      <NoteField
        label={t('billingStaff.note')}
        value={note}
        onChange={setNote}
        error={tried && !note.trim()}
        helperText={t('billingStaff.markPaidNoteHelp')}
      />
    </FormDialog>
  );
}

/** Voids an open invoice with a reason; the server issues the credit note. */
export function VoidDialog({ invoice, onClose }: { invoice: StaffInvoice; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText();
  const voidInvoice = useVoidInvoice();
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const submit = () => {
    setTried(true);
    if (!reason.trim()) return;
    voidInvoice.mutate(
      { invoiceUuid: invoice.uuid, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success(t('billingStaff.voided', { number: invoice.number }));
          onClose();
        },
      },
    );
  };
  return (
    <FormDialog
      id="void-invoice"
      open
      destructive
      title={t('billingStaff.voidTitle', { number: invoice.number })}
      text={t('billingStaff.voidText', {
        amount: formatMoney(invoice.totalMinor, invoice.currency),
        account: invoice.accountName,
      })}
      submitLabel={t('billingStaff.void')}
      pending={voidInvoice.isPending}
      error={errorText(voidInvoice.error)}
      onClose={onClose}
      onSubmit={submit}
    >
      <NoteField
        label={t('billingStaff.reason')}
        value={reason}
        onChange={setReason}
        error={tried && !reason.trim()}
      />
    </FormDialog>
  );
}
