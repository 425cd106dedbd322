/**
 * The brand's colours, one rule for the server (configuration check, sign-in pages, mails, invoice PDF) and the web
 * theme: a primary colour (BRAND_COLOR, default the product red) that white text is legible on, and the shades drawn
 * from it for text in the primary colour on light and dark surfaces (decisions 034 and 207).
 */

/** The product red: white on it 5.3:1. */
export const DEFAULT_BRAND_COLOR = '#d41130';

/** White text on the brand colour must reach this ratio (WCAG AA for normal text). */
export const BRAND_MIN_CONTRAST = 4.5;

/** The lightest light surface primary text is drawn on (the web page background; the sign-in page's is darker). */
const LIGHT_SURFACE = '#f4f4f6';
/** The lightest dark surface primary text is drawn on (the sign-in card; the web's paper is #1b1b1b). */
const DARK_SURFACE = '#1e1e1e';
/** Text in the primary colour on dark surfaces reaches this much (decision 034). */
const DARK_TEXT_CONTRAST = 6;
/** The hand-picked tint of the product red for dark surfaces (6.6:1), kept as it was. */
const DEFAULT_DARK_TEXT = '#ff7a84';

/** `value` as lower-case `#rrggbb` when it is a hex colour (`#rgb` or `#rrggbb`), else null. */
export function parseHexColor(value: string): string | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return null;
  const hex = match[1]!.toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex}`;
}

function channels(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG relative luminance of a `#rrggbb` colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex)
    .map((c) => c / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [high, low] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

/** `hex` moved the share `t` (0 to 1) of the way towards `to`. */
function mix(hex: string, to: string, t: number): string {
  const target = channels(to);
  return `#${channels(hex)
    .map((c, i) =>
      Math.round(c + (target[i]! - c) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** The first mix of `hex` towards `to`, in steps of 1 %, that reaches `ratio` against `surface`. */
function mixUntil(hex: string, to: string, surface: string, ratio: number): string {
  for (let step = 0; step <= 100; step += 1) {
    const candidate = mix(hex, to, step / 100);
    if (contrastRatio(candidate, surface) >= ratio) return candidate;
  }
  return to;
}

/** The colours drawn from one brand colour. */
export interface BrandPalette {
  /** Fills, bars, borders and filled buttons (white text on it), the same in both themes. */
  main: string;
  /** A darker shade: hovered buttons, links on the sign-in pages. */
  dark: string;
  /** Text in the primary colour on light surfaces: `main`, darkened where it would not reach 4.5:1 there. */
  lightText: string;
  /** Text in the primary colour on dark surfaces: a lighter tint reaching 6:1. */
  darkText: string;
}

/** The palette of a brand colour (`#rrggbb`); the product red keeps its hand-picked dark-surface tint. */
export function brandPalette(color: string): BrandPalette {
  const main = parseHexColor(color) ?? DEFAULT_BRAND_COLOR;
  return {
    main,
    dark: mix(main, '#000000', 0.17),
    lightText: mixUntil(main, '#000000', LIGHT_SURFACE, BRAND_MIN_CONTRAST),
    darkText:
      main === DEFAULT_BRAND_COLOR
        ? DEFAULT_DARK_TEXT
        : mixUntil(main, '#ffffff', DARK_SURFACE, DARK_TEXT_CONTRAST),
  };
}
