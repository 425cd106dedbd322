import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { Account } from '@portal/contract';
import { createQueryClient } from '@/api/query-client.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { TwoFactorBar } from './toolbars.tsx';

const muster = (extra: Partial<Account>) =>
  testAccount('m1', { name: 'Muster AG', twoFactorGraceUntil: '2026-12-01T10:00:00.000Z', ...extra });

const render = (account: Account) =>
  renderPage('/somewhere', <TwoFactorBar account={account} />, { queryClient: createQueryClient() });

beforeEach(() => sessionStorage.clear());

describe('two-factor bar', () => {
  it('reminds during the grace period with the date, until dismissed', async () => {
    await render(muster({ twoFactorRequired: 'grace' }));
    expect(
      await screen.findByText('«Muster AG» verlangt ab 1. Dezember 2026 Zwei-Faktor-Authentifizierung.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Jetzt einrichten' }).getAttribute('href')).toBe(
      '/settings/users?tab=security',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Hinweis ausblenden' }));
    expect(screen.queryByText(/verlangt ab/)).toBeNull();
  });

  it('explains an enforced rule and offers the other accounts', async () => {
    await render(muster({ twoFactorRequired: 'enforced' }));
    expect(await screen.findByText('«Muster AG» verlangt Zwei-Faktor-Authentifizierung')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Anderes Konto öffnen' }).getAttribute('href')).toBe('/accounts');
  });

  it('says nothing without a rule, or to staff', async () => {
    const { container } = await render(muster({ twoFactorRequired: 'none' }));
    expect(container.textContent).toBe('');
    await render(muster({ twoFactorRequired: 'enforced', accountRole: 'SUPPORT' }));
    expect(screen.queryByText(/verlangt/)).toBeNull();
  });
});
