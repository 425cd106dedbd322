import { abaclikRoutes } from '@portal/contract';
import { bearerToken } from '../../http/bearer.ts';
import { HttpError } from '../../http/errors.ts';
import type { ModuleDeps } from '../deps.ts';
import { LimitReached } from '../../limits/limits.ts';
import {
  createCode,
  getCodeStatus,
  heartbeat,
  listDevices,
  pairDevice,
  revokeDevice,
} from './abaclik.service.ts';

/**
 * AbaClik pairing. For members of the account: their devices (every device for ADMIN and above), an activation code
 * for their own phone and its state, revoking a device. For the app, without a portal sign-in: the code exchange
 * (limited per client address and overall) and the heartbeat with the device token.
 */
export function registerAbaclikRoutes({ db, route, config }: ModuleDeps) {
  route(abaclikRoutes.listAbaclikDevices, {
    handler: async (request) => listDevices(db, request.user, request.account, request.query),
  });

  route(abaclikRoutes.createAbaclikActivationCode, {
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await createCode(db, request.user, request.account, config.publicUrl) };
    },
  });

  route(abaclikRoutes.getAbaclikActivationCode, {
    handler: async (request) => ({
      data: await getCodeStatus(db, request.user, request.account, request.params.uuid),
    }),
  });

  route(abaclikRoutes.revokeAbaclikDevice, {
    handler: async (request, reply) => {
      await revokeDevice(db, request.user, request.account, request.params.uuid);
      reply.code(204);
      return null;
    },
  });

  route(abaclikRoutes.pairAbaclikDevice, {
    handler: async (request, reply) => {
      try {
        const client = { address: request.ip, userAgent: request.headers['user-agent'] };
        const pairing = await pairDevice(db, config.abaclik, client, request.body);
        reply.code(201).header('Cache-Control', 'no-store');
        return pairing;
      } catch (error) {
        if (error instanceof LimitReached && error.retryAfter)
          reply.header('Retry-After', String(error.retryAfter));
        throw error;
      }
    },
  });

  route(abaclikRoutes.abaclikHeartbeat, {
    handler: async (request, reply) => {
      try {
        return { data: await heartbeat(db, bearerToken(request.headers.authorization), request.body) };
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 401) {
          reply.header('WWW-Authenticate', 'Bearer realm="abaclik"');
        }
        throw error;
      }
    },
  });
}
