import { useState } from 'react';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import type { Language } from '@portal/contract';
import { PickerLocalization } from '@/ui/date-pickers.tsx';

// The log's "Von"/"Bis" fields: MUI X's date picker with date-fns (decision 212), in the interface language's form —
// "20.11.2026" in German, French and Italian as Switzerland writes them, "20/11/2026" in English — whatever the
// browser's own language, which a native date field follows ("11/20/2026"). The logs page loads this file lazily,
// beside its own chunk (`page-loaders.ts`): the picker and date-fns are a chunk of their own (56 KB gzip, more than
// a page may weigh, decision 236), never on the way from sign-in to the dashboard.

/**
 * The form of a day in each language, with four-digit years: the locales' own short form ("dd.MM.y") takes a year of
 * any length, so a year still being typed ("2", "20") would already be a day of the first centuries.
 */
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

/** The day a field's date gives the filter: '' while it is empty or still being typed (no four-digit year yet). */
function accepted(date: Date | null): string {
  return date && !Number.isNaN(date.getTime()) && date.getFullYear() >= 1000 ? toDay(date) : '';
}

/**
 * One day, typed in the language's form or picked from the calendar; the form gets it as YYYY-MM-DD, or '' when the
 * field is emptied. The field keeps what is being typed (a year of one digit is already a date, of the year 2) and
 * hands the filter only a whole day; a new value from outside (the filters reset) replaces it.
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
  const [draft, setDraft] = useState<Date | null>(() => fromDay(value));
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (accepted(draft) !== value) setDraft(fromDay(value));
  }
  return (
    <DatePicker
      label={label}
      format={DAY_FORMATS[language]}
      value={draft}
      onChange={(date) => {
        setDraft(date);
        const day = accepted(date);
        if (day !== value) onChange(day);
      }}
      slotProps={{ textField: { error, helperText }, field: { clearable: true } }}
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
