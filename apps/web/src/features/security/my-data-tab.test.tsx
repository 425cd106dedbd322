import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { myDataRoutes, type DataExportStatus, type LoginDeletionPreview } from '@portal/contract';
import { ApiError } from '@/api/errors.ts';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { renderPage } from '@/testing/render.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import { MyDataTab } from './my-data-tab.tsx';

mockApi();
const logout = vi.fn();
const reauthenticate = vi.fn();
vi.mock('@/auth/auth.ts', () => ({ logout: () => logout(), reauthenticate: () => reauthenticate() }));

const NOTHING: DataExportStatus = { latest: null, nextAllowedAt: null, provider: 'embedded' };
const MEMBER: LoginDeletionPreview = {
  provider: 'embedded',
  accountConsoleUrl: null,
  soleOwnerOf: [],
  memberships: [{ uuid: '6f1c2b1e-0002-4000-8000-000000000001', name: 'Muster AG', role: 'EMPLOYEE' }],
  email: 'employee@example.com',
};

beforeEach(() => {
  apiRequest.mockReset();
  logout.mockReset();
  reauthenticate.mockReset();
  sessionStorage.clear();
});

function answer(status: DataExportStatus, preview: LoginDeletionPreview, refuse?: ApiError) {
  apiRequest.mockImplementation(async (route: unknown) => {
    if (route === myDataRoutes.getDataExport) return { data: status };
    if (route === myDataRoutes.getLoginDeletion) return { data: preview };
    if (refuse) throw refuse;
    return null;
  });
}

async function renderTab() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return renderPage(
    '/settings/users',
    <PortalThemeProvider language="de" rowsPerPage="">
      <MyDataTab />
    </PortalThemeProvider>,
    { queryClient },
  );
}

const calls = (route: unknown) => apiRequest.mock.calls.filter(([called]) => called === route);

