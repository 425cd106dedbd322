import { describe, expect, it } from 'vitest';
import { createTheme } from '@mui/material/styles';
import { LANGUAGES } from '@portal/contract';
import { muiWithoutCssVars } from '../../vite.config.ts';
import { buildTheme } from './theme.tsx';

/** The build's replacement of an MUI file, or null where it keeps MUI's (decision 255). */
function replaced(id: string): string | null {
  const load = muiWithoutCssVars().load as unknown as (id: string) => string | null;
  return load(id);
}

describe('MUI without CSS variables in the build', () => {
  it('keeps every theme of the app on the path the build keeps: no colorSchemes, no CSS variables', () => {
    // MUI's createTheme and ThemeProvider take their CSS-variables path only for such a theme; the build's throw.
    for (const mode of ['light', 'dark'] as const)
      for (const language of LANGUAGES)
        for (const phone of [false, true]) {
          const theme = buildTheme(mode, language, 'Zeilen', undefined, phone);
          expect('colorSchemes' in theme).toBe(false);
          expect('vars' in theme).toBe(false);
        }
    // MUI's own default theme (for components outside the provider) too.
    expect('colorSchemes' in createTheme()).toBe(false);
  });

  it('replaces only createTheme and ThemeProvider of @mui/material/styles, with their path without variables', () => {
    const styles = '/repo/node_modules/@mui/material/styles';
    expect(replaced(`${styles}/createTheme.mjs`)).toMatch(/return createThemeNoVars\(options, \.\.\.args\)/);
    expect(replaced(`${styles}/ThemeProvider.mjs`)).toMatch(/jsx\(ThemeProviderNoVars/);
    for (const kept of [
      `${styles}/createThemeNoVars.mjs`,
      `${styles}/ThemeProviderNoVars.mjs`,
      '/repo/node_modules/@mui/system/esm/ThemeProvider/ThemeProvider.mjs',
      '/repo/apps/web/src/ui/theme.tsx',
    ])
      expect(replaced(kept)).toBeNull();
  });
});
