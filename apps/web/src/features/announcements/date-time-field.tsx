import { DesktopDateTimePicker } from '@mui/x-date-pickers/DesktopDateTimePicker';
import { formatShortWallTime, parseShortWallTime, type Language } from '@portal/contract';
import {
  TextDateField,
  useFocusReturn,
  usePickerDraft,
  type TextDateFieldProps,
} from '@/ui/date-pickers.tsx';

// An announcement's start and end: MUI X's date and time picker with date-fns (as the log's day fields, decision
// 212) for its calendar and clock, and our text field (decision 263) in the interface language's form
// ("05.12.2026 22:00"), always in Swiss time whatever the browser's zone. Only the editor imports this file, so the
// picker loads with its chunk.

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

/**
 * What the form gets for a field whose text names no date and time: the editor refuses to save it (an end typed
 * half must not be saved as no end), and the field says what is wrong.
 */
export const INVALID_WALL = 'invalid';

/** A whole date and time, '' when empty, `INVALID_WALL` when its text names none. */
function accepted(date: Date | null): string {
  if (!date) return '';
  return Number.isNaN(date.getTime()) ? INVALID_WALL : toWall(date);
}

/**
 * One instant typed or picked as a Swiss wall-clock time; the form gets "YYYY-MM-DDTHH:mm", '' when emptied, or
 * `INVALID_WALL`.
 */
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
  const [draft, change] = usePickerDraft(value, { toDate: fromWall, accepted, onChange });
  const focusReturn = useFocusReturn();
  const field: TextDateFieldProps = {
    openButtonRef: focusReturn.openButtonRef,
    toText: (date) => formatShortWallTime(toWall(date), language),
    fromText: (text) => fromWall(parseShortWallTime(text) ?? ''),
    error,
    helperText,
    required,
    fullWidth: true,
  };
  return (
    <DesktopDateTimePicker
      label={label}
      format={FORMATS[language]}
      ampm={false}
      value={draft}
      disabled={disabled}
      onChange={change}
      slots={{ field: TextDateField }}
      slotProps={{ field: field as object, desktopTransition: { onExited: focusReturn.onExited } }}
    />
  );
}
