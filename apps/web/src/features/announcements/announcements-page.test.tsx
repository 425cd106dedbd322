import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { announcementsRoutes, usersRoutes, type Announcement, type UserRole } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { queryKeys } from '@/api/session.ts';
import { testUser } from '@/testing/fixtures.ts';
import { renderPage } from '@/testing/render.tsx';
import { ConfirmProvider } from '@/ui/confirm.tsx';
import { PortalThemeProvider } from '@/ui/theme.tsx';
import AnnouncementEditorPage from './announcement-editor-page.tsx';
import AnnouncementsPage from './announcements-page.tsx';

mockApi();

const PUBLISHED: Announcement = {
  uuid: 'a0000000-0000-4000-8000-000000000001',
  kind: 'maintenance',
  title: { de: 'Wartung am Samstag', it: 'Manutenzione sabato' },
  body: { de: 'Kurz nicht erreichbar.' },
  audience: 'countries',
  audienceValues: ['CH', 'LI'],
  roles: 'admins',
  startsAt: '2026-12-05T21:00:00.000Z',
  endsAt: '2026-12-06T01:00:00.000Z',
  status: 'published',
  reach: 1234,
  read: 56,
  fannedOutAt: '2026-12-05T21:01:00.000Z',
  createdBy: 'Paula Portal',
  createdAt: '2026-11-27T10:00:00.000Z',
  publishedAt: '2026-11-27T11:00:00.000Z',
  withdrawnAt: null,
};

