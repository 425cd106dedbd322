import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SupportMessage } from '@portal/contract';
import { renderPage } from '@/testing/render.tsx';
import { Conversation, type ConversationSide } from './conversation.tsx';

function message(extra: Partial<SupportMessage>): SupportMessage {
  return {
    uuid: crypto.randomUUID(),
    authorKind: 'CUSTOMER',
    authorName: 'Adrian Admin',
    authorUuid: null,
    internal: false,
    body: 'Der Export bricht ab.',
    createdAt: '2026-11-20T09:30:00.000Z',
    attachments: [],
    ...extra,
  };
}

const MESSAGES = [
  message({
    body: 'Der Export bricht ab.',
    attachments: [{ uuid: crypto.randomUUID(), fileName: 'log.txt', contentType: 'text/plain', size: 2048 }],
  }),
  message({ authorKind: 'AGENT', authorName: 'Sara Support', body: 'Wir schauen es an.' }),
  message({ authorKind: 'AGENT', authorName: 'Sara Support', internal: true, body: 'Proxy-Timeout' }),
];

async function show(side: ConversationSide) {
  const onDownload = vi.fn();
  await renderPage('/', <Conversation side={side} messages={MESSAGES} onDownload={onDownload} />);
  return { list: screen.getByRole('region', { name: 'Verlauf' }), onDownload };
}

describe('conversation', () => {
  it('shows the customer the replies of support marked as such, and no internal note', async () => {
    const { list, onDownload } = await show('customer');
    const reply = within(list).getByRole('listitem', { name: 'Antwort von Sara Support (Support)' });
    expect(within(reply).getByText('Support')).toBeTruthy();
    const own = within(list).getByRole('listitem', { name: 'Nachricht von Adrian Admin (Kunde)' });
    expect(within(own).queryByText('Kunde')).toBeNull();
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByText('Proxy-Timeout')).toBeNull();
    await userEvent.setup().click(within(own).getByRole('button', { name: /^log\.txt herunterladen/ }));
    expect(onDownload).toHaveBeenCalledWith(MESSAGES[0]!.attachments[0]);
  });

  it('shows support the customer marked as such and the internal notes in words', async () => {
    const { list } = await show('agent');
    const customer = within(list).getByRole('listitem', { name: 'Nachricht von Adrian Admin (Kunde)' });
    expect(within(customer).getByText('Kunde')).toBeTruthy();
    const note = within(list).getByRole('listitem', {
      name: 'Interne Notiz von Sara Support, nur für den Support sichtbar',
    });
    expect(within(note).getByText('Interne Notiz – nur für den Support')).toBeTruthy();
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  });
});
