import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { peppershopRoutes, type ShopState } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { accountQueryClient } from '@/testing/account-query-client.ts';
import { testAccount, testShopState } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { watchToasts } from '@/testing/toasts.ts';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import ShopConfigPage from './shop-config-page.tsx';

mockApi();

const CONNECTED = testShopState({
  nextSyncAt: '2026-11-23T16:00:00Z',
  lastSync: {
    status: 'FAILED',
    startedAt: '2026-11-23T09:00:00Z',
    finishedAt: '2026-11-23T09:00:05Z',
    error: 'TIMEOUT',
    counts: { products: 1234, orders: 0, customers: 0 },
  },
  records: { products: 1234, orders: 56, customers: 0 },
});
beforeEach(() => {
  apiRequest.mockReset();
  watchToasts();
});

async function renderShop(state: ShopState) {
  const queryClient = accountQueryClient(testAccount('a1', { name: 'Muster AG', accountRole: 'ADMIN' }));
  apiRequest.mockImplementation((route) =>
    route === peppershopRoutes.getShopState
      ? Promise.resolve({ data: state })
      : Promise.reject(new Error('unexpected')),
  );
  await renderPage(
    '/peppershop/config',
    <ConfirmProvider>
      <ShopConfigPage />
    </ConfirmProvider>,
    { queryClient },
  );
  await screen.findByRole('textbox', { name: /^Shop-Adresse/ });
}

const url = () => screen.getByRole('textbox', { name: /^Shop-Adresse/ });

describe('shop configuration page', () => {
  it(
    'shows the stored key only as its last four, the last sync with its error, and the counts',
    { timeout: 30_000 },
    async () => {
      await renderShop(CONNECTED);
      expect(url()).toHaveProperty('value', 'https://shop.muster.ch');
      expect(screen.getByText('Gespeichert: ••••7421. Leer lassen, um ihn zu behalten.')).toBeTruthy();
      expect(screen.getByText('Fehlgeschlagen')).toBeTruthy();
      expect(screen.getByText('Der Shop hat nicht innert 5 Sekunden geantwortet.')).toBeTruthy();
      expect(screen.getByTestId('shop-products').textContent).toBe("1'234");
      expect(screen.getByRole('checkbox', { name: 'Kunden' })).toHaveProperty('checked', false);
    },
  );

  it(
    'refuses http outside demo mode on the field before asking the server; a new shop needs a key',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      await renderShop({ allowsLocalShops: false, connection: null });
      await user.type(url(), 'http://shop.muster.ch');
      await user.click(screen.getByRole('button', { name: 'Speichern' }));
      expect(await screen.findByText('Die Adresse muss mit https:// beginnen.')).toBeTruthy();
      expect(screen.getByText('Bitte geben Sie den API-Schlüssel ein.')).toBeTruthy();
      expect(apiRequest).toHaveBeenCalledTimes(1);
    },
  );

  it(
    'tests the entered address (the stored key when the field is empty) and shows the result in words',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      await renderShop(CONNECTED);
      apiRequest.mockResolvedValueOnce({ data: { result: 'WRONG_KEY', shopName: null } });
      await user.click(screen.getByRole('button', { name: 'Verbindung testen' }));
      expect((await screen.findByTestId('shop-test-result')).textContent).toBe(
        'Der Shop hat den API-Schlüssel abgelehnt. Prüfen Sie den Schlüssel.',
      );
      expect(apiRequest).toHaveBeenLastCalledWith(peppershopRoutes.testShopConnection, {
        accountUuid: 'a1',
        body: { url: 'https://shop.muster.ch', apiKey: '' },
      });
    },
  );

  it(
    'asks for the key again for another host, and puts the server field error on the address field',
    { timeout: 30_000 },
    async () => {
      const user = userEvent.setup();
      await renderShop(CONNECTED);
      await user.clear(url());
      await user.type(url(), 'https://10.0.0.5');
      // Another host: the stored key is not sent there, the key must be entered again.
      await user.click(screen.getByRole('button', { name: 'Speichern' }));
      expect(
        await screen.findByText('Für eine neue Shop-Adresse geben Sie den API-Schlüssel bitte erneut ein.'),
      ).toBeTruthy();
      expect(apiRequest).toHaveBeenCalledTimes(1);
      await user.type(screen.getByLabelText(/^API-Schlüssel/), 'a-new-key-1234');
      apiRequest.mockRejectedValueOnce(
        new ApiError(422, 'invalid', 'VALIDATION_FAILED', { url: 'peppershop.errors.urlAddress' }),
      );
      await user.click(screen.getByRole('button', { name: 'Speichern' }));
      expect(
        await screen.findByText('Diese Adresse führt in ein internes Netz und ist nicht erlaubt.'),
      ).toBeTruthy();
      await waitFor(() => expect(url().getAttribute('aria-invalid')).toBe('true'));
    },
  );
});
