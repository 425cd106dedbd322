import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ThemeProvider, createTheme, type Theme } from '@mui/material/styles';
import CssBaseline from '@mui/material/CssBaseline';
import useMediaQuery from '@mui/material/useMediaQuery';
import { deDE, enUS, frFR, itIT } from '@mui/material/locale';
import type { Language } from '@portal/contract';

export type ThemeMode = 'light' | 'dark' | 'auto';
export const THEME_KEY = 'theme';

/**
 * The brand red, the same in both themes. White text on it reaches 5.3:1. On dark surfaces the red
 * stays for fills and borders (≥ 3:1, WCAG non-text contrast); text drawn in the primary colour uses the lighter
 * tint there, which reaches 4.5:1 (see `primaryText`).
 */
export const PRIMARY_RED = '#d41130';
export const PRIMARY_TINT = '#ff7a84';

/**
 * The keyboard focus ring (WCAG 2.4.7): a 3 px outline 2 px outside the control, near-black in the light theme and
 * white in the dark one, so it stands out at least 3:1 against the page, the cards and the red fills and bars.
 */
export function focusRingColor(mode: 'light' | 'dark'): string {
  return mode === 'dark' ? '#ffffff' : '#1b1b1b';
}

// Headings and list texts wrap a long unbroken word (a name, an address) instead of pushing the page sideways.
const WRAP = { overflowWrap: 'anywhere' } as const;

const muiLocales = { de: deDE, en: enUS, fr: frFR, it: itIT } satisfies Record<Language, object>;

export function readThemeMode(): ThemeMode {
  const stored = localStorage.getItem(THEME_KEY);
  return stored === 'light' || stored === 'dark' || stored === 'auto' ? stored : 'auto';
}

export function buildTheme(mode: 'light' | 'dark', language: Language, rowsPerPage: string): Theme {
  const dark = mode === 'dark';
  const primaryText = dark ? PRIMARY_TINT : PRIMARY_RED;
  const focusRing = { outline: `3px solid ${focusRingColor(mode)}`, outlineOffset: 2 };
  return createTheme(
    {
      palette: {
        mode,
        primary: { main: PRIMARY_RED, contrastText: '#ffffff' },
        secondary: { main: dark ? '#90a4ae' : '#455a64' },
        // The dark theme's lighter error red keeps error texts readable on dark surfaces; white on it reaches only
        // 3.7:1, so a filled error button (a destructive confirmation) writes in near-black there (5:1).
        ...(dark ? { error: { main: '#f44336', contrastText: '#121212' } } : {}),
        background: dark
          ? { default: '#121212', paper: '#1b1b1b' }
          : { default: '#f6f6f7', paper: '#ffffff' },
      },
      shape: { borderRadius: 8 },
      typography: {
        fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
        button: { textTransform: 'none', fontWeight: 600 },
        h1: WRAP,
        h2: WRAP,
        h3: WRAP,
        h4: WRAP,
        h5: WRAP,
        h6: WRAP,
      },
      components: {
        MuiCssBaseline: {
          styleOverrides: {
            'h1, h2, h3, h4, h5, h6': WRAP,
            // The shell's "skip to content" link: off screen until focused by keyboard.
            '.skip-link': { position: 'absolute', left: -9999, top: 8, zIndex: 2000, padding: '8px 16px' },
            '.skip-link:focus': {
              left: 8,
              background: dark ? '#1b1b1b' : '#ffffff',
              color: primaryText,
              borderRadius: 8,
              outline: `2px solid ${primaryText}`,
            },
          },
        },
        MuiAppBar: { defaultProps: { enableColorOnDark: true } },
        MuiButton: {
          styleOverrides: {
            root: ({ ownerState }) => ({
              '&.Mui-focusVisible': focusRing,
              ...(ownerState.color === 'primary' && ownerState.variant !== 'contained'
                ? { color: primaryText }
                : {}),
            }),
          },
        },
        MuiListItemText: { styleOverrides: { primary: WRAP, secondary: WRAP } },
        MuiIconButton: { styleOverrides: { root: { '&.Mui-focusVisible': focusRing } } },
        MuiLink: { styleOverrides: { root: { color: primaryText, textDecorationColor: 'currentColor' } } },
        MuiFormLabel: { styleOverrides: { root: { '&.Mui-focused': { color: primaryText } } } },
        MuiTab: { styleOverrides: { root: { '&.Mui-selected': { color: primaryText } } } },
      },
    },
    muiLocales[language],
    // After the locale, whose own wording it replaces (German: "Zeilen pro Seite").
    { components: { MuiTablePagination: { defaultProps: { labelRowsPerPage: rowsPerPage } } } },
  );
}

interface ThemeModeValue {
  mode: ThemeMode;
  setMode(mode: ThemeMode): void;
}

const ThemeModeContext = createContext<ThemeModeValue | null>(null);

/** Light, dark or auto (stored under localStorage `theme`); auto follows the system live. */
export function PortalThemeProvider({
  language,
  rowsPerPage,
  children,
}: {
  language: Language;
  rowsPerPage: string;
  children: ReactNode;
}) {
  const [mode, setModeState] = useState<ThemeMode>(readThemeMode);
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const resolved = mode === 'auto' ? (systemDark ? 'dark' : 'light') : mode;
  const theme = useMemo(() => buildTheme(resolved, language, rowsPerPage), [resolved, language, rowsPerPage]);

  const setMode = useCallback((next: ThemeMode) => {
    localStorage.setItem(THEME_KEY, next);
    setModeState(next);
  }, []);

  // Another tab changed the theme.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === THEME_KEY) setModeState(readThemeMode());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  useEffect(() => {
    document.documentElement.style.colorScheme = resolved;
  }, [resolved]);

  const value = useMemo(() => ({ mode, setMode }), [mode, setMode]);
  return (
    <ThemeModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ThemeModeContext.Provider>
  );
}

export function useThemeMode(): ThemeModeValue {
  const value = useContext(ThemeModeContext);
  if (!value) throw new Error('useThemeMode needs <PortalThemeProvider>');
  return value;
}
