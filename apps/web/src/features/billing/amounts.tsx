import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Typography from '@mui/material/Typography';
import type { InvoiceStatus, PostalAddress } from '@portal/contract';
import { useCurrentAccountUuid } from '@/api/session.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { DotChip } from '@/ui/dot-chip.tsx';
import { LinesTable as SharedLinesTable } from '@/ui/invoice-lines.tsx';
import { plansQuery } from './api.ts';

// How the billing page writes amounts, days, periods and invoice lines. Every figure comes from the server; the
// formatters are the contract's (decision 201), the same the invoice PDF and the mails use.
export {
  formatDay,
  formatDayRange,
  formatLastDay,
  formatMoney,
  formatReference,
  formatShortDay,
  formatShortPeriod,
} from '@/i18n/format.ts';
export { ColumnHeads } from '@/ui/invoice-lines.tsx';

/** The lines and totals of an invoice or preview, with plan names from the catalogue. */
export function LinesTable(props: Omit<Parameters<typeof SharedLinesTable>[0], 'planName'>) {
  return <SharedLinesTable {...props} planName={usePlanName()} />;
}

/** Plan names by code, from the catalogue; a plan no longer offered keeps its code. */
export function usePlanName(): (code: string) => string {
  const account = useCurrentAccountUuid();
  const { data: plans = [] } = useQuery({ ...plansQuery(account), meta: { silentError: true } });
  return (code) => plans.find((plan) => plan.code === code)?.name ?? code;
}

// Colours of the status dot.
const STATUS_COLORS: Record<InvoiceStatus, 'info' | 'success' | 'error' | 'disabled'> = {
  OPEN: 'info',
  PAID: 'success',
  OVERDUE: 'error',
  VOID: 'disabled',
};

export function InvoiceStatusChip({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  return <DotChip color={STATUS_COLORS[status]} label={t(`billing.status.${status}`)} />;
}

/** A postal address as it is written on a letter: street and number, postcode and city, country. */
export function AddressText({ name, address }: { name?: string; address: PostalAddress | null }) {
  const { i18n } = useTranslation();
  const country = new Intl.DisplayNames([i18n.resolvedLanguage ?? currentLanguage()], { type: 'region' });
  return (
    <Typography component="address" sx={{ fontStyle: 'normal' }}>
      {name && (
        <>
          {name}
          <br />
        </>
      )}
      {address && (
        <>
          {[address.street, address.buildingNumber].filter(Boolean).join(' ')}
          <br />
          {address.postcode} {address.city}
          <br />
          {country.of(address.country) ?? address.country}
        </>
      )}
    </Typography>
  );
}
