import { notificationsRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import {
  getNotification,
  getPreferences,
  listNotifications,
  markAllRead,
  notifyTermsToAccept,
  setArchived,
  setRead,
  unreadCount,
  updatePreferences,
} from './notifications.service.ts';

declare module '../../jobs/runner.ts' {
  interface JobKinds {
    'notifications.terms': Record<string, never>;
  }
}

/** How often the portal looks for owners with terms to accept (a new version, a new owner). */
const TERMS_CHECK_EVERY_MS = 60 * 60 * 1000;

/**
 * The signed-in user's notifications: the inbox of each account (its own and the personal ones), read state,
 * archive and restore, the unread count, and which types also come by email. Each state change tells the user's open tabs
 * through the notifier, in its transaction.
 */
export function registerNotificationsRoutes({ db, route, jobs, notifier }: ModuleDeps) {
  // Owners with terms to accept are looked for at start and every hour.
  jobs.define('notifications.terms', {
    every: TERMS_CHECK_EVERY_MS,
    handler: async () => {
      await notifyTermsToAccept(db, notifier);
    },
  });

  route(notificationsRoutes.listNotifications, {
    handler: async (request) => listNotifications(db, request.user, request.account, request.query),
  });
  route(notificationsRoutes.getNotification, {
    handler: async (request) => ({
      data: await getNotification(db, request.user, request.account, request.params.id),
    }),
  });
  route(notificationsRoutes.updateNotification, {
    handler: async (request) => ({
      data: await setRead(db, notifier, request.user, request.account, request.params.id, request.body.read),
    }),
  });
  route(notificationsRoutes.archiveNotification, {
    handler: async (request, reply) => {
      await setArchived(db, notifier, request.user, request.account, request.params.id, true);
      reply.code(204);
      return null;
    },
  });
  route(notificationsRoutes.restoreNotification, {
    handler: async (request, reply) => {
      await setArchived(db, notifier, request.user, request.account, request.params.id, false);
      reply.code(204);
      return null;
    },
  });
  route(notificationsRoutes.markAllNotificationsRead, {
    handler: async (request) => ({
      data: { changed: await markAllRead(db, notifier, request.user, request.account) },
    }),
  });
  route(notificationsRoutes.getUnreadCount, {
    handler: async (request) => ({ data: { count: await unreadCount(db, request.user, request.account) } }),
  });
  route(notificationsRoutes.getNotificationPreferences, {
    handler: async (request) => ({ data: { preferences: await getPreferences(db, request.user) } }),
  });
  route(notificationsRoutes.updateNotificationPreferences, {
    handler: async (request) => ({
      data: { preferences: await updatePreferences(db, request.user, request.body) },
    }),
  });
}
