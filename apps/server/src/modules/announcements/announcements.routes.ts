import { announcementsRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import {
  createAnnouncement,
  deleteAnnouncement,
  dismissAnnouncement,
  fanOutBatch,
  finishFanout,
  getAnnouncement,
  listAnnouncements,
  listCurrentAnnouncements,
  planFanout,
  publishAnnouncement,
  readAnnouncement,
  updateAnnouncement,
  withdrawAnnouncement,
  withdrawBatch,
} from './announcements.service.ts';

/**
 * Announcements: staff write them (each service refuses below SUPPORT_MANAGER, and publishing below PORTAL_ADMIN,
 * with 403); the jobs runner fans a published one out to its audience in batches once it starts, and removes a
 * withdrawn one's notifications the same way. Anyone signed in reads the ones that reached them.
 */
export function registerAnnouncementsRoutes({ db, route, jobs, notifier, config }: ModuleDeps) {
  const rules = { planCodes: config.billing.plans.map((plan) => plan.code) };

  jobs.define('announcements.fanout', {
    handler: async ({ payload }) => {
      await planFanout(db, jobs, payload.announcementUuid, payload.revision);
    },
  });
  jobs.define('announcements.fanout-batch', {
    handler: ({ payload }) => fanOutBatch(db, notifier, payload),
  });
  jobs.define('announcements.fanout-done', {
    handler: ({ payload }) => finishFanout(db, jobs, payload.announcementUuid, payload.revision),
  });
  jobs.define('announcements.withdraw', {
    handler: ({ payload }) => withdrawBatch(db, jobs, notifier, payload.announcementUuid),
  });

  route(announcementsRoutes.listAnnouncements, {
    handler: async (request) => listAnnouncements(db, request.user, request.query),
  });

  route(announcementsRoutes.getAnnouncement, {
    handler: async (request) => ({
      data: await getAnnouncement(db, request.user, request.params.announcementUuid),
    }),
  });

  route(announcementsRoutes.createAnnouncement, {
    idempotent: true,
    handler: async (request, reply) => {
      const data = await createAnnouncement(db, rules, request.user, request.body);
      reply.code(201);
      return { data };
    },
  });

  route(announcementsRoutes.updateAnnouncement, {
    handler: async (request) => ({
      data: await updateAnnouncement(
        db,
        jobs,
        rules,
        request.user,
        request.params.announcementUuid,
        request.body,
      ),
    }),
  });

  route(announcementsRoutes.publishAnnouncement, {
    handler: async (request) => ({
      data: await publishAnnouncement(db, jobs, request.user, request.params.announcementUuid),
    }),
  });

  route(announcementsRoutes.withdrawAnnouncement, {
    handler: async (request) => ({
      data: await withdrawAnnouncement(db, jobs, request.user, request.params.announcementUuid),
    }),
  });

  route(announcementsRoutes.deleteAnnouncement, {
    handler: async (request, reply) => {
      await deleteAnnouncement(db, request.user, request.params.announcementUuid);
      reply.code(204);
      return null;
    },
  });

  route(announcementsRoutes.listCurrentAnnouncements, {
    handler: async (request) => listCurrentAnnouncements(db, request.user),
  });

  route(announcementsRoutes.dismissAnnouncement, {
    handler: async (request, reply) => {
      await dismissAnnouncement(db, request.user, request.params.announcementUuid);
      reply.code(204);
      return null;
    },
  });

  route(announcementsRoutes.readAnnouncement, {
    handler: async (request) => ({
      data: await readAnnouncement(db, request.user, request.params.announcementUuid),
    }),
  });
}
