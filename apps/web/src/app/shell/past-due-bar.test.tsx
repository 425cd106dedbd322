import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { billingRoutes, type Account, type BillingStatus } from '@portal/contract';
import { storeAccountUuid } from '@/api/account-storage.ts';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { createQueryClient } from '@/api/query-client.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { PastDueBar } from './toolbars.tsx';

mockApi();

const PAST_DUE: BillingStatus = {
  pastDue: { since: '2026-10-15', invoices: 1, amounts: [{ currency: 'EUR', amountMinor: 5890 }] },
};

async function render(account: Account, status: BillingStatus = PAST_DUE, lng: 'de' | 'fr' = 'de') {
  storeAccountUuid(account.uuid);
  apiRequest.mockResolvedValue({ data: status });
  const queryClient = createQueryClient();
  return renderPage('/somewhere', <PastDueBar account={account} />, { queryClient, lng });
}

const beispiel = (extra: Partial<Account>) =>
  testAccount('b1', { name: 'Beispiel GmbH', country: 'DE', ...extra });

beforeEach(() => {
  apiRequest.mockReset();
  sessionStorage.clear();
});

describe('past-due bar', () => {
  it('shows an owner the overdue amount as Swiss customers read it and links to the billing page', async () => {
    await render(beispiel({ accountRole: 'OWNER', isOwner: true }), PAST_DUE, 'fr');
    expect(
      await screen.findByText('Une facture est en retard : EUR 58.90 ouverts depuis le 15 octobre 2026.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Voir les factures' }).getAttribute('href')).toBe('/billing');
    expect(apiRequest).toHaveBeenCalledTimes(1);
    expect(apiRequest).toHaveBeenCalledWith(billingRoutes.getBillingStatus, expect.anything());
  });

  it('says nothing while the account is not past due', async () => {
    const { container } = await render(beispiel({ accountRole: 'ADMIN' }), { pastDue: null });
    await waitFor(() => expect(apiRequest).toHaveBeenCalledTimes(1));
    expect(container.textContent).toBe('');
  });

  it('asks nothing for an employee, who may not see the billing', async () => {
    // An enabled query would have asked while mounting, as the admin's bar above does.
    const { container } = await render(beispiel({ accountRole: 'EMPLOYEE' }));
    expect(apiRequest).not.toHaveBeenCalled();
    expect(container.textContent).toBe('');
  });
});
