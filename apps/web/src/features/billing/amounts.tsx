import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import type { InvoiceStatus, PostalAddress } from '@portal/contract';
import { useCurrentAccount } from '@/api/session.ts';
import { formatDayRange } from '@/i18n/format.ts';
import { currentLanguage } from '@/i18n/i18n.ts';
import { LinesTable as SharedLinesTable } from '@/ui/invoice-lines.tsx';
import { plansQuery } from './api.ts';

// How the billing page writes amounts, days, periods and invoice lines. Every figure comes from the server; these
// helpers only format them in the reader's language.

export { formatDay } from '@/i18n/format.ts';
export { formatRate, useMoney } from '@/ui/invoice-lines.tsx';

/** A period as the API gives it (up to, not including, its end) as people read it: "1.–31. Jan. 2026". */
export function formatPeriod(start: string, end: string, locale?: string): string {
  return formatDayRange(start, end, locale, 'medium');
}

/** The lines and totals of an invoice or preview, with plan names from the catalogue. */
export function LinesTable(props: Omit<Parameters<typeof SharedLinesTable>[0], 'planName'>) {
  return <SharedLinesTable {...props} planName={usePlanName()} />;
}

/** Plan names by code, from the catalogue; a plan no longer offered keeps its code. */
export function usePlanName(): (code: string) => string {
  const account = useCurrentAccount()!.uuid;
  const { data: plans = [] } = useQuery({ ...plansQuery(account), meta: { silentError: true } });
  return (code) => plans.find((plan) => plan.code === code)?.name ?? code;
}

// Colours of the status dot; the chip's text keeps the theme's text colour, readable in both themes.
const STATUS_COLORS: Record<InvoiceStatus, 'info' | 'success' | 'error' | 'disabled'> = {
  OPEN: 'info',
  PAID: 'success',
  OVERDUE: 'error',
  VOID: 'disabled',
};

export function InvoiceStatusChip({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<FiberManualRecord color={STATUS_COLORS[status]} sx={{ fontSize: 12 }} />}
      label={t(`billing.status.${status}`)}
    />
  );
}

/** A postal address as it is written on a letter: street and number, postcode and city, country. */
export function AddressText({ name, address }: { name?: string; address: PostalAddress }) {
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
      {[address.street, address.buildingNumber].filter(Boolean).join(' ')}
      <br />
      {address.postcode} {address.city}
      <br />
      {country.of(address.country) ?? address.country}
    </Typography>
  );
}
