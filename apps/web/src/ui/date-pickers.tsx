import type { ReactNode } from 'react';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
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
