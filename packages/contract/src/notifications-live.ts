import Type from 'typebox';
import { DateTime, ErrorBody, Uuid } from './common.ts';
import { defineRoute } from './route.ts';

// The live stream of the signed-in user's notifications: server-sent events, one stream per browser tab.

/**
 * The events of the stream:
 * - `notification`: one was written for the user; `id:` is its row id, so a reconnect sends it as Last-Event-ID
 *   and gets what it missed;
 * - `changed`: the user's notifications changed state (read, unread, archived) somewhere; no id;
 * - `resync`: the stream cannot say what was missed (too much, or the server lost its signal for a while): the
 *   client reads everything again;
 * - `ready`: sent once a stream is open and caught up; its `id:` is the newest notification the stream covers, so
 *   even a stream that never carried a notification resumes from there.
 */
export const LIVE_EVENTS = {
  notification: 'notification',
  changed: 'changed',
  resync: 'resync',
  ready: 'ready',
} as const;
export type LiveEventName = (typeof LIVE_EVENTS)[keyof typeof LIVE_EVENTS];

/** At most this many missed notifications are replayed after a reconnect; beyond it the stream sends `resync`. */
export const LIVE_REPLAY_MAX = 100;
/** A comment line this often keeps proxies and the client's dead-connection check from closing an idle stream. */
export const LIVE_HEARTBEAT_MS = 25_000;
/** At most this many open streams per user and server instance (tabs); more are refused with 429. */
export const LIVE_STREAMS_PER_USER = 20;

/** The data of a `notification` event: the notification as the inbox lists it, rendered by the reader. */
export const LiveNotification = Type.Object({
  uuid: Uuid,
  accountUuid: Type.Union([Uuid, Type.Null()]),
  type: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
  createdAt: DateTime,
  readAt: Type.Union([DateTime, Type.Null()]),
});
export type LiveNotification = Type.Static<typeof LiveNotification>;

export const notificationsLiveRoutes = {
  notificationStream: defineRoute({
    method: 'GET',
    path: '/notifications/v1/stream',
    summary:
      "The signed-in user's notifications as server-sent events (text/event-stream): `notification` (with `id:`), " +
      '`changed`, `resync` and `ready`; send Last-Event-ID to get what was missed. The stream ends when the access ' +
      'token expires: reconnect with the new one.',
    tags: ['notifications'],
    // No query parameters: the token travels in the Authorization header, never in the URL (which is logged).
    querystring: Type.Object({}, { additionalProperties: false }),
    response: {
      200: Type.String({ description: 'text/event-stream; charset=utf-8' }),
      401: ErrorBody,
      429: ErrorBody,
      503: ErrorBody,
    },
  }),
};
