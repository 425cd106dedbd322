import { render, screen } from '@testing-library/react';
import { useTheme } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { PortalThemeProvider } from './theme.tsx';

// The server writes the configuration into index.html; this page load's says another brand colour.
const meta = document.createElement('meta');
meta.name = 'portal-config';
meta.content = JSON.stringify({ productName: 'Acme', brandColor: '#0b5cad', brandLogo: null });
document.head.append(meta);

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
