import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { i18n } from 'i18next';
import { createTestI18n } from '@/testing/i18n.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { switchAccount } from '@/api/session.ts';
import AccountMenu, { SEARCH_FROM } from './account-menu.tsx';

vi.mock('@/api/session.ts', () => ({ switchAccount: vi.fn() }));

let i18n: i18n;
beforeAll(async () => {
  i18n = await createTestI18n('de');
});

const accounts = Array.from({ length: SEARCH_FROM }, (_, i) =>
  testAccount(`00000000-0000-4000-8000-00000000000${i}`, { name: `Firma ${i}` }),
);

describe('account menu', () => {
  it('moves from the search field into the list with ArrowDown', async () => {
    const user = userEvent.setup();
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <AccountMenu anchor={document.body} accounts={accounts} current={null} onClose={() => {}} />
        </MemoryRouter>
      </I18nextProvider>,
    );
    const search = screen.getByRole('textbox', { name: 'Konten durchsuchen' });
    expect(document.activeElement).toBe(search);
    await user.type(search, 'Firma 3');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: /Firma 3/ }));
  });

  it('says "no account" for an empty list, and "no account found" only for a search without a match', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <AccountMenu anchor={document.body} accounts={[]} current={null} onClose={() => {}} />
        </MemoryRouter>
      </I18nextProvider>,
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
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/']}>
          <Routes>
            <Route
              path="/"
              element={
                <AccountMenu anchor={document.body} accounts={[pending]} current={null} onClose={() => {}} />
              }
            />
            <Route path="/invite/verify" element={<p>invitation page</p>} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>,
    );
    await user.click(screen.getByRole('menuitem', { name: /Beispiel GmbH/ }));
    expect(await screen.findByText('invitation page')).toBeTruthy();
    expect(switchAccount).not.toHaveBeenCalled();
  });
});
