import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { notificationsLiveRoutes } from '@portal/contract';
import { buildHeaders, buildUrl } from '@/api/client.ts';
import type { LiveConnection } from './live-connection.ts';

/** Every query of the notifications area (list, detail, unread count) has a key under this prefix. */
export const NOTIFICATIONS_QUERY_PREFIX = ['notifications'] as const;

/** Events arriving together (a catch-up after a reconnect) refresh the queries once. */
const INVALIDATE_DELAY_MS = 50;

/** The request headers of the app's HTTP client, or null without an access token. */
function streamHeaders(): Headers | null {
  const headers = buildHeaders('GET', false);
  return headers.has('Authorization') ? headers : null;
}

/**
 * The tab's one stream and how many mounted components use it. The connection (with its event-stream parser) is a
 * chunk of its own, loaded when the shell mounts, not in the first load (decision 255); until it is there, the
 * connection is null, and a release to nobody meanwhile means it never starts.
 */
interface Shared {
  connection: LiveConnection | null;
  users: number;
  stopOnline: () => void;
}
let shared: Shared | null = null;

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
  const current: Shared = { connection: null, users: 1, stopOnline: () => undefined };
  const online = () => current.connection?.retryNow();
  window.addEventListener('online', online);
  current.stopOnline = () => window.removeEventListener('online', online);
  shared = current;
  void import('./live-connection.ts').then(({ LiveConnection }) => {
    // Released (or released and acquired anew) while the chunk loaded: this one is not wanted any more.
    if (shared !== current) return;
    current.connection = new LiveConnection({
      url: buildUrl(notificationsLiveRoutes.notificationStream),
      headers: streamHeaders,
      onEvent: refresh,
    });
    current.connection.start();
  });
}

function release(): void {
  if (!shared || --shared.users > 0) return;
  shared.connection?.stop();
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
