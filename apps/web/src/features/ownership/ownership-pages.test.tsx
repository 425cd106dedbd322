import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { ownershipRoutes, type Ownership, type OwnershipTransfer, type RouteDef } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';
import { testAccount, testUser } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import OwnershipPage from './ownership-page.tsx';
import TransferOwnershipPage from './transfer-ownership-page.tsx';

mockApi();

const OLIVIA = { uuid: 'u1', name: 'Olivia Owner', email: 'owner@example.com' };
const ADRIAN = { uuid: 'u2', name: 'Adrian Admin', email: 'admin@example.com' };
const PENDING: OwnershipTransfer = {
  uuid: 't1',
  accountUuid: 'a1',
  accountName: 'Muster AG',
  status: 'PENDING',
  from: OLIVIA,
  to: ADRIAN,
  createdAt: '2026-11-20T10:00:00Z',
  expiresAt: '2026-11-27T10:00:00Z',
  decidedAt: null,
};

function ownership(pendingTransfer: OwnershipTransfer | null = null): Ownership {
  return { accountName: 'Muster AG', owner: OLIVIA, ownerSince: '2025-10-18T08:00:00Z', pendingTransfer };
}

/** Answers each route of the area; `answers` may replace one with a value or an error. */
function serve(answers: Map<RouteDef, unknown>) {
  apiRequest.mockImplementation(async (route: RouteDef) => {
    const answer = answers.get(route);
    if (answer instanceof Error) throw answer;
    return answer;
  });
}

async function renderAsOwner(path: string, page: React.ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  const account = testAccount('a1', { name: 'Muster AG', accountRole: 'OWNER', isOwner: true });
  queryClient.setQueryData(queryKeys.me, testUser());
  queryClient.setQueryData(queryKeys.myAccounts, [account]);
  setCurrentAccountUuid('a1');
  return renderPage(path, <ConfirmProvider>{page}</ConfirmProvider>, { queryClient });
}

beforeEach(() => {
  apiRequest.mockReset();
  watchToasts();
});

describe('ownership page', () => {
  it('shows the owner, what ownership means, and the way to transfer it', async () => {
    serve(new Map([[ownershipRoutes.getOwnership, { data: ownership() }]]));
    await renderAsOwner('/settings/ownership', <OwnershipPage />);
    expect(await screen.findByText('Olivia Owner')).toBeTruthy();
    expect(screen.getByText(/Inhaber seit 18\. Oktober 2025\. Das sind Sie\./)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Was Inhaberschaft bedeutet' })).toBeTruthy();
    expect(screen.getByText('Abrechnung')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Inhaberschaft übertragen' }).getAttribute('href')).toBe(
      '/settings/ownership/transfer',
    );
  });

  it('shows a pending transfer, which the owner can cancel after confirming', async () => {
    const user = userEvent.setup();
    serve(
      new Map<RouteDef, unknown>([
        [ownershipRoutes.getOwnership, { data: ownership(PENDING) }],
        [ownershipRoutes.cancelTransfer, { data: { ...PENDING, status: 'CANCELLED' } }],
      ]),
    );
    await renderAsOwner('/settings/ownership', <OwnershipPage />);
    expect(
      await screen.findByText(/Sie haben die Inhaberschaft Adrian Admin \(admin@example\.com\) angeboten/),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Inhaberschaft übertragen' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Übertragung abbrechen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Übertragung abbrechen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Übertragung abbrechen' }));
    await waitFor(() => expect(shownToasts('success')).toEqual(['Die Übertragung wurde abgebrochen.']));
    expect(apiRequest).toHaveBeenCalledWith(ownershipRoutes.cancelTransfer, {
      accountUuid: 'a1',
      params: { id: 't1' },
    });
  });

  it('says so when the user is no longer the owner (403), without the server’s English text', async () => {
    serve(
      new Map([
        [
          ownershipRoutes.getOwnership,
          new ApiError(403, 'Only the owner can see the ownership', 'FORBIDDEN'),
        ],
      ]),
    );
    await renderAsOwner('/settings/ownership', <OwnershipPage />);
    expect(await screen.findByText('Sie sind nicht mehr Inhaber dieses Kontos.')).toBeTruthy();
    expect(shownToasts('error')).toEqual([]);
  });
});

