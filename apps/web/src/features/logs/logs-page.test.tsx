import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { logsRoutes, type Account, type LogEntry } from '@portal/contract';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { renderPage } from '@/testing/render.tsx';
import { testAccount } from '@/testing/fixtures.ts';
import { actionLabel, changedFields, readableKey } from './log-labels.ts';
import LogsPage from './logs-page.tsx';

// Typing, menus and expanding rows through user-event take seconds on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

mockApi();
let account: Account;
vi.mock('@/api/session.ts', () => ({ useCurrentAccount: () => account }));

const ADMIN = {
  uuid: '00000000-0000-4000-8000-000000000002',
  name: 'Adrian Admin',
  email: 'admin@example.com',
};
const entry = (id: number, patch: Partial<LogEntry> = {}): LogEntry => ({
  id: String(id),
  createdAt: '2026-11-20T09:30:00.000000Z',
  action: 'member.role.change',
  target: 'user:00000000-0000-4000-8000-000000000003',
  targetUser: { uuid: '00000000-0000-4000-8000-000000000003', name: 'Emma Employee', email: 'e@example.com' },
  subject: { kind: 'person', id: '00000000-0000-4000-8000-000000000003', ref: null, name: 'Emma Employee' },
  actor: ADMIN,
  actorIsStaff: false,
  before: { role: 'EMPLOYEE', name: 'Emma' },
  after: { role: 'ADMIN', name: 'Emma' },
  clientAddress: '203.0.113.24',
  userAgent: 'Mozilla/5.0',
  browser: 'Chrome 131 · Windows',
  ...patch,
});

beforeEach(() => {
  account = testAccount('00000000-0000-4000-8000-000000000001', { accountRole: 'ADMIN' });
  apiRequest.mockReset();
  apiRequest.mockImplementation(
    async (route: unknown, input: { query?: { cursor?: string; action?: string } }) => {
      if (route === logsRoutes.listLogActors) return { data: [ADMIN] };
      if (input.query?.action === 'support.access')
        return { data: [], meta: { pageSize: 50, nextCursor: null } };
      if (!input.query?.cursor)
        return { data: [entry(3), entry(2)], meta: { pageSize: 2, nextCursor: 'next' } };
      return {
        data: [
          entry(1, { action: 'ownership.transfer.frobnicate', before: null, after: null }),
          entry(0, {
            action: 'account.terms.accept',
            target: 'terms:agb',
            targetUser: null,
            subject: { kind: 'terms', id: 'agb', ref: null, name: null },
          }),
          entry(-1, {
            action: 'support.access',
            target: 'GET /api/accounts/:accountUuid/billing/v1/invoices',
            targetUser: null,
            subject: { kind: 'area', id: 'billing', ref: null, name: null },
          }),
          entry(-2, {
            action: 'support.ticket.create',
            target: 'ticket:00000000-0000-4000-8000-000000000042',
            targetUser: null,
            subject: {
              kind: 'ticket',
              id: '00000000-0000-4000-8000-000000000042',
              ref: '1042',
              name: 'Drucker druckt nicht',
            },
          }),
        ],
        meta: { pageSize: 2, nextCursor: null },
      };
    },
  );
});

