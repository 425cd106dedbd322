import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { usersRoutes, type Account, type RouteDef } from '@portal/contract';
import { getStoredAccountUuids } from '@/api/account-storage.ts';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { queryKeys } from '@/api/session.ts';
import type * as SessionModule from '@/api/session.ts';
import { renderPage } from '@/testing/render.tsx';
import { testAccount, testUser } from '@/testing/fixtures.ts';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import DashboardPage from './dashboard-page.tsx';

// The user's accounts come from the session's query, as in the app; the server's list is `server`.
let server: Account[] = [];
let current: Account | null = null;
vi.mock('@/api/session.ts', async (original) => ({
  ...(await original<typeof SessionModule>()),
  useMe: () => testUser({ name: 'Aaron Agent', userRole: 'SUPPORT_AGENT' }),
  useCurrentAccount: () => current,
}));

mockApi();

function serve(accounts: Account[]) {
  server = accounts;
  apiRequest.mockImplementation(async (route: RouteDef, options?: { params?: { id: string } }) => {
    if (route === usersRoutes.listMyAccounts) return { data: server };
    const id = options?.params?.id;
    if (route === usersRoutes.acceptInvitation) {
      server = server.map((a) => (a.uuid === id ? { ...a, invitationStatus: 'ACCEPTED' as const } : a));
      return { data: server.find((a) => a.uuid === id) };
    }
    if (route === usersRoutes.declineInvitation) {
      server = server.filter((a) => a.uuid !== id);
      return { data: null };
    }
    return { data: null };
  });
}

function renderDashboard(accounts: Account[]) {
  serve(accounts);
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  queryClient.setQueryData(queryKeys.myAccounts, accounts);
  return renderPage(
    '/',
    <ConfirmProvider>
      <DashboardPage />
    </ConfirmProvider>,
    { queryClient },
  );
}

const MUSTER = testAccount('a1', { name: 'Muster AG' });
const BEISPIEL = testAccount('b1', { name: 'Beispiel GmbH', invitationStatus: 'PENDING' });
const ALPHA = testAccount('c1', { name: 'Alpha SA', invitationStatus: 'PENDING', accountRole: 'ADMIN' });

beforeEach(() => {
  apiRequest.mockReset();
  watchToasts();
  sessionStorage.clear();
  localStorage.clear();
});

describe('dashboard', () => {
  it('counts the user’s own accounts', async () => {
    current = MUSTER;
    await renderDashboard([MUSTER, testAccount('a2')]);
    expect(screen.getByText('Sie gehören zu 2 Konten.')).toBeTruthy();
  });

  it('tells staff in a customer’s account that they work there as support, not how many accounts they have', async () => {
    current = testAccount('c1', { name: 'Muster AG', accountRole: 'SUPPORT' });
    await renderDashboard([]);
    expect(screen.getByText(/Sie arbeiten als Support in diesem Konto\./)).toBeTruthy();
    expect(screen.queryByText(/Sie gehören zu/)).toBeNull();
  });
});

describe('open invitations on the dashboard', () => {
  const section = () => screen.getByRole('region', { name: /^Offene Einladung/ });
  // The card loads in a chunk of its own, only for a user with an open invitation (decision 255): imported here
  // first, as a browser that has fetched it, so the test does not wait on its transform.
  beforeAll(() => import('./open-invitations.tsx'));
  const shown = () => screen.findByRole('region', { name: /^Offene Einladung/ });

  it('lists every open invitation with its role, whichever account is selected', async () => {
    current = MUSTER;
    await renderDashboard([MUSTER, BEISPIEL, ALPHA]);
    expect(screen.getByText('Sie gehören zu 1 Konto.')).toBeTruthy();
    expect((await shown()).getAttribute('aria-labelledby')).toBe('dashboard-invitations');
    expect(screen.getByRole('heading', { name: 'Offene Einladungen' })).toBeTruthy();
    const items = within(section()).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Beispiel GmbHEingeladen als Mitarbeiter/),
      expect.stringMatching(/^Alpha SAEingeladen als Administrator/),
    ]);
    expect(within(section()).getByRole('button', { name: 'Einladung zu Alpha SA annehmen' })).toBeTruthy();
    expect(
      within(section()).getByRole('button', { name: 'Einladung zu Beispiel GmbH ablehnen' }),
    ).toBeTruthy();
  });

  it('shows no section when nothing is open', async () => {
    current = MUSTER;
    await renderDashboard([MUSTER]);
    expect(screen.queryByRole('region', { name: /Offene Einladung/ })).toBeNull();
  });

  it('accepts through the API and selects that account', async () => {
    const user = userEvent.setup();
    current = MUSTER;
    const { router } = await renderDashboard([MUSTER, BEISPIEL, ALPHA]);
    await user.click(within(await shown()).getByRole('button', { name: 'Einladung zu Alpha SA annehmen' }));
    await waitFor(() => expect(router.state.location.search).toBe('?uuid=c1'));
    expect(apiRequest).toHaveBeenCalledWith(usersRoutes.acceptInvitation, { params: { id: 'c1' } });
    expect(getStoredAccountUuids()).toEqual({ session: 'c1', local: 'c1' });
    expect(shownToasts('success')).toEqual(['Sie sind jetzt Mitglied von Alpha SA.']);
    expect(within(section()).getAllByRole('listitem')).toHaveLength(1);
  });

  it('declines after confirming, and the invitation leaves the list', async () => {
    const user = userEvent.setup();
    current = MUSTER;
    await renderDashboard([MUSTER, BEISPIEL, ALPHA]);
    await user.click(
      within(await shown()).getByRole('button', { name: 'Einladung zu Beispiel GmbH ablehnen' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Einladung ablehnen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    await waitFor(() => expect(screen.queryByText('Beispiel GmbH')).toBeNull());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(apiRequest).toHaveBeenCalledWith(usersRoutes.declineInvitation, { params: { id: 'b1' } });
    expect(shownToasts('success')).toEqual(['Die Einladung zu Beispiel GmbH wurde abgelehnt.']);
    expect(within(section()).getAllByRole('listitem')).toHaveLength(1);
    expect(getStoredAccountUuids()).toEqual({ session: null, local: null });
  });
});
