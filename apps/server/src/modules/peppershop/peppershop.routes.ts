import { peppershopRoutes } from '@portal/contract';
import type { ModuleDeps } from '../deps.ts';
import { createHttpShopAdapter } from './peppershop-adapter.ts';
import { queueDueSyncs, runShopSyncJob, syncShopNow } from './peppershop-sync.ts';
import {
  disconnectShop,
  getShopState,
  resealStaleKeys,
  saveShopConnection,
  testShopConnection,
  type ShopDeps,
} from './peppershop.service.ts';

declare module '../../jobs/runner.ts' {
  interface JobKinds {
    'shop.sync': { accountUuid: string };
    'shop.schedule': Record<string, never>;
  }
}

/** Attempts of a sync that fails for another reason than the shop (the database), before it is given up. */
const SYNC_ATTEMPTS = 3;
/** How often the scheduler looks for connections whose next sync is due. */
const SCHEDULE_EVERY_MS = 60 * 1000;

/**
 * The account's online shop (ADMIN and above): its address and sealed key, a connection test, the sync options,
 * syncs on the jobs runner (scheduled and "sync now") and disconnecting.
 */
export function registerPeppershopRoutes({ db, route, jobs, secrets, config }: ModuleDeps) {
  const shop: ShopDeps = { db, secrets, config: config.shop, adapter: createHttpShopAdapter };

  // One sync per account at a time: the job's unique key holds it while queued or running, on every instance.
  jobs.define('shop.sync', {
    maxAttempts: SYNC_ATTEMPTS,
    handler: ({ payload, attempt }) => runShopSyncJob(shop, payload.accountUuid, attempt >= SYNC_ATTEMPTS),
  });
  jobs.define('shop.schedule', {
    every: SCHEDULE_EVERY_MS,
    handler: async ({ log }) => {
      const queued = await queueDueSyncs(db, jobs);
      const resealed = await resealStaleKeys(db, secrets);
      if (queued || resealed) log.info({ queued, resealed }, 'shop syncs queued, keys sealed again');
    },
  });

  route(peppershopRoutes.getShopState, {
    handler: async (request) => ({ data: await getShopState(db, config.shop, request.account) }),
  });

  route(peppershopRoutes.saveShopConnection, {
    handler: async (request) => ({
      data: await saveShopConnection(shop, request.user, request.account, request.body),
    }),
  });

  route(peppershopRoutes.testShopConnection, {
    handler: async (request) => ({ data: await testShopConnection(shop, request.account, request.body) }),
  });

  route(peppershopRoutes.syncShopNow, {
    handler: async (request, reply) => {
      reply.code(202);
      return { data: await syncShopNow(shop, jobs, request.account) };
    },
  });

  route(peppershopRoutes.disconnectShop, {
    handler: async (request, reply) => {
      await disconnectShop(db, request.user, request.account);
      reply.code(204);
      return null;
    },
  });
}
