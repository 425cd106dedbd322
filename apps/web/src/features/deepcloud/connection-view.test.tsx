import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import {
  deepcloudRoutes,
  type AccountRole,
  type CloudConnection,
  type CloudState,
  type RouteDef,
} from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { ApiError } from '@/api/errors.ts';
import { queryKeys, setCurrentAccountUuid } from '@/api/session.ts';
import { testAccount, testUser } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { watchToasts } from '@/testing/toasts.ts';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { CloudConnectionView } from './connection-view.tsx';

mockApi();
const startCloudConnect = vi.fn();
vi.mock('./connect-state.ts', () => ({
  startCloudConnect: (...args: unknown[]) => startCloudConnect(...args),
}));

const AUTHORIZATION = {
  authorizationEndpoint: 'https://cloud.example/auth',
  clientId: 'portal',
  scope: 'openid organizations',
  redirectUri: 'https://portal.example/deepcloud/connect',
};
const CONNECTION: CloudConnection = {
  uuid: 'c0ffee00-0000-4000-8000-000000000001',
  status: 'CONNECTED',
  connectedBy: { uuid: 'u1', name: 'Olivia Owner' },
  connectedAt: '2026-11-20T10:00:00Z',
  cloudUser: { subject: 'sub-1', name: 'Olivia Cloud', email: 'olivia@cloud.example' },
  scopes: ['openid', 'organizations'],
  refreshedAt: '2026-11-22T08:30:00Z',
};
const ORGANIZATIONS = [
  { id: 'o1', name: 'Muster Treuhand AG', uid: 'CHE-123.456.789', role: 'admin' },
  { id: 'o2', name: 'Muster Holding', uid: null, role: 'Revisor' },
];

function state(
  connection: CloudConnection | null,
  authorization = AUTHORIZATION as CloudState['authorization'],
) {
  return { data: { authorization, connection } };
}

/** Answers each route of the area; an Error is thrown, a function is called with the request's input. */
function serve(answers: Map<RouteDef, unknown>) {
  apiRequest.mockImplementation(async (route: RouteDef, input: unknown) => {
    const answer = answers.get(route);
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return (answer as (input: unknown) => unknown)(input);
    return answer;
  });
}

async function renderAs(role: AccountRole, uuid?: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  const account = testAccount('a1', { name: 'Muster AG', accountRole: role, isOwner: role === 'OWNER' });
  queryClient.setQueryData(queryKeys.me, testUser());
  queryClient.setQueryData(queryKeys.myAccounts, [account]);
  setCurrentAccountUuid('a1');
  const path = uuid ? '/deepcloud/connection/:uuid' : '/deepcloud';
  return renderPage(path, <ConfirmProvider>{<CloudConnectionView uuid={uuid} />}</ConfirmProvider>, {
    queryClient,
    at: uuid ? `/deepcloud/connection/${uuid}` : '/deepcloud',
  });
}

beforeEach(() => {
  apiRequest.mockReset();
  startCloudConnect.mockReset();
  watchToasts();
});

