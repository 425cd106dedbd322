import { StrictMode, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TOKEN_KEY } from '@/auth/tokens.ts';
import { fakeServer } from './fake-server.ts';
import { useLiveNotifications } from './use-live-notifications.ts';

describe('the tab’s live notifications', () => {
  let server: ReturnType<typeof fakeServer>;
  let queryClient: QueryClient;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <StrictMode>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </StrictMode>
  );

  beforeEach(() => {
    server = fakeServer(['stream', 'stream']);
    vi.stubGlobal('fetch', server.fetch);
    sessionStorage.setItem(TOKEN_KEY, 'the-access-token');
    queryClient = new QueryClient();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('opens one stream however often it is mounted, with the app’s token, and closes it with the last', async () => {
    const first = renderHook(() => useLiveNotifications(), { wrapper });
    const second = renderHook(() => useLiveNotifications(), { wrapper });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    const [url] = server.fetch.mock.calls[0]!;
    expect(url).toBe('/api/notifications/v1/stream');
    expect(server.requests[0]!.get('Authorization')).toBe('Bearer the-access-token');
    // StrictMode mounts, unmounts and mounts again: one stream stays open.
    const open = () => server.streams.filter((stream) => !stream.aborted).length;
    expect(open()).toBe(1);
    first.unmount();
    expect(open()).toBe(1);
    second.unmount();
    expect(open()).toBe(0);
  });

  it('opens no stream when the app is left before the connection’s chunk has loaded', async () => {
    // The connection loads in a chunk of its own after the shell mounts (decision 255).
    renderHook(() => useLiveNotifications(), { wrapper }).unmount();
    // Mounted again later: this one's stream opens, the first never does.
    const again = renderHook(() => useLiveNotifications(), { wrapper });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.fetch).toHaveBeenCalledTimes(1);
    again.unmount();
    expect(server.streams.filter((stream) => !stream.aborted)).toHaveLength(0);
  });

  it('refreshes every notification query on each event, and nothing else', async () => {
    queryClient.setQueryData(['notifications', 'unread-count'], 3);
    queryClient.setQueryData(['notifications', 'list', { page: 1 }], []);
    queryClient.setQueryData(['me'], {});
    const hook = renderHook(() => useLiveNotifications(), { wrapper });
    await vi.waitFor(() => expect(server.streams.some((stream) => !stream.aborted)).toBe(true));
    const stream = server.streams.find((candidate) => !candidate.aborted)!;
    const invalidated = (key: unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
    stream.send('event: resync\ndata: {}\n\n');
    await vi.waitFor(() => expect(invalidated(['notifications', 'unread-count'])).toBe(true));
    expect(invalidated(['notifications', 'list', { page: 1 }])).toBe(true);
    expect(invalidated(['me'])).toBe(false);
    hook.unmount();
  });
});
