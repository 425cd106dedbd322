import { useState } from 'react';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import type { Language } from '@portal/contract';

// An announcement's start and end: MUI X's date and time picker with date-fns (as the log's day fields, decision
// 212), in the interface language's form ("05.12.2026 22:00"), always in Swiss time whatever the browser's zone.
// Only the editor imports this file, so the picker loads with its chunk.

const FORMATS = {
  de: 'dd.MM.yyyy HH:mm',
  fr: 'dd.MM.yyyy HH:mm',
  it: 'dd.MM.yyyy HH:mm',
  en: 'dd/MM/yyyy HH:mm',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** The picker's date (its wall-clock figures) as the form keeps a Swiss wall time: "2026-12-05T22:00". */
function toWall(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function fromWall(wall: string): Date | null {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)$/.exec(wall);
  if (!match) return null;
  const [, y, m, d, h, min] = match.map(Number);
  return new Date(y!, m! - 1, d!, h!, min!);
}

/** A whole date and time ('' while empty or still being typed). */
function accepted(date: Date | null): string {
  return date && !Number.isNaN(date.getTime()) && date.getFullYear() >= 1000 ? toWall(date) : '';
}

/** One instant typed or picked as a Swiss wall-clock time; the form gets "YYYY-MM-DDTHH:mm", or '' when emptied. */
export function DateTimeField({
  language,
  label,
  value,
  onChange,
  error,
  helperText,
  required,
  disabled,
}: {
  language: Language;
  label: string;
  value: string;
  onChange: (wall: string) => void;
  error?: boolean;
  helperText?: string;
  required?: boolean;
  disabled?: boolean;
}) {
  const [draft, setDraft] = useState<Date | null>(() => fromWall(value));
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (accepted(draft) !== value) setDraft(fromWall(value));
  }
  return (
    <DateTimePicker
      label={label}
      format={FORMATS[language]}
      ampm={false}
      value={draft}
      disabled={disabled}
      onChange={(date) => {
        setDraft(date);
        const wall = accepted(date);
        if (wall !== value) onChange(wall);
      }}
      slotProps={{
        textField: { error, helperText, required, fullWidth: true },
        field: { clearable: !required },
      }}
    />
  );
}
