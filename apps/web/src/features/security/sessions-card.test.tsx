import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { securityRoutes, type SignInSession } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { renderPage } from '@/testing/render.tsx';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import { SessionsCard } from './sessions-card.tsx';

mockApi();
const logout = vi.fn();
vi.mock('@/auth/auth.ts', () => ({ logout: () => logout() }));

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const HERE: SignInSession = {
  id: 'here',
  browser: 'Chrome 131',
  system: 'macOS',
  clientAddress: '192.0.2.1',
  startedAt: minutesAgo(90),
  lastActiveAt: minutesAgo(0),
  current: true,
};
const PHONE: SignInSession = {
  id: 'phone',
  browser: 'Safari 17',
  system: 'iOS',
  clientAddress: '198.51.100.7',
  startedAt: minutesAgo(600),
  lastActiveAt: minutesAgo(5),
  current: false,
};

beforeEach(() => {
  apiRequest.mockReset();
  logout.mockReset();
});

function answer(sessions: SignInSession[]) {
  apiRequest.mockImplementation(async (route: unknown) => {
    if (route === securityRoutes.listSignInSessions) {
      return { data: sessions, meta: { total: sessions.length } };
    }
    if (route === securityRoutes.endOtherSignInSessions) return { data: { ended: 1 } };
    return null;
  });
}

async function renderCard() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return renderPage(
    '/settings/users',
    <PortalThemeProvider language="de" rowsPerPage="">
      <ConfirmProvider>
        <SessionsCard />
      </ConfirmProvider>
    </PortalThemeProvider>,
    { queryClient },
  );
}

const calls = (route: unknown) => apiRequest.mock.calls.filter(([called]) => called === route);

describe('SessionsCard', () => {
  it('lists the sessions with this one marked and signs another out after the confirmation', async () => {
    answer([HERE, PHONE]);
    await renderCard();
    const phoneRow = (await screen.findByText('Safari 17 · iOS')).closest('tr')!;
    expect(within(phoneRow).getByText('198.51.100.7')).toBeTruthy();
    expect(within(phoneRow).getAllByText('vor 5 Minuten').length).toBeGreaterThan(0);
    const hereRow = screen.getByText('Chrome 131 · macOS').closest('tr')!;
    expect(within(hereRow).getByText('Diese Sitzung')).toBeTruthy();
    expect(within(phoneRow).queryByText('Diese Sitzung')).toBeNull();

    await userEvent.click(within(phoneRow).getByRole('button', { name: 'Sitzung Safari 17 · iOS abmelden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sitzung abmelden?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Abmelden' }));
    await vi.waitFor(() => expect(calls(securityRoutes.endSignInSession)).toHaveLength(1));
    expect(calls(securityRoutes.endSignInSession)[0]![1]).toEqual({ params: { sessionId: 'phone' } });
    expect(logout).not.toHaveBeenCalled();
  });

  it('does nothing when the confirmation is cancelled', async () => {
    answer([HERE, PHONE]);
    await renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Sitzung Safari 17 · iOS abmelden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sitzung abmelden?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    expect(calls(securityRoutes.endSignInSession)).toHaveLength(0);
  });

  it('signs out everywhere else, offered only when there are other sessions', async () => {
    answer([HERE, PHONE]);
    await renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Überall sonst abmelden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Überall sonst abmelden?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Überall sonst abmelden' }));
    await vi.waitFor(() => expect(calls(securityRoutes.endOtherSignInSessions)).toHaveLength(1));
  });

  it('has no "everywhere else" with this session alone; signing this one out logs out here', async () => {
    answer([HERE]);
    await renderCard();
    const end = await screen.findByRole('button', { name: 'Diese Sitzung abmelden' });
    expect(screen.queryByRole('button', { name: 'Überall sonst abmelden' })).toBeNull();
    await userEvent.click(end);
    const dialog = await screen.findByRole('dialog', { name: 'Sitzung abmelden?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Abmelden' }));
    await vi.waitFor(() => expect(logout).toHaveBeenCalledOnce());
  });
});