describe('cloud connection page', () => {
  it('says when no cloud is configured', async () => {
    serve(new Map([[deepcloudRoutes.getCloudState, state(null, null)]]));
    await renderAs('OWNER');
    expect(await screen.findByText('Keine Cloud eingerichtet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mit DeepCloud verbinden' })).toBeNull();
  });

  it('explains connecting, and an admin starts it for the current account', async () => {
    const user = userEvent.setup();
    serve(new Map([[deepcloudRoutes.getCloudState, state(null)]]));
    startCloudConnect.mockReturnValue(new Promise(() => undefined));
    await renderAs('ADMIN');
    const connect = await screen.findByRole('button', { name: 'Mit DeepCloud verbinden' });
    expect(screen.getByRole('heading', { name: 'Noch nicht verbunden' })).toBeTruthy();
    await user.click(connect);
    expect(startCloudConnect).toHaveBeenCalledWith(AUTHORIZATION, 'a1');
    // The browser is leaving: the button stays busy.
    expect((connect as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows an employee who can connect instead of the button', async () => {
    serve(new Map([[deepcloudRoutes.getCloudState, state(null)]]));
    await renderAs('EMPLOYEE');
    expect(await screen.findByText(/Rolle Administrator oder Inhaber/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mit DeepCloud verbinden' })).toBeNull();
  });

  it('shows the connection, who connected it and when, the cloud user, the scopes and the organisations', async () => {
    serve(
      new Map<RouteDef, unknown>([
        [deepcloudRoutes.getCloudState, state(CONNECTION)],
        [deepcloudRoutes.listCloudOrganizations, { data: ORGANIZATIONS, meta: { total: 2 } }],
      ]),
    );
    await renderAs('OWNER');
    const table = await screen.findByRole('table', { name: 'Organisationen' });
    expect(within(table).getByRole('rowheader', { name: 'Muster Treuhand AG' })).toBeTruthy();
    expect(within(table).getByText('CHE-123.456.789')).toBeTruthy();
    // A role the cloud is known to name is translated, another shown as it comes.
    expect(within(table).getByText('Administrator')).toBeTruthy();
    expect(within(table).getByText('Revisor')).toBeTruthy();
    expect(screen.getByText('Verbunden')).toBeTruthy();
    expect(screen.getByText('Olivia Owner')).toBeTruthy();
    expect(screen.getByText('Olivia Cloud · olivia@cloud.example')).toBeTruthy();
    expect(screen.getByText(/^20\.11\.2026/)).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Berechtigungen' })).getAllByRole('listitem'),
    ).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Neu verbinden' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Trennen' })).toBeTruthy();
  });

  it('passes the query’s abort signal to the request, so leaving the page cancels the organisations', async () => {
    let signal: AbortSignal | undefined;
    serve(
      new Map<RouteDef, unknown>([
        [deepcloudRoutes.getCloudState, state(CONNECTION)],
        [
          deepcloudRoutes.listCloudOrganizations,
          (input: { signal?: AbortSignal }) => {
            signal = input.signal;
            return new Promise(() => undefined);
          },
        ],
      ]),
    );
    const { unmount } = await renderAs('OWNER');
    expect(await screen.findByRole('status', { name: 'Organisationen werden geladen' })).toBeTruthy();
    await waitFor(() => expect(signal).toBeInstanceOf(AbortSignal));
    expect(signal!.aborted).toBe(false);
    unmount();
    await waitFor(() => expect(signal!.aborted).toBe(true));
  });

  it('says when the connection reaches no organisation, and offers a retry when reading them fails', async () => {
    const user = userEvent.setup();
    const answers = new Map<RouteDef, unknown>([
      [deepcloudRoutes.getCloudState, state(CONNECTION)],
      [deepcloudRoutes.listCloudOrganizations, new ApiError(502, 'cloud down', 'BAD_GATEWAY')],
    ]);
    serve(answers);
    await renderAs('OWNER');
    expect(
      await screen.findByText('Die Organisationen konnten nicht von DeepCloud gelesen werden.'),
    ).toBeTruthy();
    answers.set(deepcloudRoutes.listCloudOrganizations, { data: [], meta: { total: 0 } });
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(
      await screen.findByText('Mit diesem DeepCloud-Zugang erreichen Sie keine Organisationen.'),
    ).toBeTruthy();
  });

  it('warns when the connection needs reconnecting; an employee is told whom to ask and gets no actions', async () => {
    serve(
      new Map<RouteDef, unknown>([
        [deepcloudRoutes.getCloudState, state({ ...CONNECTION, status: 'NEEDS_RECONNECT' })],
        [deepcloudRoutes.listCloudOrganizations, { data: [], meta: { total: 0 } }],
      ]),
    );
    await renderAs('EMPLOYEE');
    expect(await screen.findByText('Neu verbinden nötig')).toBeTruthy();
    expect(screen.getByText(/Bitten Sie eine Person mit der Rolle Administrator/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Neu verbinden' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Trennen' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Organisationen' })).toBeNull();
    expect(apiRequest).not.toHaveBeenCalledWith(deepcloudRoutes.listCloudOrganizations, expect.anything());
  });

  it('disconnects only after confirming, then shows the account’s page', async () => {
    const user = userEvent.setup();
    const answers = new Map<RouteDef, unknown>([
      [deepcloudRoutes.getCloudState, state(CONNECTION)],
      [deepcloudRoutes.listCloudOrganizations, { data: ORGANIZATIONS, meta: { total: 2 } }],
      [deepcloudRoutes.disconnectCloud, undefined],
    ]);
    serve(answers);
    const { router } = await renderAs('ADMIN', CONNECTION.uuid);
    await user.click(await screen.findByRole('button', { name: 'Trennen' }));
    const dialog = await screen.findByRole('dialog', { name: 'DeepCloud trennen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Verbunden lassen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(apiRequest).not.toHaveBeenCalledWith(deepcloudRoutes.disconnectCloud, { accountUuid: 'a1' });
    await user.click(screen.getByRole('button', { name: 'Trennen' }));
    answers.set(deepcloudRoutes.getCloudState, state(null));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'DeepCloud trennen?' })).getByRole('button', {
        name: 'Trennen',
      }),
    );
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(deepcloudRoutes.disconnectCloud, { accountUuid: 'a1' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/deepcloud'));
  });

  it('says that a connection no longer exists and links to the current one', async () => {
    serve(
      new Map<RouteDef, unknown>([
        [deepcloudRoutes.getCloudState, state(CONNECTION)],
        [deepcloudRoutes.listCloudOrganizations, { data: [], meta: { total: 0 } }],
      ]),
    );
    await renderAs('OWNER', 'c0ffee00-0000-4000-8000-00000000dead');
    expect(await screen.findByText('Diese Verbindung gibt es nicht mehr')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zur aktuellen Verbindung' }).getAttribute('href')).toBe(
      '/deepcloud',
    );
    expect(apiRequest).not.toHaveBeenCalledWith(deepcloudRoutes.listCloudOrganizations, expect.anything());
  });
});
