import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ThemeProvider, createTheme, type Theme } from '@mui/material/styles';
import CssBaseline from '@mui/material/CssBaseline';
import useMediaQuery from '@mui/material/useMediaQuery';
import { deDE, enUS, frFR, itIT } from '@mui/material/locale';
import { brandPalette, DEFAULT_BRAND_COLOR, type Language } from '@portal/contract';
import { config } from '@/config.ts';

export type ThemeMode = 'light' | 'dark' | 'auto';
export const THEME_KEY = 'theme';

/**
 * The primary colour is the brand's (BRAND_COLOR from the server's configuration, default the product red), the same
 * in both themes: white text on it reaches 4.5:1 (the server refuses to start otherwise). On dark surfaces it stays
 * for fills and borders; text drawn in the primary colour uses the palette's text shades (`primaryText`), which
 * reach 4.5:1 on light and 6:1 on dark surfaces (decisions 034 and 207).
 */
export function primaryText(theme: Pick<Theme, 'palette'>): string {
  const palette = brandPalette(theme.palette.primary.main);
  return theme.palette.mode === 'dark' ? palette.darkText : palette.lightText;
}

/**
 * The keyboard focus ring (WCAG 2.4.7): a 3 px outline 2 px outside the control, near-black in the light theme and
 * white in the dark one, so it stands out at least 3:1 against the page, the cards and the red fills and bars.
 */
export function focusRingColor(mode: 'light' | 'dark'): string {
  return mode === 'dark' ? '#ffffff' : '#1b1b1b';
}

// Headings and list texts break at syllables in the page's language (`<html lang>`, set by i18n.ts) where the
// browser knows them, and wrap a long unbroken word (a name, an address) instead of pushing the page sideways.
const WRAP = { overflowWrap: 'anywhere', hyphens: 'auto' } as const;

/** Dialogs are at most 500 px wide (SPEC); one that shows a table says `maxWidth="md"` and stays inside the viewport. */
const DIALOG_MAX_WIDTH = 500;

/** Below MUI's `sm` breakpoint (600 px) a screen is a phone: dialogs fill it. */
const PHONE_QUERY = '(max-width:599.95px)';

const muiLocales = { de: deDE, en: enUS, fr: frFR, it: itIT } satisfies Record<Language, object>;

export function readThemeMode(): ThemeMode {
  const stored = localStorage.getItem(THEME_KEY);
  return stored === 'light' || stored === 'dark' || stored === 'auto' ? stored : 'auto';
}

