import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryHistory } from '@/routing/history.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { Account } from '@portal/contract';
import { createQueryClient } from '@/api/query-client.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';
import { createTestI18n } from '@/testing/i18n.ts';
import { testAccount, testUser } from '@/testing/fixtures.ts';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import { createNavigation } from '@/routing/navigation.ts';
import { AppRouter } from '@/routing/navigation-view.tsx';
import { AppShell } from './app-shell.tsx';

const me = testUser();
const DELETION_NOTICE = 'Dieses Konto wird nach dem 12. Dezember 2026 gelöscht.';

const account = (uuid: string, name: string, extra: Partial<Account> = {}): Account =>
  testAccount(uuid, { name, accountRole: 'OWNER', isOwner: true, ...extra });

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('de');
  // jsdom has no layout: report a wide, light screen so the side navigation is shown inline.
  window.matchMedia = (query: string) =>
    ({
      matches: query.includes('min-width'),
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
});

function renderShell(accounts: Account[], current: string) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.me, me);
  queryClient.setQueryData(queryKeys.myAccounts, accounts);
  setCurrentAccountUuid(current);
  const navigation = createNavigation({ history: createMemoryHistory({ initialEntries: ['/'] }) });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <PortalThemeProvider language="de" rowsPerPage="Zeilen pro Seite">
          <ConfirmProvider>
            <AppRouter navigation={navigation} rootError={() => null}>
              <AppShell>
                <h1>Seite</h1>
              </AppShell>
            </AppRouter>
          </ConfirmProvider>
        </PortalThemeProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('application shell', () => {
  it('shows the product, the current account with its role and the navigation for the role', async () => {
    renderShell([account('a1', 'Muster AG')], 'a1');
    await screen.findByRole('heading', { name: 'Seite' });
    expect(screen.getByText('Portal')).toBeTruthy();
    const switcher = screen.getByRole('button', { name: 'Konto wechseln' });
    expect(within(switcher).getByText('Muster AG')).toBeTruthy();
    expect(within(switcher).getByText('Inhaber')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Hauptnavigation' });
    expect(within(nav).getByRole('link', { name: 'Inhaberschaft' }).getAttribute('href')).toBe(
      '/settings/ownership',
    );
    expect(within(nav).getByRole('link', { name: 'Übersicht' }).getAttribute('aria-current')).toBe('page');
  });

  it('announces a scheduled deletion, with a cancel action for the owner only', async () => {
    const until = '2026-12-12T10:00:00Z';
    renderShell([account('a1', 'Muster AG', { availableUntil: until })], 'a1');
    // The bars load after the first paint, in a chunk of their own: slow on a busy machine.
    expect(await screen.findByText(DELETION_NOTICE, undefined, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Löschung abbrechen' })).toBeTruthy();
  });

  it('hides the cancel action from members who do not own the account', async () => {
    const until = '2026-12-12T10:00:00Z';
    renderShell(
      [account('a1', 'Muster AG', { availableUntil: until, accountRole: 'ADMIN', isOwner: false })],
      'a1',
    );
    await screen.findByText(DELETION_NOTICE, undefined, { timeout: 10_000 });
    expect(screen.queryByRole('button', { name: 'Löschung abbrechen' })).toBeNull();
    const nav = screen.getByRole('navigation', { name: 'Hauptnavigation' });
    expect(within(nav).queryByRole('link', { name: 'Inhaberschaft' })).toBeNull();
  });

  it(
    'works by keyboard: the skip link first, the menus open with Enter on their first item, Escape gives the focus back',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      renderShell([account('a1', 'Muster AG'), account('a2', 'Beispiel GmbH')], 'a1');
      await screen.findByRole('heading', { name: 'Seite' });
      await user.tab();
      expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Zum Inhalt springen' }));
      expect(document.activeElement?.getAttribute('href')).toBe('#main');

      const userMenu = screen.getByRole('button', { name: /^Benutzermenü von/ });
      userMenu.focus();
      await user.keyboard('{Enter}');
      // The menus load on first opening: slow on a busy machine.
      const profile = await screen.findByRole('menuitem', { name: 'Mein Profil' }, { timeout: 10_000 });
      await waitFor(() => expect(document.activeElement).toBe(profile));
      await user.keyboard('{ArrowDown}');
      expect(document.activeElement).toBe(screen.getByRole('menuitemradio', { name: 'Deutsch' }));
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      expect(document.activeElement).toBe(userMenu);

      const switcher = screen.getByRole('button', { name: 'Konto wechseln' });
      switcher.focus();
      await user.keyboard('{Enter}');
      await screen.findByRole('menu', {}, { timeout: 10_000 });
      await waitFor(() => expect(screen.getByRole('menu').contains(document.activeElement)).toBe(true));
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      expect(document.activeElement).toBe(switcher);
    },
  );
});
