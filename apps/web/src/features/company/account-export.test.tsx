import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import type { DataExportStatus } from '@portal/contract';
import { accountExportRoutes } from '@portal/contract/account-export';
import { ApiError } from '@/api/errors.ts';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { renderPage } from '@/testing/render.tsx';
import AccountExport from './account-export.tsx';

mockApi();
const reauthenticate = vi.fn();
vi.mock('@/auth/auth.ts', () => ({ reauthenticate: () => reauthenticate() }));

const EXTERNAL: DataExportStatus = { latest: null, nextAllowedAt: null, provider: 'external' };
const calls = () =>
  apiRequest.mock.calls.filter(([route]) => route === accountExportRoutes.requestAccountExport);

beforeEach(() => {
  reauthenticate.mockReset();
  sessionStorage.clear();
});

function answer(refuse?: ApiError) {
  apiRequest.mockImplementation(async (route: unknown) => {
    if (route === accountExportRoutes.getAccountExport) return { data: EXTERNAL };
    if (refuse) throw refuse;
    return { data: null };
  });
}

async function renderCard(account: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const view = await renderPage('/settings/company-profile', <AccountExport account={account} />, {
    queryClient,
  });
  const form = await screen.findByRole('form', { name: 'Kontodaten exportieren' });
  return { view, form };
}

describe('AccountExport', () => {
  it('with an external Keycloak signs in again instead of asking the password, then goes on for that account', async () => {
    answer(new ApiError(403, 'Sign in again', 'REAUTHENTICATION_REQUIRED'));
    const first = await renderCard('a1');
    expect(within(first.form).queryByLabelText(/Ihr aktuelles Passwort/)).toBeNull();
    expect(within(first.form).getByText(/Zur Sicherheit melden Sie sich dafür erneut an/)).toBeTruthy();
    await userEvent.click(within(first.form).getByRole('button', { name: 'Kontodaten zusammenstellen' }));
    await vi.waitFor(() => expect(reauthenticate).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).toBeNull();
    first.view.unmount();

    // Back on another account's page, nothing goes on; back on the same account's, the request goes on, once.
    apiRequest.mockReset();
    answer();
    const other = await renderCard('a2');
    expect(calls()).toHaveLength(0);
    other.view.unmount();
    await renderCard('a1');
    await vi.waitFor(() => expect(calls()).toHaveLength(1));
    expect(calls()[0]![1]).toEqual({ accountUuid: 'a1', body: {} });
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(sessionStorage.length).toBe(0);
  });
});
