import { deepcloudRoutes } from '@portal/contract';
import { wholeList } from '../../db/paging.ts';
import type { ModuleDeps } from '../deps.ts';
import { createCloudClient } from './deepcloud.client.ts';
import { createCloudService } from './deepcloud.service.ts';

declare module '../../jobs/runner.ts' {
  interface JobKinds {
    'cloud.refresh-tokens': Record<string, never>;
  }
}

/** How often the refresh job runs, and how far ahead it refreshes: whatever would expire before its next run. */
export const CLOUD_REFRESH_EVERY_MS = 5 * 60 * 1000;
const REFRESH_AHEAD_MS = CLOUD_REFRESH_EVERY_MS + 60_000;

/**
 * The account's cloud connection: its state, the code exchange that connects it, the organisations it reaches and
 * disconnecting. Tokens stay on the server; a job keeps them fresh.
 */
export function registerDeepcloudRoutes({ config, db, route, jobs, secrets, notifier }: ModuleDeps) {
  const client = config.cloud ? createCloudClient(config.cloud) : null;
  const cloud = createCloudService({ db, secrets, notifier, client });

  jobs.define('cloud.refresh-tokens', {
    every: CLOUD_REFRESH_EVERY_MS,
    handler: async ({ log }) => {
      const { refreshed, failed } = await cloud.refreshDue(REFRESH_AHEAD_MS, log);
      const resealed = await cloud.resealStale();
      if (refreshed || failed || resealed) log.info({ refreshed, failed, resealed }, 'cloud token refresh');
    },
  });

  route(deepcloudRoutes.getCloudState, {
    handler: async (request) => ({ data: await cloud.getState(request.account) }),
  });

  route(deepcloudRoutes.connectCloud, {
    idempotent: true,
    handler: async (request, reply) => {
      const connection = await cloud.connect(request.user, request.account, request.body, request.log);
      reply.code(201);
      return { data: connection };
    },
  });

  route(deepcloudRoutes.listCloudOrganizations, {
    handler: async (request, reply) => {
      // The caller going away before the answer (a closed tab, an aborted fetch) ends the call to the cloud too.
      const controller = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) controller.abort();
      };
      reply.raw.once('close', onClose);
      try {
        const organizations = await cloud.organizations(request.account, request.log, controller.signal);
        return wholeList(organizations);
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  });

  route(deepcloudRoutes.disconnectCloud, {
    handler: async (request, reply) => {
      await cloud.disconnect(request.user, request.account, request.log);
      reply.code(204);
      return null;
    },
  });
}
