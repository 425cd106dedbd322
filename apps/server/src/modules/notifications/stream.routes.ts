import { decodeJwt } from 'jose';
import { LIVE_EVENTS, LIVE_REPLAY_MAX, notificationsLiveRoutes } from '@portal/contract';
import { bearerToken } from '../../http/bearer.ts';
import { HttpError } from '../../http/errors.ts';
import type { ModuleDeps } from '../deps.ts';
import { notificationsAfter, type LiveEvent, type LiveSubscriber } from '../../notifications/live.ts';
import { SSE_HEARTBEAT, SseWriter, sseEvent } from '../../notifications/sse.ts';

/** The longest delay a timer takes (about 24 days): a token valid longer ends its stream then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The Last-Event-ID a reconnecting client sends: a notification id, or nothing usable. */
function lastEventId(header: string | string[] | undefined): string | null {
  const value = typeof header === 'string' ? header.trim() : '';
  return /^\d{1,18}$/.test(value) ? value : null;
}

/** When the stream's access token expires (already verified by the authenticate hook). */
function tokenExpiresAt(authorization: string | string[] | undefined): number {
  const { exp } = decodeJwt(bearerToken(authorization)!);
  return exp! * 1000;
}

function write(writer: SseWriter, event: LiveEvent): void {
  if (event.kind === 'notification')
    writer.write(sseEvent(LIVE_EVENTS.notification, event.notification, event.id));
  else writer.write(sseEvent(LIVE_EVENTS[event.kind], {}));
}

/**
 * GET /api/notifications/v1/stream: the signed-in user's notifications as server-sent events. The stream first
 * catches up after the client's Last-Event-ID (at most LIVE_REPLAY_MAX, more → `resync`), says `ready` with the id
 * it resumes from, then passes on what the instance's live hub signals. It ends when the access token expires (a
 * stream never outlives its credential; the client reconnects with the refreshed token), when the client goes,
 * and when the instance shuts down.
 */
export function registerNotificationStreamRoutes({ db, route, live }: ModuleDeps) {
  route(notificationsLiveRoutes.notificationStream, {
    handler: async (request, reply) => {
      if (!live.open)
        throw new HttpError(503, 'UNAVAILABLE', 'Live notifications are not available right now');
      const userUuid = request.user.uuid;
      if (live.count(userUuid) >= live.maxStreamsPerUser) {
        reply.header('Retry-After', '60');
        throw new HttpError(429, 'TOO_MANY_STREAMS', 'Too many open notification streams: close other tabs');
      }
      const writer = new SseWriter(reply.raw);
      // Events signalled while the catch-up is read wait, so nothing comes out of order or twice.
      let waiting: LiveEvent[] | null = [];
      let shutDown = false;
      // The catch-up's notifications (at most LIVE_REPLAY_MAX): another instance's signal of one of them can arrive
      // after the catch-up was sent, and is then not sent again.
      const sent = new Set<string>();
      const deliver = (event: LiveEvent) => {
        if (event.kind !== 'notification' || !sent.has(event.id)) write(writer, event);
      };
      const subscriber: LiveSubscriber = {
        deliver: (event) => (waiting ? waiting.push(event) : deliver(event)),
        heartbeat: () => writer.write(SSE_HEARTBEAT),
        close: (reconnectMs) => (waiting ? (shutDown = true) : writer.end(reconnectMs)),
      };
      // Subscribed before the catch-up is read: a notification committed meanwhile is in one or the other.
      const unsubscribe = live.subscribe(userUuid, subscriber);
      // The stream ends with its token: it never goes on with a credential that has expired.
      const expiry = setTimeout(
        () => subscriber.close(),
        Math.min(tokenExpiresAt(request.headers.authorization) - Date.now(), MAX_TIMER_MS),
      );
      expiry.unref();
      const release = () => {
        clearTimeout(expiry);
        unsubscribe();
      };
      reply.raw.on('close', release);
      let catchUp: Awaited<ReturnType<typeof notificationsAfter>>;
      try {
        catchUp = await notificationsAfter(
          db,
          userUuid,
          lastEventId(request.headers['last-event-id']),
          LIVE_REPLAY_MAX,
        );
      } catch (error) {
        release();
        request.log.warn({ err: error }, 'notification stream: catch-up not read');
        throw new HttpError(503, 'UNAVAILABLE', 'Live notifications are not available right now');
      }
      if (shutDown) {
        release();
        throw new HttpError(503, 'UNAVAILABLE', 'Live notifications are not available right now');
      }

      reply.hijack();
      // The client left while the catch-up was read.
      if (reply.raw.destroyed) return undefined as never;
      writer.open();

      let resumeFrom = BigInt(catchUp.newestId);
      if (catchUp.more) write(writer, { kind: 'resync' });
      else
        for (const event of catchUp.events) {
          write(writer, event);
          sent.add(event.id);
        }
      for (const id of sent) if (BigInt(id) > resumeFrom) resumeFrom = BigInt(id);
      writer.write(sseEvent(LIVE_EVENTS.ready, {}, String(resumeFrom)));
      const queued = waiting;
      waiting = null;
      for (const event of queued) deliver(event);
      // The reply was hijacked: the stream is written above, nothing is serialised.
      return undefined as never;
    },
  });
}
