import { DesktopDatePicker } from '@mui/x-date-pickers/DesktopDatePicker';
import { formatShortDay, parseShortDay, type Language } from '@portal/contract';
import {
  PickerLocalization,
  TextDateField,
  useFocusReturn,
  usePickerDraft,
  type TextDateFieldProps,
} from '@/ui/date-pickers.tsx';

// The log's "Von"/"Bis" fields: MUI X's date picker with date-fns (decision 212) for its calendar, and a text field
// of ours in which a day is typed in the interface language's form — "20.11.2026" in German, French and Italian as
// Switzerland writes them, "20/11/2026" in English — whatever the browser's own language, which a native date field
// follows ("11/20/2026"); decision 263. The logs page loads this file lazily, beside its own chunk
// (`page-loaders.ts`): the picker and date-fns are a chunk of their own (more than a page may weigh, decision 236),
// never on the way from sign-in to the dashboard.

/** The form of a day in each language, as the field's placeholder shows it ("TT.MM.JJJJ"). */
const DAY_FORMATS = { de: 'dd.MM.yyyy', fr: 'dd.MM.yyyy', it: 'dd.MM.yyyy', en: 'dd/MM/yyyy' };

const pad = (n: number) => String(n).padStart(2, '0');

/** A local day as the form keeps it (YYYY-MM-DD). */
function toDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function fromDay(day: string): Date | null {
  if (!day) return null;
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d!);
}

/** The day a field's date gives the filter: '' while it is empty or its text names no day (yet). */
function accepted(date: Date | null): string {
  return date && !Number.isNaN(date.getTime()) ? toDay(date) : '';
}

/**
 * One day, typed in the language's form or picked from the calendar; the form gets it as YYYY-MM-DD, or '' when the
 * field is emptied or names no day. The picker keeps the field's date (an invalid one while the text names none)
 * and hands the filter only a whole day; a new value from outside (the filters reset) replaces it.
 */
function DayField({
  language,
  label,
  value,
  onChange,
  error,
  helperText,
}: {
  language: Language;
  label: string;
  value: string;
  onChange: (day: string) => void;
  error?: boolean;
  helperText?: string;
}) {
  const [draft, change] = usePickerDraft(value, { toDate: fromDay, accepted, onChange });
  const focusReturn = useFocusReturn();
  const field: TextDateFieldProps = {
    openButtonRef: focusReturn.openButtonRef,
    toText: (date) => formatShortDay(toDay(date), language),
    fromText: (text) => fromDay(parseShortDay(text) ?? ''),
    error,
    helperText,
  };
  return (
    <DesktopDatePicker
      label={label}
      format={DAY_FORMATS[language]}
      value={draft}
      onChange={change}
      slots={{ field: TextDateField }}
      slotProps={{ field: field as object, desktopTransition: { onExited: focusReturn.onExited } }}
    />
  );
}

export interface DayRangeProps {
  language: Language;
  from: { label: string; value: string; onChange: (day: string) => void };
  to: { label: string; value: string; onChange: (day: string) => void; error?: string };
}

/** The log's "Von" and "Bis": the default export, which the logs page loads lazily. */
export default function DayRange({ language, from, to }: DayRangeProps) {
  return (
    <PickerLocalization language={language}>
      <DayField language={language} label={from.label} value={from.value} onChange={from.onChange} />
      <DayField
        language={language}
        label={to.label}
        value={to.value}
        onChange={to.onChange}
        error={Boolean(to.error)}
        helperText={to.error || undefined}
      />
    </PickerLocalization>
  );
}
