import { useRef, useState, type ReactNode, type Ref, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import {
  useParsedFormat,
  usePickerAdapter,
  usePickerContext,
  usePickerTranslations,
} from '@mui/x-date-pickers/hooks';
import { CalendarIcon } from '@mui/x-date-pickers/icons';
import { deDE, enUS, frFR, itIT } from '@mui/x-date-pickers/locales';
import { de } from 'date-fns/locale/de';
import { enGB } from 'date-fns/locale/en-GB';
import { frCH } from 'date-fns/locale/fr-CH';
import { itCH } from 'date-fns/locale/it-CH';
import type { Language } from '@portal/contract';

// The one setting of MUI X's date pickers with date-fns (decision 212), for every field that takes a date: the
// interface language's form whatever the browser's. Only lazy chunks import this file (the log's day fields, the
// announcement editor), never the first load.

/** date-fns' locale per interface language: the Swiss variants (German Swiss writes dates as German does). */
const DATE_LOCALES = { de, fr: frCH, it: itCH, en: enGB };

/** The picker's own words (calendar buttons, field placeholders) per interface language. */
const PICKER_TEXTS = { de: deDE, fr: frFR, it: itIT, en: enUS };

/** The date pickers inside speak the interface language. */
export function PickerLocalization({ language, children }: { language: Language; children: ReactNode }) {
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={DATE_LOCALES[language]}
      localeText={PICKER_TEXTS[language].components.MuiLocalizationProvider.defaultProps.localeText}
    >
      {children}
    </LocalizationProvider>
  );
}

/** What a picker's `slotProps.field` gives `TextDateField` besides what the picker passes itself. */
export interface TextDateFieldProps {
  /** The field's text for a date: the language's form ("20.11.2026"). */
  toText: (date: Date) => string;
  /** The date a text names, or null when it names none (or none yet). */
  fromText: (text: string) => Date | null;
  error?: boolean;
  helperText?: ReactNode;
  required?: boolean;
  fullWidth?: boolean;
  /** The button that opens the calendar (`useFocusReturn`). */
  openButtonRef?: RefObject<HTMLButtonElement | null>;
}

/**
 * A picker's date for a form's value (a day or a wall time as text): the picker keeps its own date, an invalid one
 * while the typed text names none, and hands the form only what `accepted` makes of it; a new value from outside
 * (the filters reset, the form reloaded) replaces the date. Returns the date and the picker's `onChange`.
 */
export function usePickerDraft(
  value: string,
  {
    toDate,
    accepted,
    onChange,
  }: {
    toDate: (value: string) => Date | null;
    accepted: (date: Date | null) => string;
    onChange: (value: string) => void;
  },
): [Date | null, (date: Date | null) => void] {
  const [draft, setDraft] = useState<Date | null>(() => toDate(value));
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (accepted(draft) !== value) setDraft(toDate(value));
  }
  const change = (date: Date | null) => {
    setDraft(date);
    const next = accepted(date);
    if (next !== value) onChange(next);
  };
  return [draft, change];
}

/**
 * Returns the focus to the calendar's button once the calendar has closed (Escape, a day chosen), as under ReactDOM.
 * MUI X records the element to return to in an effect after opening; under Preact (decision 263) the calendar has
 * focused its day by then, so MUI X returned the focus to that day, which the closing calendar then took away, and
 * the focus fell to the page. Given to the picker's `desktopTransition` and the field's `openButtonRef`.
 */
export function useFocusReturn() {
  const openButtonRef = useRef<HTMLButtonElement>(null);
  const onExited = (calendar: HTMLElement) => {
    const active = document.activeElement;
    if (!active || active === document.body || calendar.contains(active)) openButtonRef.current?.focus();
  };
  return { openButtonRef, onExited };
}

const invalidDate = () => new Date(Number.NaN);
const isDate = (value: Date | null): value is Date => value !== null && !Number.isNaN(value.getTime());

/** Equal as a field reads them: both empty, both the same instant, or both a text that names no date. */
function same(one: Date | null, other: Date | null): boolean {
  if (one === null || other === null) return one === other;
  return one.getTime() === other.getTime() || (!isDate(one) && !isDate(other));
}

/**
 * The field of the portal's date pickers (MUI X's `slots.field`): a plain text box in which a date is typed as the
 * language writes it, with the button that opens the picker's calendar. MUI X's own field is a row of spinbuttons
 * whose text it writes with `innerHTML` behind the renderer, which only ReactDOM's way of writing a single text
 * child survives (under Preact typing showed stale digits, decision 217); this one is an `<input>` the renderer
 * owns. The picker's value is what the text names: empty → null, a whole date → that date, anything else → an
 * invalid date (the form gets nothing from it, and the field says so once the focus has left it). A new value from
 * outside (the calendar, a reset) replaces the text; leaving the field writes a date it took in the language's form.
 */
export function TextDateField(props: TextDateFieldProps & { id?: string; inputRef?: Ref<HTMLInputElement> }) {
  const { toText, fromText, error, helperText, required, fullWidth, openButtonRef, id, inputRef } = props;
  const { t } = useTranslation('validation');
  const {
    value,
    setValue,
    setOpen,
    label,
    name,
    rootClassName,
    rootSx,
    rootRef,
    triggerRef,
    disabled,
    readOnly,
  } = usePickerContext<Date | null>();
  const adapter = usePickerAdapter();
  const translations = usePickerTranslations();
  const form = useParsedFormat();
  const named = (text: string) => (text.trim() === '' ? null : (fromText(text) ?? invalidDate()));

  const [text, setText] = useState(() => (isDate(value) ? toText(value) : ''));
  const [seen, setSeen] = useState(value);
  const [focused, setFocused] = useState(false);
  if (!same(value, seen)) {
    setSeen(value);
    if (!same(value, named(text))) setText(isDate(value) ? toText(value) : '');
  }

  // Said once the focus has left the field, or at once when the form refuses it (Enter in the field submits).
  const invalid = text.trim() !== '' && fromText(text) === null;
  const shownInvalid = invalid && (!focused || Boolean(error));
  const openLabel = translations.openDatePickerDialogue(
    isDate(value) ? adapter.format(value, 'fullDate') : null,
  );
  return (
    <TextField
      id={id}
      inputRef={inputRef}
      label={label}
      name={name}
      className={rootClassName}
      sx={rootSx}
      ref={rootRef}
      value={text}
      placeholder={form}
      disabled={disabled}
      required={required}
      fullWidth={fullWidth}
      error={error || shownInvalid}
      helperText={shownInvalid ? t('date', { form }) : helperText}
      autoComplete="off"
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        // "1.1.2020" or "01012020" reads "01.01.2020" once typed.
        const date = fromText(text);
        if (date) setText(toText(date));
      }}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        const typed = named(next);
        setSeen(typed);
        if (!same(typed, value)) setValue(typed);
      }}
      slotProps={{
        htmlInput: { readOnly },
        input: {
          ref: triggerRef,
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                ref={openButtonRef}
                aria-label={openLabel}
                edge="end"
                disabled={disabled || readOnly}
                onClick={() => setOpen((open) => !open)}
              >
                <CalendarIcon />
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
