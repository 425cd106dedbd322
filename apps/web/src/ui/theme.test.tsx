import { render, screen } from '@testing-library/react';
import { useTheme } from '@mui/material/styles';
import { describe, expect, it, vi } from 'vitest';

// The server writes the configuration into index.html; this page load's says another brand colour. The app reads it
// once per page load (config.ts), so the modules load afresh after it is written, as on a new page.
const meta = document.createElement('meta');
meta.name = 'portal-config';
meta.content = JSON.stringify({ productName: 'Acme', brandColor: '#0b5cad', brandLogo: null });
document.head.append(meta);
vi.resetModules();
const { PortalThemeProvider } = await import('./theme.tsx');

function Primary() {
  const theme = useTheme();
  return <p data-testid="primary">{`${theme.palette.mode} ${theme.palette.primary.main}`}</p>;
}

describe('PortalThemeProvider', () => {
  it('takes the primary colour from the configuration the server wrote into the page', () => {
    localStorage.setItem('theme', 'dark');
    render(
      <PortalThemeProvider language="de" rowsPerPage="Zeilen pro Seite">
        <Primary />
      </PortalThemeProvider>,
    );
    expect(screen.getByTestId('primary').textContent).toBe('dark #0b5cad');
    localStorage.removeItem('theme');
  });
});
