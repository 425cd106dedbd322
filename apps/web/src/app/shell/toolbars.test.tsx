import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { accountsRoutes, type Account } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { createQueryClient } from '@/api/query-client.ts';
import { queryKeys } from '@/api/session.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { toast } from '@/ui/toast-store.ts';
import { AccountDeletionBar } from './toolbars.tsx';

mockApi();
const confirm = vi.fn(async () => true);
vi.mock('@/ui/confirm.tsx', () => ({ useConfirm: () => confirm }));

const scheduled = testAccount('2b7c9e14-8f0a-4d55-b1e3-6a9f2c4d8e70', {
  name: 'Muster AG',
  accountRole: 'OWNER',
  isOwner: true,
  availableUntil: '2026-12-12T10:00:00Z',
});

// The app's own query client: errors are toasted by its mutation cache, as in the running app.
function render(element: ReactElement, accounts: Account[]) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.myAccounts, accounts);
  return renderPage('/somewhere', element, { queryClient });
}

beforeEach(() => {
  apiRequest.mockReset();
  confirm.mockClear();
  sessionStorage.clear();
  localStorage.clear();
  watchToasts();
});

describe('account deletion bar', () => {
  it('cancels the deletion after confirmation and updates the cached account', async () => {
    const user = userEvent.setup();
    const kept = { ...scheduled, availableUntil: null };
    apiRequest.mockResolvedValue({ data: kept });
    const { queryClient } = await render(<AccountDeletionBar account={scheduled} />, [scheduled]);
    await user.click(await screen.findByRole('button', { name: 'Löschung abbrechen' }));
    await waitFor(() => expect(shownToasts('success')).toContain('Die Löschung wurde abgebrochen.'));
    expect(apiRequest).toHaveBeenCalledWith(accountsRoutes.updateAccount, {
      params: { id: scheduled.uuid },
      body: { availableUntil: null },
    });
    expect(queryClient.getQueryData(queryKeys.account(scheduled.uuid))).toEqual(kept);
  });

  it('shows a failure as the query client’s error toast and lets the owner try again', async () => {
    const user = userEvent.setup();
    apiRequest.mockRejectedValue(new ApiError(500, 'Server down', 'INTERNAL'));
    await render(<AccountDeletionBar account={scheduled} />, [scheduled]);
    const button = (await screen.findByRole('button', { name: 'Löschung abbrechen' })) as HTMLButtonElement;
    await user.click(button);
    await waitFor(() => expect(shownToasts('error')).toContain('Server down'));
    expect(toast.success).not.toHaveBeenCalled();
    await waitFor(() => expect(button.disabled).toBe(false));
  });
});
