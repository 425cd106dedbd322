import { beforeEach, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { abaclikRoutes, type AbaclikDevice, type RouteDef } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { createQueryClient } from '@/api/query-client.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';
import { testAccount } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import AbaclikPage from './abaclik-page.tsx';

mockApi();

const device = (uuid: string, extra: Partial<AbaclikDevice> = {}): AbaclikDevice => ({
  uuid,
  name: `Phone ${uuid}`,
  platform: 'ANDROID',
  appVersion: '3.4.1',
  person: { uuid: 'u1', name: 'Emma Employee', email: 'emma@example.com' },
  pairedAt: '2026-11-01T08:00:00.000Z',
  lastSeenAt: '2026-11-23T07:30:00.000Z',
  isOwn: true,
  ...extra,
});

let codeStatus: 'OPEN' | 'USED' = 'OPEN';

beforeEach(() => {
  codeStatus = 'OPEN';
  apiRequest.mockReset();
  apiRequest.mockImplementation(async (route: RouteDef, input: { query?: { scope?: string } }) => {
    if (route === abaclikRoutes.listAbaclikDevices) {
      const all = input.query?.scope === 'all';
      const data = all
        ? [
            device('d1'),
            device('d2', { isOwn: false, person: { uuid: 'u2', name: 'Adrian Admin', email: 'a@x.ch' } }),
          ]
        : [device('d1')];
      return { data, meta: { total: data.length, page: 1, pageSize: 25 } };
    }
    if (route === abaclikRoutes.createAbaclikActivationCode) {
      return {
        data: {
          uuid: 'c1',
          code: 'ABCD-EFGH',
          expiresAt: new Date(Date.now() + 600_000).toISOString(),
          pairingUri: 'abaclik://pair?server=x&code=ABCD-EFGH',
          qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
        },
      };
    }
    if (route === abaclikRoutes.getAbaclikActivationCode) {
      return {
        data: {
          uuid: 'c1',
          status: codeStatus,
          expiresAt: new Date(Date.now() + 600_000).toISOString(),
          device: codeStatus === 'USED' ? device('d9', { name: 'Neues Handy' }) : null,
        },
      };
    }
    if (route === abaclikRoutes.revokeAbaclikDevice) return undefined;
    throw new Error(`unexpected ${route.path}`);
  });
  setCurrentAccountUuid('a1');
});

async function render(accountRole: 'EMPLOYEE' | 'ADMIN' | 'SUPPORT') {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  queryClient.setQueryData(queryKeys.myAccounts, [testAccount('a1', { accountRole })]);
  await renderPage(
    '/abaclik',
    <ConfirmProvider>
      <AbaclikPage />
    </ConfirmProvider>,
    { queryClient },
  );
  await screen.findByRole('heading', { level: 1, name: 'AbaClik' });
}

it('shows a member their own devices only, without the choice of every member’s', async () => {
  await render('EMPLOYEE');
  const table = await screen.findByRole('table', { name: 'Meine Geräte' });
  expect(within(table).getByText('Phone d1')).toBeTruthy();
  expect(within(table).queryByText('Person')).toBeNull();
  expect(screen.queryByRole('tab')).toBeNull();
  expect(apiRequest).toHaveBeenCalledWith(
    abaclikRoutes.listAbaclikDevices,
    expect.objectContaining({ accountUuid: 'a1', query: expect.objectContaining({ scope: 'mine' }) }),
  );
});

it('lets an admin switch to every member’s devices, with the person', async () => {
  await render('ADMIN');
  await userEvent.click(await screen.findByRole('tab', { name: 'Alle Geräte' }));
  const table = await screen.findByRole('table', { name: 'Alle Geräte' });
  expect(within(table).getByText('Adrian Admin')).toBeTruthy();
  expect(within(table).getByText('Emma Employee (Sie)')).toBeTruthy();
});

it('revokes a device only after the confirmation', async () => {
  const user = userEvent.setup();
  await render('EMPLOYEE');
  await user.click(await screen.findByRole('button', { name: '«Phone d1» entkoppeln' }));
  const dialog = await screen.findByRole('dialog', { name: 'Gerät entkoppeln?' });
  expect(apiRequest).not.toHaveBeenCalledWith(abaclikRoutes.revokeAbaclikDevice, expect.anything());
  await user.click(within(dialog).getByRole('button', { name: 'Entkoppeln' }));
  await waitFor(() =>
    expect(apiRequest).toHaveBeenCalledWith(abaclikRoutes.revokeAbaclikDevice, {
      accountUuid: 'a1',
      params: { uuid: 'd1' },
    }),
  );
});

it('shows the code with its QR code and countdown, waits for the app, then says it is paired', async () => {
  const user = userEvent.setup();
  await render('EMPLOYEE');
  await user.click(screen.getByRole('button', { name: 'Gerät koppeln' }));
  const dialog = await screen.findByRole('dialog', { name: 'Smartphone mit AbaClik koppeln' });
  expect(await within(dialog).findByText('ABCD-EFGH')).toBeTruthy();
  expect(within(dialog).getByRole('img', { name: 'QR-Code zum Koppeln mit AbaClik' })).toBeTruthy();
  expect(within(dialog).getByRole('timer').textContent).toMatch(/Noch (10:00|9:5\d) Minuten gültig/);
  expect(within(dialog).getByText('Warten auf die App …')).toBeTruthy();
  codeStatus = 'USED';
  expect(
    await within(dialog).findByText(/«Neues Handy» ist jetzt gekoppelt/, {}, { timeout: 5000 }),
  ).toBeTruthy();
});

it('shows staff every member’s devices and no pairing of their own', async () => {
  await render('SUPPORT');
  expect(await screen.findByRole('table', { name: 'Alle Geräte' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Gerät koppeln' })).toBeNull();
});