describe('the log page', () => {
  it('lists entries with label, person, target and browser, loads more along the cursor and shows a change', async () => {
    const user = userEvent.setup();
    await renderPage('/logs', <LogsPage />);
    const table = await screen.findByRole('table', { name: 'Protokoll' });
    expect(within(table).getAllByText('Rolle geändert')).toHaveLength(2);
    // The person the entry concerns, linked to the member's page (the reader is an admin).
    const people = within(table).getAllByRole('link', { name: 'Emma Employee' });
    expect(people).toHaveLength(2);
    expect(people[0]!.getAttribute('href')).toBe(
      '/settings/user-management/user/00000000-0000-4000-8000-000000000003',
    );
    expect(within(table).getAllByText('Chrome 131 · Windows')).toHaveLength(2);
    expect(screen.getByRole('status').textContent).toBe('2 Einträge angezeigt');
    expect(apiRequest).toHaveBeenCalledWith(
      logsRoutes.listLogs,
      expect.objectContaining({ query: { cursor: undefined, lang: 'de' } }),
    );

    await user.click(screen.getByRole('button', { name: 'Weitere laden' }));
    // An action without a label is shown from its key, never blank.
    expect(await within(table).findByText('Ownership transfer frobnicate')).toBeTruthy();
    // What each entry concerns, in words: never a raw key or a request line (issue 23 item 6).
    expect(within(table).getByText('Allgemeine Geschäftsbedingungen')).toBeTruthy();
    expect(within(table).getByText('Abrechnung')).toBeTruthy();
    expect(
      within(table)
        .getByRole('link', { name: 'Anfrage Nr. 1042: Drucker druckt nicht' })
        .getAttribute('href'),
    ).toBe('/support/tickets/00000000-0000-4000-8000-000000000042');
    expect(table.textContent).not.toMatch(/terms:|GET \/api|ticket:|user:/);
    // The reader's language goes with the query: the server's search matches the words shown in it.
    expect(apiRequest).toHaveBeenCalledWith(
      logsRoutes.listLogs,
      expect.objectContaining({ query: { cursor: 'next', lang: 'de' } }),
    );
    expect(screen.queryByRole('button', { name: 'Weitere laden' })).toBeNull();

    const [toggle] = screen.getAllByRole('button', { name: '1 Änderung anzeigen' });
    await user.click(toggle!);
    expect(toggle!.getAttribute('aria-expanded')).toBe('true');
    const changes = await screen.findByRole('table', { name: 'Änderungen: Rolle geändert' });
    // Only the field that changed, with both values.
    expect(within(changes).getByRole('row', { name: 'role EMPLOYEE ADMIN' })).toBeTruthy();
    expect(within(changes).queryByText('name')).toBeNull();
  });

  it('asks the server for the chosen filters and says when nothing matches', async () => {
    const user = userEvent.setup();
    await renderPage('/logs', <LogsPage />);
    await screen.findByRole('table', { name: 'Protokoll' });
    await user.click(screen.getByRole('combobox', { name: /Aktion/ }));
    await user.click(await screen.findByRole('option', { name: 'Zugriff durch den Support' }));
    expect(await screen.findByText('Keine Einträge passen zu diesen Filtern.')).toBeTruthy();
    expect(apiRequest).toHaveBeenCalledWith(
      logsRoutes.listLogs,
      expect.objectContaining({ query: { action: 'support.access', lang: 'de', cursor: undefined } }),
    );
  });

  it('takes dates in the form of the interface language and refuses an end date before the start date', async () => {
    const user = userEvent.setup();
    await renderPage('/logs', <LogsPage />);
    await screen.findByRole('table', { name: 'Protokoll' });
    // The date fields load lazily, beside the page (their own chunk); until then two disabled fields stand there.
    await screen.findAllByRole('button', { name: 'Datum auswählen' }, { timeout: 10_000 });
    const from = screen.getByRole('textbox', { name: 'Von' });
    // German: day, month, year with points (issue 23 item 7); the browser's own date field wrote mm/dd/yyyy.
    expect(from.getAttribute('placeholder')).toBe('TT.MM.JJJJ');
    // Typed without points, the day is taken, and the field writes it as German does once left.
    await user.type(from, '20112026');
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(
        logsRoutes.listLogs,
        expect.objectContaining({
          query: expect.objectContaining({ from: new Date(2026, 10, 20).toISOString() }),
        }),
      ),
    );
    const to = screen.getByRole('textbox', { name: 'Bis' });
    await user.type(to, '10.11.2026');
    expect((from as HTMLInputElement).value).toBe('20.11.2026');
    await waitFor(() => expect(screen.getByText('Das Enddatum liegt vor dem Startdatum.')).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Als CSV exportieren' }).hasAttribute('disabled')).toBe(true);

    // A text that names no day: the filter ignores it, and the field says so once left.
    await user.clear(to);
    await user.type(to, '31.02.2026');
    await user.tab();
    expect(await screen.findByText('Bitte geben Sie ein gültiges Datum ein (TT.MM.JJJJ)')).toBeTruthy();
    expect(screen.queryByText('Das Enddatum liegt vor dem Startdatum.')).toBeNull();

    // The calendar: the day picked there stands in the field.
    await user.click(screen.getAllByRole('button', { name: /^Datum auswählen/ })[0]!);
    const calendar = await screen.findByRole('dialog');
    await user.click(within(calendar).getByRole('gridcell', { name: '5' }));
    await waitFor(() => expect((from as HTMLInputElement).value).toBe('05.11.2026'));
  });

  it('tells a lower role that it sees only its own entries', async () => {
    account = testAccount(account.uuid, { accountRole: 'EMPLOYEE' });
    await renderPage('/logs', <LogsPage />);
    expect(
      await screen.findByText(/Sie sehen die Einträge, in denen Sie gehandelt haben oder betroffen sind/),
    ).toBeTruthy();
  });
});

describe('log labels', () => {
  it('makes unknown keys readable and lists changed fields only', () => {
    expect(readableKey('ownership.transfer.start')).toBe('Ownership transfer start');
    expect(actionLabel('de', 'x.y_z')).toBe('X y z');
    expect(actionLabel('it', 'member.invite')).toBe('Membro invitato');
    expect(changedFields({ a: 1, b: 2 }, { a: 1, b: 3, c: 'x' })).toEqual([
      { field: 'b', before: 2, after: 3 },
      { field: 'c', before: undefined, after: 'x' },
    ]);
    expect(changedFields(null, null)).toEqual([]);
    expect(changedFields('a', 'b')).toEqual([{ field: '', before: 'a', after: 'b' }]);
  });
});