describe('MyDataTab', () => {
  it('asks the password before preparing the export and says when the next one is possible', async () => {
    answer(NOTHING, MEMBER);
    await renderTab();
    const card = (await screen.findByRole('heading', { name: 'Meine Daten herunterladen' })).closest(
      'section',
    )!;
    await userEvent.click(within(card).getByRole('button', { name: 'Daten zusammenstellen' }));
    expect(calls(myDataRoutes.requestDataExport)).toHaveLength(0);
    await userEvent.type(within(card).getByLabelText(/Aktuelles Passwort/), 'geheim');
    await userEvent.click(within(card).getByRole('button', { name: 'Daten zusammenstellen' }));
    await vi.waitFor(() => expect(calls(myDataRoutes.requestDataExport)).toHaveLength(1));
    expect(calls(myDataRoutes.requestDataExport)[0]![1]).toEqual({ body: { password: 'geheim' } });
  });

  it('with an external Keycloak signs in again instead of asking the password, then goes on', async () => {
    const external: DataExportStatus = { ...NOTHING, provider: 'external' };
    answer(external, MEMBER, new ApiError(403, 'Sign in again', 'REAUTHENTICATION_REQUIRED'));
    const view = await renderTab();
    const card = (await screen.findByRole('heading', { name: 'Meine Daten herunterladen' })).closest(
      'section',
    )!;
    expect(within(card).queryByLabelText(/Aktuelles Passwort/)).toBeNull();
    expect(within(card).getByText(/Zur Sicherheit melden Sie sich dafür erneut an/)).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Daten zusammenstellen' }));
    await vi.waitFor(() => expect(reauthenticate).toHaveBeenCalledTimes(1));
    expect(calls(myDataRoutes.requestDataExport)[0]![1]).toEqual({ body: {} });
    view.unmount();
    // Back from the sign-in, the request goes on by itself, once.
    apiRequest.mockReset();
    answer(external, MEMBER);
    await renderTab();
    await vi.waitFor(() => expect(calls(myDataRoutes.requestDataExport)).toHaveLength(1));
    expect(calls(myDataRoutes.requestDataExport)[0]![1]).toEqual({ body: {} });
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(sessionStorage.length).toBe(0);
  });

  it('offers a ready export for download and no second one the same day', async () => {
    const ready: DataExportStatus = {
      provider: 'embedded',
      nextAllowedAt: '2026-11-28T09:00:00.000Z',
      latest: {
        uuid: '6f1c2b1e-0031-4000-8000-000000000001',
        state: 'ready',
        requestedAt: '2026-11-27T09:00:00.000Z',
        readyAt: '2026-11-27T09:00:05.000Z',
        expiresAt: '2026-12-04T09:00:05.000Z',
      },
    };
    answer(ready, MEMBER);
    await renderTab();
    expect(
      await screen.findByText('Ihre Daten stehen bis am 4. Dezember 2026 zum Download bereit.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'ZIP herunterladen' })).toBeTruthy();
    expect(screen.getByText(/Eine neue Zusammenstellung ist ab .* möglich/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Daten zusammenstellen' })).toBeNull();
  });

  it('refuses the only owner and leads to the ownership transfer of that account', async () => {
    answer(NOTHING, {
      ...MEMBER,
      soleOwnerOf: [{ uuid: MEMBER.memberships[0]!.uuid, name: 'Muster AG' }],
      memberships: [{ ...MEMBER.memberships[0]!, role: 'OWNER' }],
    });
    await renderTab();
    expect(await screen.findByText(/Sie sind Inhaber\/in von «Muster AG»/)).toBeTruthy();
    const transfer = screen.getByRole('link', { name: 'Inhaberschaft übertragen' });
    expect(transfer.getAttribute('href')).toBe(`/settings/ownership?uuid=${MEMBER.memberships[0]!.uuid}`);
    expect(screen.queryByRole('button', { name: 'Login endgültig löschen' })).toBeNull();
  });

  it('deletes the login only with the password and the address typed again, then signs out', async () => {
    answer(NOTHING, MEMBER);
    await renderTab();
    const card = (await screen.findByRole('heading', { name: 'Login löschen' })).closest('section')!;
    expect(within(card).getByText(/endet Ihre Mitgliedschaft in «Muster AG»/)).toBeTruthy();
    expect(within(card).getByText(/«Gelöschte Person»/)).toBeTruthy();
    await userEvent.type(within(card).getByLabelText(/Aktuelles Passwort/), 'geheim');
    await userEvent.type(within(card).getByLabelText(/^E-Mail-Adresse/), 'jemand@example.com');
    await userEvent.click(within(card).getByRole('button', { name: 'Login endgültig löschen' }));
    expect(await within(card).findByText('Die Eingabe entspricht nicht Ihrer E-Mail-Adresse.')).toBeTruthy();
    expect(calls(myDataRoutes.deleteLogin)).toHaveLength(0);

    const confirmation = within(card).getByLabelText(/^E-Mail-Adresse/);
    await userEvent.clear(confirmation);
    await userEvent.type(confirmation, 'employee@example.com');
    await userEvent.click(within(card).getByRole('button', { name: 'Login endgültig löschen' }));
    await vi.waitFor(() => expect(logout).toHaveBeenCalledOnce());
    expect(calls(myDataRoutes.deleteLogin)[0]![1]).toEqual({
      body: { password: 'geheim', confirmation: 'employee@example.com' },
    });
  });

  it('shows a wrong password on its field', async () => {
    answer(NOTHING, MEMBER, new ApiError(422, 'wrong', 'INVALID', { password: 'wrongPassword' }));
    await renderTab();
    const card = (await screen.findByRole('heading', { name: 'Login löschen' })).closest('section')!;
    await userEvent.type(within(card).getByLabelText(/Aktuelles Passwort/), 'falsch');
    await userEvent.type(within(card).getByLabelText(/^E-Mail-Adresse/), 'employee@example.com');
    await userEvent.click(within(card).getByRole('button', { name: 'Login endgültig löschen' }));
    expect(await within(card).findByText('Das Passwort ist nicht korrekt.')).toBeTruthy();
    expect(logout).not.toHaveBeenCalled();
  });
});