describe('transfer page', () => {
  const candidates = { data: [ADRIAN], meta: { total: 1, page: 1, pageSize: 50 } };

  it('refuses a wrong account name on the field and sends nothing', async () => {
    const user = userEvent.setup();
    serve(
      new Map<RouteDef, unknown>([
        [ownershipRoutes.getOwnership, { data: ownership() }],
        [ownershipRoutes.listTransferCandidates, candidates],
      ]),
    );
    await renderAsOwner('/settings/ownership/transfer', <TransferOwnershipPage />);
    await user.click(await screen.findByRole('combobox', { name: /Neuer Inhaber/ }));
    await user.click(await screen.findByRole('option', { name: 'Adrian Admin (admin@example.com)' }));
    await user.type(screen.getByRole('textbox', { name: /Kontoname zur Bestätigung/ }), 'Muster');
    await user.click(screen.getByRole('button', { name: 'Übertragung anbieten' }));
    expect(
      await screen.findByText('Der eingegebene Name stimmt nicht mit dem Kontonamen überein.'),
    ).toBeTruthy();
    expect(apiRequest).not.toHaveBeenCalledWith(ownershipRoutes.startTransfer, expect.anything());
  });

  it('offers the transfer to the chosen admin and returns to the ownership page', async () => {
    const user = userEvent.setup();
    serve(
      new Map<RouteDef, unknown>([
        [ownershipRoutes.getOwnership, { data: ownership() }],
        [ownershipRoutes.listTransferCandidates, candidates],
        [ownershipRoutes.startTransfer, { data: PENDING }],
      ]),
    );
    await renderAsOwner('/settings/ownership/transfer', <TransferOwnershipPage />);
    await user.click(await screen.findByRole('combobox', { name: /Neuer Inhaber/ }));
    await user.click(await screen.findByRole('option', { name: 'Adrian Admin (admin@example.com)' }));
    await user.type(screen.getByRole('textbox', { name: /Kontoname zur Bestätigung/ }), ' muster ag ');
    await user.click(screen.getByRole('button', { name: 'Übertragung anbieten' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/settings/ownership'));
    expect(apiRequest).toHaveBeenCalledWith(ownershipRoutes.startTransfer, {
      accountUuid: 'a1',
      body: { toUserUuid: 'u2', confirmAccountName: 'muster ag' },
    });
    expect(shownToasts('success')).toEqual([
      'Adrian Admin erhält eine E-Mail und kann die Übertragung jetzt annehmen.',
    ]);
  });

  it.each([
    ['is not an admin of this account', 'Diese Person ist kein Administrator dieses Kontos.'],
    // Only an admin with a verified address can be offered the account (decision 193).
    ['emailNotVerified', 'Diese Person hat ihre E-Mail-Adresse noch nicht bestätigt.'],
  ])('puts the server’s refusal of the target (%s) on the field, in German', async (reason, text) => {
    const user = userEvent.setup();
    serve(
      new Map<RouteDef, unknown>([
        [ownershipRoutes.getOwnership, { data: ownership() }],
        [ownershipRoutes.listTransferCandidates, candidates],
        [
          ownershipRoutes.startTransfer,
          new ApiError(422, `toUserUuid ${reason}`, 'VALIDATION_FAILED', { toUserUuid: reason }),
        ],
      ]),
    );
    await renderAsOwner('/settings/ownership/transfer', <TransferOwnershipPage />);
    await user.click(await screen.findByRole('combobox', { name: /Neuer Inhaber/ }));
    await user.click(await screen.findByRole('option', { name: 'Adrian Admin (admin@example.com)' }));
    await user.type(screen.getByRole('textbox', { name: /Kontoname zur Bestätigung/ }), 'Muster AG');
    await user.click(screen.getByRole('button', { name: 'Übertragung anbieten' }));
    expect(await screen.findByText(text)).toBeTruthy();
    expect(shownToasts('error')).toEqual(['1 Feld ist nicht korrekt']);
  });

  it('sends an owner without admins to the user management first', async () => {
    serve(
      new Map<RouteDef, unknown>([
        [ownershipRoutes.getOwnership, { data: ownership() }],
        [ownershipRoutes.listTransferCandidates, { data: [], meta: { total: 0, page: 1, pageSize: 50 } }],
      ]),
    );
    await renderAsOwner('/settings/ownership/transfer', <TransferOwnershipPage />);
    expect(await screen.findByText('Noch keine Administratoren')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zur Benutzerverwaltung' }).getAttribute('href')).toBe(
      '/settings/user-management',
    );
  });

  it('shows a pending transfer instead of the form', async () => {
    serve(new Map([[ownershipRoutes.getOwnership, { data: ownership(PENDING) }]]));
    await renderAsOwner('/settings/ownership/transfer', <TransferOwnershipPage />);
    expect(await screen.findByText('Es ist bereits eine Übertragung ausstehend')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Übertragung anbieten' })).toBeNull();
  });
});
