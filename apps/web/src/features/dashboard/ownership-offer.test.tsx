import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ownershipRoutes, type OwnershipTransfer, type RouteDef } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { renderPage } from '@/testing/render.tsx';
import { shownToasts, watchToasts } from '@/testing/toasts.ts';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { OwnershipOffer } from './ownership-offer.tsx';

mockApi();

const TRANSFER: OwnershipTransfer = {
  uuid: 't1',
  accountUuid: 'a1',
  accountName: 'Muster AG',
  status: 'PENDING',
  from: { uuid: 'u1', name: 'Olivia Owner', email: 'owner@example.com' },
  to: { uuid: 'u2', name: 'Adrian Admin', email: 'admin@example.com' },
  createdAt: '2026-11-20T10:00:00Z',
  expiresAt: '2026-11-27T10:00:00Z',
  decidedAt: null,
};

function serve(answer: (route: RouteDef) => unknown) {
  apiRequest.mockImplementation(async (route: RouteDef) => {
    if (route === ownershipRoutes.getMyPendingTransfer) return { data: TRANSFER };
    const value = answer(route);
    if (value instanceof Error) throw value;
    return value;
  });
}

const renderOffer = (userUuid: string) =>
  renderPage(
    '/',
    <ConfirmProvider>
      <OwnershipOffer account="a1" userUuid={userUuid} />
    </ConfirmProvider>,
  );

beforeEach(() => {
  apiRequest.mockReset();
  watchToasts();
});

describe('ownership offer on the dashboard', () => {
  it('lets the chosen admin accept after confirming what it means', async () => {
    const user = userEvent.setup();
    serve(() => ({ data: { ...TRANSFER, status: 'ACCEPTED' } }));
    await renderOffer('u2');
    expect(
      await screen.findByRole('heading', { name: 'Inhaberschaft von Muster AG übernehmen?' }),
    ).toBeTruthy();
    expect(screen.getByText(/Olivia Owner wird Administrator/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Inhaberschaft annehmen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Inhaberschaft annehmen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Inhaberschaft annehmen' }));
    await waitFor(() => expect(shownToasts('success')).toEqual(['Sie sind jetzt Inhaber von Muster AG.']));
    expect(apiRequest).toHaveBeenCalledWith(ownershipRoutes.acceptTransfer, {
      accountUuid: 'a1',
      params: { id: 't1' },
    });
  });

  it('explains an expired transfer in German', async () => {
    const user = userEvent.setup();
    serve(() => new ApiError(409, 'The transfer has expired', 'CONFLICT'));
    await renderOffer('u2');
    await user.click(await screen.findByRole('button', { name: 'Ablehnen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Übertragung ablehnen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    await waitFor(() => expect(shownToasts('error')).toEqual(['Die Übertragung ist abgelaufen.']));
  });

  it('reminds the owner of the open offer and shows nothing to anyone else', async () => {
    serve(() => undefined);
    const owner = await renderOffer('u1');
    expect(await screen.findByText(/Sie haben die Inhaberschaft Adrian Admin angeboten/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Inhaberschaft annehmen' })).toBeNull();
    owner.unmount();
    await renderOffer('u3');
    await waitFor(() => expect(apiRequest).toHaveBeenCalledTimes(2));
    expect(screen.queryByText(/Inhaberschaft/)).toBeNull();
  });
});
