import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '@/testing/render.tsx';
import { testAccount } from '@/testing/fixtures.ts';
import { switchAccount } from '@/api/session.ts';
import AccountMenu, { SEARCH_FROM } from './account-menu.tsx';

vi.mock('@/api/session.ts', () => ({ switchAccount: vi.fn() }));

const accounts = Array.from({ length: SEARCH_FROM }, (_, i) =>
  testAccount(`00000000-0000-4000-8000-00000000000${i}`, { name: `Firma ${i}` }),
);

describe('account menu', () => {
  it('moves from the search field into the list with ArrowDown', async () => {
    const user = userEvent.setup();
    await renderPage(
      '/',
      <AccountMenu anchor={document.body} accounts={accounts} current={null} onClose={() => {}} />,
    );
    const search = screen.getByRole('textbox', { name: 'Konten durchsuchen' });
    expect(document.activeElement).toBe(search);
    await user.type(search, 'Firma 3');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: /Firma 3/ }));
  });

  it('says "no account" for an empty list, and "no account found" only for a search without a match', async () => {
    await renderPage(
      '/',
      <AccountMenu anchor={document.body} accounts={[]} current={null} onClose={() => {}} />,
    );
    expect(screen.getByText('Kein Konto')).toBeTruthy();
    expect(screen.queryByText('Kein Konto gefunden')).toBeNull();
  });

  // Issue 23 item 5: choosing a pending invitation made it the current account, with a menu of pages it cannot open.
  it('leads a pending invitation to the invitation page instead of switching to it', async () => {
    const user = userEvent.setup();
    const pending = testAccount('00000000-0000-4000-8000-0000000000aa', {
      name: 'Beispiel GmbH',
      invitationStatus: 'PENDING',
    });
    await renderPage(
      '/',
      <AccountMenu anchor={document.body} accounts={[pending]} current={null} onClose={() => {}} />,
    );
    await user.click(screen.getByRole('menuitem', { name: /Beispiel GmbH/ }));
    expect((await screen.findByTestId('where')).textContent).toBe('/invite/verify');
    expect(switchAccount).not.toHaveBeenCalled();
  });
});
