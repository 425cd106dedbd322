import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_COLOR as PRIMARY_RED } from '@portal/contract';
import { buildTheme, focusRingColor, primaryText } from './theme.tsx';

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('theme contrast', () => {
  const light = buildTheme('light', 'de', 'Zeilen pro Seite');
  const dark = buildTheme('dark', 'de', 'Zeilen pro Seite');

  it('uses the same primary red in both themes', () => {
    expect(light.palette.primary.main).toBe(PRIMARY_RED);
    expect(dark.palette.primary.main).toBe(PRIMARY_RED);
  });

  it('meets 4.5:1 for text on and in the primary colour', () => {
    expect(contrast('#ffffff', PRIMARY_RED)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(PRIMARY_RED, light.palette.background.paper)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(PRIMARY_RED, light.palette.background.default)).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#ff7a84', dark.palette.background.paper)).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#ff7a84', dark.palette.background.default)).toBeGreaterThanOrEqual(4.5);
  });

  it('takes another brand colour into both themes, its text shades legible on their surfaces', () => {
    for (const mode of ['light', 'dark'] as const) {
      const theme = buildTheme(mode, 'de', 'Zeilen pro Seite', '#2f6db5');
      expect(theme.palette.primary.main).toBe('#2f6db5');
      for (const surface of [theme.palette.background.default, theme.palette.background.paper])
        expect(contrast(primaryText(theme), surface), mode).toBeGreaterThanOrEqual(4.5);
    }
    expect(primaryText(buildTheme('light', 'de', ''))).toBe(PRIMARY_RED);
    expect(primaryText(buildTheme('dark', 'de', ''))).toBe('#ff7a84');
  });

  it('meets 4.5:1 for the text on filled error buttons and for error texts, in both themes', () => {
    for (const theme of [light, dark]) {
      const { main, contrastText } = theme.palette.error;
      const text = contrastText === '#fff' ? '#ffffff' : contrastText;
      expect(contrast(text, main), theme.palette.mode).toBeGreaterThanOrEqual(4.5);
      expect(contrast(main, theme.palette.background.paper), theme.palette.mode).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('meets 3:1 for the red as a non-text element on dark surfaces', () => {
    expect(contrast(PRIMARY_RED, dark.palette.background.default)).toBeGreaterThanOrEqual(3);
    expect(contrast(PRIMARY_RED, dark.palette.background.paper)).toBeGreaterThanOrEqual(3);
  });

  it('draws a focus ring that stands out 3:1 against the page, the cards and the red fills, in both themes', () => {
    for (const theme of [light, dark]) {
      const ring = focusRingColor(theme.palette.mode);
      for (const surface of [theme.palette.background.default, theme.palette.background.paper, PRIMARY_RED])
        expect(contrast(ring, surface), `${theme.palette.mode} ${surface}`).toBeGreaterThanOrEqual(3);
      const button = theme.components?.MuiButton?.styleOverrides?.root as (props: object) => object;
      expect(button({ ownerState: { color: 'primary', variant: 'contained' }, theme })).toMatchObject({
        '&.Mui-focusVisible': { outline: `3px solid ${ring}`, outlineOffset: 2 },
      });
    }
  });

  it('lets headings and list texts wrap a long unbroken word', () => {
    for (const variant of ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const)
      expect(light.typography[variant]).toMatchObject({ overflowWrap: 'anywhere' });
    expect(light.components?.MuiListItemText?.styleOverrides).toMatchObject({
      primary: { overflowWrap: 'anywhere' },
      secondary: { overflowWrap: 'anywhere' },
    });
  });

  it('uses German component texts', () => {
    expect(light.components?.MuiTablePagination?.defaultProps?.labelRowsPerPage).toBe('Zeilen pro Seite');
  });
});
