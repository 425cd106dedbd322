import { beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { apiRequest, mockApi } from '@/testing/api-mock.ts';
import { renderPage } from '@/testing/render.tsx';
import { NotificationPreferences } from './notification-preferences.tsx';

mockApi();

beforeEach(() => {
  apiRequest.mockReset();
  apiRequest.mockResolvedValue({
    data: {
      preferences: [
        { type: 'invitation.received', email: true, fixed: true },
        { type: 'ownership.transfer_accepted', email: true, fixed: true },
        { type: 'ticket.answered', email: true },
      ],
    },
  });
});

describe('notification preferences', () => {
  // Issue 23 item 9: "Übertragung angenommen" promised a link to answer that its mail does not have.
  it('promises a link to answer only for the mails that carry one', async () => {
    await renderPage('/', <NotificationPreferences />);
    const row = async (label: string) =>
      (await screen.findByText(label, { selector: '[id^="notification-type-"]' })).closest('li')!;
    expect(
      within(await row('Einladung erhalten')).getByText(
        'Kommt immer per E-Mail: Die E-Mail enthält den Link zum Antworten.',
      ),
    ).toBeTruthy();
    const accepted = await row('Übertragung angenommen');
    expect(
      within(accepted).getByText('Kommt immer per E-Mail, denn die Inhaberschaft des Kontos hat gewechselt.'),
    ).toBeTruthy();
    expect(within(accepted).queryByText(/Link zum Antworten/)).toBeNull();
    expect(within(await row('Anfrage beantwortet')).queryByText(/Kommt immer per E-Mail/)).toBeNull();
  });
});