function setup(
  role: UserRole,
  answer: (route: unknown, input: { body?: unknown; query?: object }) => unknown,
) {
  const me = testUser({ userRole: role });
  apiRequest.mockImplementation(async (route, input) =>
    route === usersRoutes.getMe ? { data: me } : answer(route, input),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(queryKeys.me, me);
  return queryClient;
}

beforeEach(() => {
  apiRequest.mockReset();
});

describe('announcements pages', { timeout: 60_000 }, () => {
  it('lists announcements paged on the server with kind, state, window, audience, reach and read counts', async () => {
    const queryClient = setup('SUPPORT_MANAGER', () => ({
      data: [PUBLISHED],
      meta: { total: 1, page: 1, pageSize: 25 },
    }));
    await renderPage(
      '/provider/announcements',
      <PortalThemeProvider language="de" rowsPerPage="Zeilen pro Seite">
        <AnnouncementsPage />
      </PortalThemeProvider>,
      { queryClient },
    );
    const row = (
      await screen.findByRole('link', { name: 'Wartung am Samstag' }, { timeout: 10_000 })
    ).closest('tr')!;
    expect(within(row).getByText('Wartung')).toBeTruthy();
    expect(within(row).getByText('Veröffentlicht')).toBeTruthy();
    expect(within(row).getByText('Länder: CH, LI · nur Inhaber/innen und Administrator/innen')).toBeTruthy();
    expect(within(row).getByText('05.12.2026, 22:00 – 06.12.2026, 02:00')).toBeTruthy();
    expect(within(row).getByText('1234')).toBeTruthy();
    expect(within(row).getByText('56')).toBeTruthy();
    expect(apiRequest).toHaveBeenCalledWith(
      announcementsRoutes.listAnnouncements,
      expect.objectContaining({ query: { page: 1, pageSize: 25 } }),
    );
  });

  it('lets a manager save a draft (German required, Swiss time) but not publish it', async () => {
    const saved: { body?: unknown }[] = [];
    const queryClient = setup('SUPPORT_MANAGER', (route, input) => {
      if (route === announcementsRoutes.createAnnouncement) {
        saved.push(input);
        return { data: { ...PUBLISHED, status: 'draft', uuid: 'a0000000-0000-4000-8000-000000000002' } };
      }
      return { data: PUBLISHED };
    });
    await renderPage(
      '/provider/announcements/new',
      <PortalThemeProvider language="de" rowsPerPage="Zeilen pro Seite">
        <ConfirmProvider>
          <AnnouncementEditorPage />
        </ConfirmProvider>
      </PortalThemeProvider>,
      { queryClient },
    );
    const user = userEvent.setup();
    expect(screen.queryByRole('button', { name: 'Veröffentlichen' })).toBeNull();
    expect(
      screen.getByText('Sie schreiben Entwürfe; veröffentlichen kann die Portal-Administration.'),
    ).toBeTruthy();

    // Without a German title nothing is sent; the German tab shows the error.
    await user.click(screen.getByRole('tab', { name: 'Italienisch' }));
    await user.type(screen.getAllByRole('textbox', { name: 'Titel' }).at(-1)!, 'Manutenzione');
    await user.click(screen.getByRole('button', { name: 'Entwurf speichern' }));
    expect(await screen.findByRole('tab', { name: 'Deutsch *', selected: true })).toBeTruthy();
    expect(saved).toEqual([]);

    const panel = screen.getByRole('tabpanel', { name: 'Deutsch *' });
    await user.type(within(panel).getByRole('textbox', { name: /^Titel/ }), 'Wartung am Samstag');
    await user.type(within(panel).getByRole('textbox', { name: /^Text/ }), 'Kurz nicht erreichbar.');
    // The start stands in the German form; an end typed half is refused, not dropped.
    const start = screen.getByRole('textbox', { name: /^Beginn/ }) as HTMLInputElement;
    expect(start.value).toMatch(/^\d\d\.\d\d\.\d{4} \d\d:00$/);
    const end = screen.getByRole('textbox', { name: 'Ende' });
    await user.type(end, '24.12.2026 25:00');
    await user.click(screen.getByRole('button', { name: 'Entwurf speichern' }));
    expect(await screen.findByText('Bitte geben Sie ein gültiges Datum ein (TT.MM.JJJJ hh:mm)')).toBeTruthy();
    expect(saved).toEqual([]);
    await user.clear(end);
    await user.click(screen.getByRole('button', { name: 'Entwurf speichern' }));
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    const body = saved[0]!.body as {
      title: object;
      body: object;
      startsAt: string;
      endsAt: null;
      kind: string;
    };
    expect(body.title).toEqual({ de: 'Wartung am Samstag', it: 'Manutenzione' });
    expect(body.body).toEqual({ de: 'Kurz nicht erreichbar.' });
    expect(body.kind).toBe('maintenance');
    expect(body.endsAt).toBeNull();
    // The start is the next full hour, given in Swiss time and sent as an instant.
    expect(Date.parse(body.startsAt) % 3_600_000).toBe(0);
  });

  it('shows a started announcement read-only with its reach, and lets an admin withdraw it', async () => {
    const started = { ...PUBLISHED, startsAt: '2026-11-01T08:00:00.000Z' };
    const queryClient = setup('PORTAL_ADMIN', () => ({ data: started }));
    await renderPage(
      '/provider/announcements/:announcementUuid',
      <PortalThemeProvider language="it" rowsPerPage="Righe per pagina">
        <ConfirmProvider>
          <AnnouncementEditorPage announcementUuid={PUBLISHED.uuid} />
        </ConfirmProvider>
      </PortalThemeProvider>,
      { queryClient, at: `/provider/announcements/${PUBLISHED.uuid}`, lng: 'it' },
    );
    expect(
      await screen.findByText('Raggiunti: 1234 · Letti: 56', undefined, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(
      screen.getByText('Questo annuncio è iniziato e non può più essere modificato. Può ritirarlo.'),
    ).toBeTruthy();
    // Its start in Swiss time (winter: UTC+1), as Italian writes it, and not to be changed.
    const start = screen.getByRole('textbox', { name: /^Inizio/ }) as HTMLInputElement;
    expect(start.value).toBe('01.11.2026 09:00');
    expect(start.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Salva le modifiche' })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Ritira' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ritirare l’annuncio?' }, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('button', { name: 'Ritira' }));
    await vi.waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(
        announcementsRoutes.withdrawAnnouncement,
        expect.objectContaining({ params: { announcementUuid: PUBLISHED.uuid } }),
      ),
    );
  });
});
