import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { notificationsLiveRoutes } from '@portal/contract';
import { buildHeaders, buildUrl } from '@/api/client.ts';
import { LiveConnection } from './live-connection.ts';

/** Every query of the notifications area (list, detail, unread count) has a key under this prefix. */
export const NOTIFICATIONS_QUERY_PREFIX = ['notifications'] as const;

/** Events arriving together (a catch-up after a reconnect) refresh the queries once. */
const INVALIDATE_DELAY_MS = 50;

/** The request headers of the app's HTTP client, or null without an access token. */
function streamHeaders(): Headers | null {
  const headers = buildHeaders(false);
  return headers.has('Authorization') ? headers : null;
}

/** The tab's one stream and how many mounted components use it. */
let shared: { connection: LiveConnection; users: number; stopOnline: () => void } | null = null;

function acquire(queryClient: QueryClient): void {
  if (shared) {
    shared.users += 1;
    return;
  }
  let pending: ReturnType<typeof setTimeout> | null = null;
  // Whatever the event (a new notification, a change of state, a catch-up or `resync`), the notification queries
  // are read again: the list, the detail and the badge stay exactly what the server says.
  const refresh = () => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_PREFIX });
    }, INVALIDATE_DELAY_MS);
  };
  const connection = new LiveConnection({
    url: buildUrl(notificationsLiveRoutes.notificationStream),
    headers: streamHeaders,
    onEvent: refresh,
  });
  const online = () => connection.retryNow();
  window.addEventListener('online', online);
  shared = { connection, users: 1, stopOnline: () => window.removeEventListener('online', online) };
  connection.start();
}

function release(): void {
  if (!shared || --shared.users > 0) return;
  shared.connection.stop();
  shared.stopOnline();
  shared = null;
}

/**
 * Keeps the tab's live notification stream open while the signed-in app is shown: at most one per tab however
 * often it is mounted, closed when the last user unmounts. Each event refreshes the notification queries.
 */
export function useLiveNotifications(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    acquire(queryClient);
    return release;
  }, [queryClient]);
}