export function buildTheme(
  mode: 'light' | 'dark',
  language: Language,
  rowsPerPage: string,
  brandColor: string = DEFAULT_BRAND_COLOR,
  /** A phone-sized screen ({@link PHONE_QUERY}): every dialog is full screen. */
  phone = false,
): Theme {
  const dark = mode === 'dark';
  const brand = brandPalette(brandColor);
  const textColor = dark ? brand.darkText : brand.lightText;
  const focusRing = { outline: `3px solid ${focusRingColor(mode)}`, outlineOffset: 2 };
  // Inside its own box for the rows of a list, a menu and the tabs, whose neighbours or container would hide a ring
  // outside; it is then drawn over the row's focus or selection tint, against which it keeps 3:1 too.
  const focusRingInside = { ...focusRing, outlineOffset: -3 };
  return createTheme(
    {
      palette: {
        mode,
        primary: { main: brand.main, contrastText: '#ffffff' },
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
        // The page titles: smaller on phones, so "Benutzerverwaltung" fits a 320 px screen as one word.
        h4: { ...WRAP, [`@media ${PHONE_QUERY}`]: { fontSize: '1.5rem' } },
        h5: WRAP,
        h6: WRAP,
      },
      components: {
        MuiCssBaseline: {
          styleOverrides: {
            'h1, h2, h3, h4, h5, h6': WRAP,
            // Every element focused by keyboard shows the ring (WCAG 2.4.7, 2.4.11): MUI's controls by their
            // focus-visible class (below), plain links and focusable boxes (a scrolling dialog text) here. An element
            // focused only by the app (the main region after a page change, tabindex -1) shows none.
            'a:focus-visible, [tabindex]:not([tabindex="-1"]):focus-visible': focusRing,
            // The shell's "skip to content" link: off screen until focused by keyboard.
            '.skip-link': { position: 'absolute', left: -9999, top: 8, zIndex: 2000, padding: '8px 16px' },
            '.skip-link:focus': {
              left: 8,
              background: dark ? '#1b1b1b' : '#ffffff',
              color: textColor,
              borderRadius: 8,
              outline: `2px solid ${textColor}`,
            },
          },
        },
        MuiAppBar: { defaultProps: { enableColorOnDark: true } },
        // Every dialog: full screen on a phone, else as wide as it may be (500 px, SPEC), or up to MUI's `md`
        // (900 px, never more than the viewport) for one that shows a table and says `maxWidth="md"`.
        MuiDialog: {
          defaultProps: { fullWidth: true, fullScreen: phone },
          styleOverrides: {
            paper: ({ ownerState }) =>
              !ownerState.fullScreen && (ownerState.maxWidth ?? 'sm') === 'sm'
                ? { maxWidth: DIALOG_MAX_WIDTH }
                : {},
          },
        },
        // A table wider than its place scrolls in its container; the container holds what is positioned inside
        // (a visually hidden column name), which would otherwise stick out and scroll the page sideways.
        MuiTableContainer: { styleOverrides: { root: { position: 'relative' } } },
        MuiButton: {
          styleOverrides: {
            root: ({ ownerState }) => ({
              '&.Mui-focusVisible': focusRing,
              ...(ownerState.color === 'primary' && ownerState.variant !== 'contained'
                ? { color: textColor }
                : {}),
            }),
          },
        },
        MuiListItemText: { styleOverrides: { primary: WRAP, secondary: WRAP } },
        MuiIconButton: { styleOverrides: { root: { '&.Mui-focusVisible': focusRing } } },
        // Every other MUI control (switches, checkboxes, chips, toggle buttons…) through their common base; the side
        // navigation, menus and tabs inside their box. Before, these showed focus only as a background change of
        // 1.1–1.4:1.
        MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': focusRing } } },
        MuiListItemButton: { styleOverrides: { root: { '&.Mui-focusVisible': focusRingInside } } },
        MuiMenuItem: { styleOverrides: { root: { '&.Mui-focusVisible': focusRingInside } } },
        // A focused field's border in the text shade of the primary colour: the red itself reaches less than 3:1 on
        // the dark theme's surfaces.
        MuiOutlinedInput: {
          styleOverrides: {
            root: { '&.Mui-focused .MuiOutlinedInput-notchedOutline': { borderColor: textColor } },
          },
        },
        MuiLink: { styleOverrides: { root: { color: textColor, textDecorationColor: 'currentColor' } } },
        MuiFormLabel: { styleOverrides: { root: { '&.Mui-focused': { color: textColor } } } },
        MuiTab: {
          styleOverrides: {
            root: { '&.Mui-selected': { color: textColor }, '&.Mui-focusVisible': focusRingInside },
          },
        },
      },
    },
    muiLocales[language],
    // After the locale, whose own wording it replaces (German: "Zeilen pro Seite").
    {
      components: {
        MuiTablePagination: {
          defaultProps: { labelRowsPerPage: rowsPerPage },
          // On a phone the size choice, the range and the arrows wrap to a second line instead of sticking out.
          styleOverrides: { toolbar: { flexWrap: 'wrap', justifyContent: 'flex-end' } },
        },
      },
    },
  );
}

interface ThemeModeValue {
  mode: ThemeMode;
  setMode(mode: ThemeMode): void;
}

const ThemeModeContext = createContext<ThemeModeValue | null>(null);

/**
 * Light, dark or auto (stored under localStorage `theme`); auto follows the system live. The primary colour is the
 * configured brand colour of this page load (`config().brandColor`) unless given.
 */
export function PortalThemeProvider({
  language,
  rowsPerPage,
  brandColor = config().brandColor,
  children,
}: {
  language: Language;
  rowsPerPage: string;
  brandColor?: string;
  children: ReactNode;
}) {
  const [mode, setModeState] = useState<ThemeMode>(readThemeMode);
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const phone = useMediaQuery(PHONE_QUERY, { noSsr: true });
  const resolved = mode === 'auto' ? (systemDark ? 'dark' : 'light') : mode;
  const theme = useMemo(
    () => buildTheme(resolved, language, rowsPerPage, brandColor, phone),
    [resolved, language, rowsPerPage, brandColor, phone],
  );

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
